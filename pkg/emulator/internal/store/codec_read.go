package store

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"unsafe"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// propReader reads properties in compact form. Names and values alias the
// bytes read (or the dictionary), so they are valid as long as those are.
type propReader struct {
	b  []byte
	nm *Names
}

// next returns the next property's name, tag and value bytes (by tag: the
// varint or the length-prefixed bytes' content); false at the end.
func (r *propReader) next() (name string, tag byte, val []byte, ok bool) {
	if len(r.b) == 0 {
		return "", 0, nil, false
	}
	ref, n := binary.Uvarint(r.b)
	b := r.b[n:]
	if ref > 0 {
		name = r.nm.name(uint32(ref - 1))
	} else {
		l, n := binary.Uvarint(b)
		name, b = string(b[n:n+int(l)]), b[n+int(l):]
	}
	tag, b = b[0], b[1:]
	var size int
	switch tag {
	case tagTrue, tagFalse:
	case tagInt, tagInt64:
		_, size = binary.Varint(b)
	case tagDateTime:
		_, n := binary.Varint(b[1:])
		_, m := binary.Uvarint(b[1+n:])
		size = 1 + n + m
	case tagGUIDLower, tagGUIDUpper:
		size = 16
	case tagRawTyped:
		l, n := binary.Uvarint(b)
		t := n + int(l)
		l, n = binary.Uvarint(b[t:])
		size = t + n + int(l)
	default: // tagString, tagEscaped, tagBinary, tagRaw+i
		l, n := binary.Uvarint(b)
		b, size = b[n:], int(l)
	}
	r.b = b[size:]
	return name, tag, b[:size], true
}

// typeOf is the annotation the fragment writes for a value, "" for none.
func typeOf(tag byte, val []byte) string {
	switch tag {
	case tagInt64:
		return "Edm.Int64"
	case tagDateTime:
		return "Edm.DateTime"
	case tagGUIDLower, tagGUIDUpper:
		return "Edm.Guid"
	case tagBinary:
		return "Edm.Binary"
	case tagRawTyped:
		l, n := binary.Uvarint(val)
		return string(val[n : n+int(l)])
	}
	if tag >= tagRaw {
		return rawTypes[tag-tagRaw]
	}
	return ""
}

// appendValueJSON appends a value's JSON, as the client sent it.
func appendValueJSON(dst []byte, tag byte, val []byte) []byte {
	switch tag {
	case tagString:
		return append(append(append(dst, '"'), val...), '"')
	case tagEscaped:
		return jsontext.AppendString(dst, unsafe.String(unsafe.SliceData(val), len(val)))
	case tagTrue:
		return append(dst, "true"...)
	case tagFalse:
		return append(dst, "false"...)
	case tagInt:
		n, _ := binary.Varint(val)
		return strconv.AppendInt(dst, n, 10)
	case tagInt64:
		n, _ := binary.Varint(val)
		return append(strconv.AppendInt(append(dst, '"'), n, 10), '"')
	case tagDateTime:
		sec, n := binary.Varint(val[1:])
		nsec, _ := binary.Uvarint(val[1+n:])
		return append(edm.AppendTime(append(dst, '"'), sec, int64(nsec), int(val[0]), ":"), '"')
	case tagGUIDLower, tagGUIDUpper:
		return append(edm.AppendGUID(append(dst, '"'), val, tag == tagGUIDUpper), '"')
	case tagBinary:
		return append(base64.StdEncoding.AppendEncode(append(dst, '"'), val), '"')
	case tagRawTyped:
		l, n := binary.Uvarint(val)
		val = val[n+int(l):]
		_, n = binary.Uvarint(val)
		return append(dst, val[n:]...)
	}
	return append(dst, val...) // tagRaw+i
}

// appendFragment appends the compact properties b as fragment writes them:
// the minimal-metadata JSON members, each annotation before its value.
func appendFragment(dst, b []byte, nm *Names) []byte {
	r := propReader{b: b, nm: nm}
	for first := true; ; first = false {
		name, tag, val, ok := r.next()
		if !ok {
			return dst
		}
		if !first {
			dst = append(dst, ',')
		}
		dst = appendMember(dst, name, tag, val, true)
	}
}

// appendMember appends one property as AppendProp does: its annotation
// first when typed is set and the fragment has one.
func appendMember(dst []byte, name string, tag byte, val []byte, typed bool) []byte {
	if typ := typeOf(tag, val); typed && typ != "" {
		// jsontext.AppendString(name+"@odata.type"): the suffix needs no escaping.
		dst = jsontext.AppendString(dst, name)
		dst = append(dst[:len(dst)-1], `@odata.type":`...)
		dst = jsontext.AppendString(dst, typ)
		dst = append(dst, ',')
	}
	dst = jsontext.AppendString(dst, name)
	dst = append(dst, ':')
	return appendValueJSON(dst, tag, val)
}

// decodeProps returns the compact properties b as the request parsing
// returned them, types as the fragment keeps them.
func decodeProps(b []byte, nm *Names) []Prop {
	var out []Prop
	var raws []byte
	var ends []int
	r := propReader{b: b, nm: nm}
	for {
		name, tag, val, ok := r.next()
		if !ok {
			break
		}
		raws = appendValueJSON(raws, tag, val)
		ends = append(ends, len(raws))
		out = append(out, Prop{Name: name, Type: typeOf(tag, val)})
	}
	from := 0
	for i := range out {
		out[i].Raw = raws[from:ends[i]:ends[i]]
		from = ends[i]
	}
	return out
}
