package store

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// The compact form of an entity's properties, as a stored entity holds
// them (Entity.props): the properties in name order, each
//
//	name   uvarint: the name's id in the table's dictionary (names.go)
//	       plus one, or 0 followed by the name's length (uvarint) and bytes
//	tag    one byte: how the value is held (the tag constants)
//	value  as the tag says
//
// A value is held compactly (a number as a varint, a GUID in 16 bytes, a
// Binary decoded, a DateTime as seconds and nanoseconds, a String
// unescaped) only when rendering it back gives the JSON the client sent
// byte for byte; any other value is held as that JSON. So the form is
// lossless: appendFragment renders exactly fragment(props), the minimal-
// metadata JSON members the service has always answered with, and an
// entity costs its data plus a few bytes, not its JSON.
const (
	tagString    byte = iota + 1 // unannotated String written without escapes: uvarint length, UTF-8 bytes
	tagEscaped                   // unannotated String written with escapes: uvarint length, UTF-8 bytes
	tagTrue                      // true
	tagFalse                     // false
	tagInt                       // unannotated integer (an Int32): zigzag varint
	tagInt64                     // Edm.Int64, "digits": zigzag varint
	tagDateTime                  // Edm.DateTime "…Z": fraction digits byte, zigzag varint seconds, uvarint nanoseconds
	tagGUIDLower                 // Edm.Guid in lowercase hex: 16 bytes
	tagGUIDUpper                 // Edm.Guid in uppercase hex: 16 bytes
	tagBinary                    // Edm.Binary: uvarint length, the bytes (standard base64 in JSON)
	tagRawTyped                  // JSON with any other annotation: uvarint length and annotation, uvarint length and JSON
	tagRaw                       // JSON as received, tagRaw+i annotated rawTypes[i]: uvarint length, JSON
)

// rawTypes are the annotations a value held as JSON has in the fragment:
// none, or one its JSON does not imply (see Prop.Annotated).
var rawTypes = [...]string{"", "Edm.Double", "Edm.Int64", "Edm.DateTime", "Edm.Guid", "Edm.Binary"}

// encodeProps appends the compact form of props (sorted by name, as the
// REST service parses them and Merge returns them), naming them by nm's
// ids; nil nm stores every name.
func encodeProps(dst []byte, props []Prop, nm *Names) []byte {
	for _, p := range props {
		if id, ok := nameID(nm, p.Name); ok {
			dst = binary.AppendUvarint(dst, uint64(id)+1)
		} else {
			dst = binary.AppendUvarint(dst, 0)
			dst = binary.AppendUvarint(dst, uint64(len(p.Name)))
			dst = append(dst, p.Name...)
		}
		typ := p.Type
		if !p.Annotated() {
			typ = ""
		}
		dst = appendCompact(dst, p.Raw, typ)
	}
	return dst
}

// compactCap is room for props' compact form, so that encodeProps
// allocates once: their JSON and a few bytes each, which it does not
// exceed unless names are stored in it (a full dictionary).
func compactCap(props []Prop) int {
	n := 0
	for _, p := range props {
		n += len(p.Raw) + 8
	}
	return n
}

func nameID(nm *Names, name string) (uint32, bool) {
	if nm == nil {
		return 0, false
	}
	return nm.id(name)
}

// appendCompact appends a value's tag and its compact form, or its JSON.
func appendCompact(dst, raw []byte, typ string) []byte {
	var out []byte
	ok := false
	switch typ {
	case "":
		out, ok = appendUntyped(dst, raw)
	case "Edm.Int64", "Edm.DateTime", "Edm.Guid", "Edm.Binary":
		out, ok = appendTyped(dst, raw, typ)
	}
	if ok {
		return out
	}
	for i, t := range rawTypes {
		if t == typ {
			dst = append(dst, tagRaw+byte(i))
			dst = binary.AppendUvarint(dst, uint64(len(raw)))
			return append(dst, raw...)
		}
	}
	dst = append(dst, tagRawTyped)
	dst = binary.AppendUvarint(dst, uint64(len(typ)))
	dst = append(dst, typ...)
	dst = binary.AppendUvarint(dst, uint64(len(raw)))
	return append(dst, raw...)
}

// appendUntyped appends the compact form of a value without annotation,
// false when it has none (it is held as its JSON).
func appendUntyped(dst, raw []byte) ([]byte, bool) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if s, escaped, ok := jsontext.Verbatim(raw); ok {
			tag := tagString
			if escaped {
				tag = tagEscaped
			}
			dst = append(dst, tag)
			dst = binary.AppendUvarint(dst, uint64(len(s)))
			return append(dst, s...), true
		}
	case string(raw) == "true":
		return append(dst, tagTrue), true
	case string(raw) == "false":
		return append(dst, tagFalse), true
	default:
		if n, ok := exactInt(raw); ok {
			return binary.AppendVarint(append(dst, tagInt), n), true
		}
	}
	return dst, false
}

// appendTyped appends the compact form of a value annotated typ (Int64,
// DateTime, Guid or Binary), false when it has none (it is held as its
// JSON).
func appendTyped(dst, raw []byte, typ string) ([]byte, bool) {
	if typ == "Edm.Int64" {
		if len(raw) >= 2 && raw[0] == '"' {
			if n, ok := exactInt(raw[1 : len(raw)-1]); ok {
				return binary.AppendVarint(append(dst, tagInt64), n), true
			}
		}
		return dst, false
	}
	s, ok := jsontext.UnquoteView(raw)
	if !ok {
		return dst, false
	}
	switch typ {
	case "Edm.DateTime":
		if sec, nsec, digits, ok := edm.CompactTime(s); ok {
			dst = append(dst, tagDateTime, byte(digits))
			dst = binary.AppendVarint(dst, sec)
			return binary.AppendUvarint(dst, uint64(nsec)), true
		}
	case "Edm.Guid":
		if g, upper, ok := edm.CompactGUID(s); ok {
			tag := tagGUIDLower
			if upper {
				tag = tagGUIDUpper
			}
			return append(append(dst, tag), g[:]...), true
		}
	case "Edm.Binary":
		if b, err := base64.StdEncoding.DecodeString(s); err == nil && base64.StdEncoding.EncodeToString(b) == s {
			dst = append(dst, tagBinary)
			dst = binary.AppendUvarint(dst, uint64(len(b)))
			return append(dst, b...), true
		}
	}
	return dst, false
}

// exactInt parses a decimal integer that strconv writes back the same.
func exactInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return 0, false
	}
	var buf [24]byte
	return n, string(strconv.AppendInt(buf[:0], n, 10)) == string(b)
}
