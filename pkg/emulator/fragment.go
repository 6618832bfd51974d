package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// entityRow evaluates filters against a stored entity, reading only the
// properties the filter names from its compact form. It is one pointer,
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
	return r.e.lookup(name)
}

// lookup returns a property's value as typedValue gives it for the
// property's JSON and annotation, without decoding the other properties.
// A String's value is a copy; the common kinds are read without JSON.
func (e *entity) lookup(name string) (value, bool) {
	pr := propReader{b: e.props, nm: e.names}
	for {
		n, tag, val, ok := pr.next()
		if !ok {
			return value{}, false
		}
		if n != name {
			continue
		}
		switch tag {
		case tagString, tagEscaped:
			return value{k: kString, s: string(val)}, true
		case tagTrue, tagFalse:
			return value{k: kBool, b: tag == tagTrue}, true
		case tagInt, tagInt64:
			i, _ := binary.Varint(val)
			return value{k: kInt, i: i}, true
		}
		var buf [64]byte
		return typedValue(appendValueJSON(buf[:0], tag, val), typeOf(tag, val))
	}
}

// typedValue converts a stored JSON value with its annotation.
func typedValue(raw []byte, typ string) (value, bool) {
	s, isString := jsontext.Unquote(raw)
	switch typ {
	case "Edm.Int64":
		n, err := strconv.ParseInt(s, 10, 64)
		return value{k: kInt, i: n}, isString && err == nil
	case "Edm.DateTime":
		t, err := edm.ParseTime(s)
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

// fragmentLen is len(fragment(props)), computed without writing it.
func fragmentLen(props []prop) int {
	n := max(len(props)-1, 0) // commas
	for _, p := range props {
		name := jsontext.StringLen(p.name)
		if annotated(p) {
			n += name + len("@odata.type") + 1 + jsontext.StringLen(p.typ) + 1
		}
		n += name + 1 + len(p.raw)
	}
	return n
}
