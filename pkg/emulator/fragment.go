package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
)

// entityRow evaluates filters against a stored entity, reading only the
// properties the filter names from its stored fragment. It is one pointer,
// so passing it as a row does not allocate.
type entityRow struct {
	e *entity
}

func (r entityRow) get(name string) (value, bool) {
	switch name {
	case "PartitionKey":
		return value{k: kString, s: r.e.pk}, true
	case "RowKey":
		return value{k: kString, s: r.e.rk}, true
	case "Timestamp":
		return value{k: kTime, t: r.e.time()}, true
	}
	if strings.Contains(name, "@") {
		return value{}, false // annotations are not properties
	}
	raw, typ, ok := lookup(r.e.fragment(), name)
	if !ok {
		return value{}, false
	}
	return typedValue(raw, typ)
}

// lookup finds a property's raw JSON value and type annotation in a stored
// fragment (compact JSON members, as fragment writes them) without
// decoding the rest of the entity or allocating.
func lookup(frag []byte, name string) (raw []byte, typ string, ok bool) {
	for i := 0; i < len(frag); {
		kEnd, escaped := scanString(frag, i)
		if kEnd < 0 || kEnd >= len(frag) || frag[kEnd] != ':' {
			return nil, "", false
		}
		end := skipValue(frag, kEnd+1)
		if end < 0 {
			return nil, "", false
		}
		key := frag[i+1 : kEnd-1]
		if escaped {
			s, _ := unquote(frag[i:kEnd])
			key = []byte(s)
		}
		switch {
		case string(key) == name:
			raw, ok = frag[kEnd+1:end], true
		case len(key) == len(name)+len("@odata.type") && string(key[:len(name)]) == name && string(key[len(name):]) == "@odata.type":
			typ, _ = unquote(frag[kEnd+1 : end])
		}
		i = end + 1 // past the comma
	}
	return raw, typ, ok
}

// readString reads the JSON string at b[i] and returns it and the index
// after it (-1 when there is none).
func readString(b []byte, i int) (string, int) {
	end, _ := scanString(b, i)
	if end < 0 {
		return "", -1
	}
	s, ok := unquote(b[i:end])
	if !ok {
		return "", -1
	}
	return s, end
}

// scanString returns the index after the JSON string at b[i] (-1 when
// there is none) and whether it holds escapes.
func scanString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1, false
		}
		q := j + k
		n := 0 // backslashes before the quote: an odd number escapes it
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, bytes.IndexByte(b[i+1:q], '\\') >= 0
		}
		j = q + 1
	}
}

// skipValue returns the index after the JSON scalar at b[i] (-1 when it is
// malformed). Property values are never objects or arrays.
func skipValue(b []byte, i int) int {
	if i < len(b) && b[i] == '"' {
		end, _ := scanString(b, i)
		return end
	}
	j := i
	for j < len(b) && b[j] != ',' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// typedValue converts a stored JSON value with its annotation.
func typedValue(raw []byte, typ string) (value, bool) {
	s, isString := unquote(raw)
	switch typ {
	case "Edm.Int64":
		n, err := strconv.ParseInt(s, 10, 64)
		return value{k: kInt, i: n}, isString && err == nil
	case "Edm.DateTime":
		t, err := parseTime(s)
		return value{k: kTime, t: t}, isString && err == nil
	case "Edm.Guid":
		return value{k: kGUID, s: strings.ToLower(s)}, isString
	case "Edm.Binary":
		b, err := base64.StdEncoding.DecodeString(s)
		return value{k: kBinary, s: string(b)}, isString && err == nil
	case "Edm.Double":
		if isString { // NaN, Infinity, -Infinity
			f, err := strconv.ParseFloat(s, 64)
			return value{k: kDouble, f: f}, err == nil
		}
	}
	switch {
	case isString:
		return value{k: kString, s: s}, true
	case bytes.Equal(raw, []byte("true")), bytes.Equal(raw, []byte("false")):
		return value{k: kBool, b: raw[0] == 't'}, true
	}
	if typ != "Edm.Double" && !bytes.ContainsAny(raw, ".eE") {
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return value{k: kInt, i: n}, true
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return value{k: kDouble, f: f}, err == nil
}

// unquote returns a JSON string's value; false when raw is not a string.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}
