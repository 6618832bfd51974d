package keygen

import (
	"strconv"
	"unicode/utf8"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// AppendJSON appends the JSON body of one row of entity e, with the given
// keys, as the Table service's JSON format expects it:
//
//	{"PartitionKey":…,"RowKey":…,<field>:…,"EventTime":…,"EventTime@odata.type":"Edm.DateTime",
//	 "Seq":"i","Seq@odata.type":"Edm.Int64","Version":v,"Data":…}
//
// id, choice, guid and slug fields are strings; int and sequence fields are
// Int64 (sent as strings with an @odata.type annotation, as 64-bit integers
// must be). The payload is Spec().Payload.Size printable bytes split over
// Data, Data1, ... properties. version distinguishes rewrites of the same
// entity. The result is a pure function of (population, e.Index, keys, version).
func (p *Population) AppendJSON(dst []byte, e *Entity, pk, rk []byte, version int64) []byte {
	return p.appendRow(dst, e, pk, rk, nil, nil, version)
}

// appendRow is AppendJSON with, when mainPK is not nil, the pointer to a
// main row (MainPartitionKey, MainRowKey) after the keys: an index row
// that is a copy of the entity.
func (p *Population) appendRow(dst []byte, e *Entity, pk, rk, mainPK, mainRK []byte, version int64) []byte {
	dst = append(dst, `{"PartitionKey":`...)
	dst = jsontext.AppendBytes(dst, pk)
	dst = append(dst, `,"RowKey":`...)
	dst = jsontext.AppendBytes(dst, rk)
	if mainPK != nil {
		dst = appendPointer(dst, mainPK, mainRK)
	}
	for k := range p.fields {
		dst = p.appendField(dst, k, e)
	}
	dst = append(dst, `,"EventTime":"`...)
	dst = e.Time.UTC().AppendFormat(dst, EventTimeLayout)
	dst = append(dst, `","EventTime@odata.type":"Edm.DateTime","Seq":"`...)
	dst = strconv.AppendInt(dst, e.Index, 10)
	dst = append(dst, `","Seq@odata.type":"Edm.Int64","Version":`...)
	dst = strconv.AppendInt(dst, version, 10)
	dst = p.appendPayload(dst, e.Index, version)
	return append(dst, '}')
}

func appendPointer(dst, mainPK, mainRK []byte) []byte {
	dst = append(dst, `,"MainPartitionKey":`...)
	dst = jsontext.AppendBytes(dst, mainPK)
	dst = append(dst, `,"MainRowKey":`...)
	return jsontext.AppendBytes(dst, mainRK)
}

// AppendPatchJSON appends a partial body for merge operations: the keys, a new
// Version and a fresh first payload chunk (at most 1 KiB of it).
func (p *Population) AppendPatchJSON(dst []byte, e *Entity, pk, rk []byte, version int64) []byte {
	dst = append(dst, `{"PartitionKey":`...)
	dst = jsontext.AppendBytes(dst, pk)
	dst = append(dst, `,"RowKey":`...)
	dst = jsontext.AppendBytes(dst, rk)
	dst = append(dst, `,"Version":`...)
	dst = strconv.AppendInt(dst, version, 10)
	if n := min(p.spec.Payload.Size, 1024); n > 0 {
		dst = append(dst, `,"Data":"`...)
		dst = append(dst, p.window(e.Index, version, n)...)
		dst = append(dst, '"')
	}
	return append(dst, '}')
}

// AppendIndexJSON appends the body of an index-table row pointing at the main
// row (mainPK, mainRK), carrying the event time.
func AppendIndexJSON(dst []byte, e *Entity, pk, rk, mainPK, mainRK []byte) []byte {
	dst = append(dst, `{"PartitionKey":`...)
	dst = jsontext.AppendBytes(dst, pk)
	dst = append(dst, `,"RowKey":`...)
	dst = jsontext.AppendBytes(dst, rk)
	dst = appendPointer(dst, mainPK, mainRK)
	dst = append(dst, `,"EventTime":"`...)
	dst = e.Time.UTC().AppendFormat(dst, EventTimeLayout)
	return append(dst, `","EventTime@odata.type":"Edm.DateTime"}`...)
}

// AppendIndexRowJSON appends the body of entity e's row in index table
// x: the pointer of AppendIndexJSON; for a projection also the entity's
// Seq and the fields it carries, and for CarriesAll a copy of the main
// row (every field and the payload) with the pointer.
func (p *Population) AppendIndexRowJSON(dst []byte, e *Entity, x *Index, pk, rk, mainPK, mainRK []byte) []byte {
	switch {
	case x.CarriesAll:
		return p.appendRow(dst, e, pk, rk, mainPK, mainRK, 0)
	case !x.Projects():
		return AppendIndexJSON(dst, e, pk, rk, mainPK, mainRK)
	}
	dst = AppendIndexJSON(dst, e, pk, rk, mainPK, mainRK)
	dst = dst[:len(dst)-1] // reopen the object
	for _, k := range x.carried {
		dst = p.appendField(dst, k, e)
	}
	dst = append(dst, `,"Seq":"`...)
	dst = strconv.AppendInt(dst, e.Index, 10)
	return append(dst, `","Seq@odata.type":"Edm.Int64"}`...)
}

// appendField appends field k of e as a property, as AppendJSON writes it.
func (p *Population) appendField(dst []byte, k int, e *Entity) []byte {
	f := p.fields[k]
	dst = append(dst, ',', '"')
	dst = append(dst, f.spec.Name...)
	dst = append(dst, '"', ':')
	if f.spec.Kind == "int" || f.spec.Kind == "sequence" {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, e.Values[k].Num, 10)
		dst = append(dst, `","`...)
		dst = append(dst, f.spec.Name...)
		return append(dst, `@odata.type":"Edm.Int64"`...)
	}
	start := len(dst)
	dst = f.appendValue(dst, &e.Values[k])
	return quoteInPlace(dst, start)
}

