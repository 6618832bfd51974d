package store

import "encoding/binary"

// validProps reports whether b is properties in compact form (codec.go)
// that propReader reads to their end without reading past it, naming by
// id only the first names names of the dictionary: what a record read
// back from a file must be before the table holds it.
func validProps(b []byte, names int) bool {
	for len(b) > 0 {
		ref, n := binary.Uvarint(b)
		if n <= 0 {
			return false
		}
		b = b[n:]
		if ref > 0 {
			if ref-1 >= uint64(names) {
				return false
			}
		} else if b = skipBytes(b); b == nil {
			return false
		}
		if len(b) == 0 {
			return false
		}
		tag := b[0]
		if b = skipValue(tag, b[1:]); b == nil {
			return false
		}
	}
	return true
}

// skipValue returns what follows a value of the tag at the start of b,
// nil when b ends first or the tag is none of codec.go's.
func skipValue(tag byte, b []byte) []byte {
	switch {
	case tag == tagTrue || tag == tagFalse:
		return nonNil(b)
	case tag == tagInt || tag == tagInt64:
		if _, n := binary.Varint(b); n > 0 {
			return b[n:]
		}
		return nil
	case tag == tagDateTime:
		if len(b) < 1 {
			return nil
		}
		if _, n := binary.Varint(b[1:]); n > 0 {
			if _, m := binary.Uvarint(b[1+n:]); m > 0 {
				return b[1+n+m:]
			}
		}
		return nil
	case tag == tagGUIDLower || tag == tagGUIDUpper:
		if len(b) < 16 {
			return nil
		}
		return b[16:]
	case tag == tagRawTyped:
		if b = skipBytes(b); b == nil {
			return nil
		}
		return skipBytes(b)
	case tag >= tagString && tag < tagRaw+byte(len(rawTypes)):
		return skipBytes(b) // tagString, tagEscaped, tagBinary, tagRaw+i
	}
	return nil
}

// skipBytes returns what follows a uvarint length and that many bytes at
// the start of b, nil when b ends first.
func skipBytes(b []byte) []byte {
	l, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < l {
		return nil
	}
	return nonNil(b[n+int(l):])
}

// nonNil is b, an empty slice rather than nil (nil says "malformed").
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