// appendPayload appends the Data properties.
func (p *Population) appendPayload(dst []byte, i, version int64) []byte {
	size := p.spec.Payload.Size
	for chunk := 0; size > 0; chunk++ {
		n := min(size, MaxPropertyChars)
		dst = append(dst, `,"Data`...)
		if chunk > 0 {
			dst = strconv.AppendInt(dst, int64(chunk), 10)
		}
		dst = append(dst, `":"`...)
		dst = append(dst, p.window(i+int64(chunk)<<40, version, n)...)
		dst = append(dst, '"')
		size -= n
	}
	return dst
}

// window returns n payload bytes for (i, version) from the seeded buffer.
func (p *Population) window(i, version int64, n int) []byte {
	span := len(p.pad) - n
	off := 0
	if span > 0 {
		off = int(mix(uint64(i)^mix(uint64(version))) % uint64(span+1))
	}
	return p.pad[off : off+n]
}

// EventTimeLayout is how EventTime is written (Edm.DateTime, 100 ns precision).
const EventTimeLayout = "2006-01-02T15:04:05.0000000Z"

// quoteInPlace turns dst[start:] into a JSON string literal.
func quoteInPlace(dst []byte, start int) []byte {
	raw := dst[start:]
	if !needsEscape(raw) {
		dst = append(dst, 0, 0)
		copy(dst[start+1:], dst[start:len(dst)-2])
		dst[start] = '"'
		dst[len(dst)-1] = '"'
		return dst
	}
	tmp := append([]byte(nil), raw...)
	return jsontext.AppendBytes(dst[:start], tmp)
}

func needsEscape(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// AppendKeysJSON appends a body holding only the keys, as entity group
// transaction deletes send it.
func AppendKeysJSON(dst, pk, rk []byte) []byte {
	dst = append(dst, `{"PartitionKey":`...)
	dst = jsontext.AppendBytes(dst, pk)
	dst = append(dst, `,"RowKey":`...)
	dst = jsontext.AppendBytes(dst, rk)
	return append(dst, '}')
}
