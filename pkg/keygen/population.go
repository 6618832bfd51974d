package keygen

import (
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
)

// PopulationSpec declares the entity stream: entity i has the fields drawn
// from (Seed, i), the event time Start + i*Interval, and a payload.
type PopulationSpec struct {
	Seed     uint64
	Start    time.Time
	Interval time.Duration
	Fields   []FieldSpec
	Payload  PayloadSpec
}

// PayloadSpec sizes the filler data of each entity: Size bytes of printable
// ASCII spread over Data, Data1, Data2... string properties of at most
// MaxPropertyChars each.
type PayloadSpec struct {
	Size int
}

// MaxPropertyChars is the longest string property the payload writes:
// Azure's longest String value, in its UTF-16 code units (the payload is
// ASCII, one unit a character).
const MaxPropertyChars = azure.StringUnits

// MaxPayload bounds the payload so an entity stays under Azure's largest
// entity with room for keys and fields (64 KiB of them).
const MaxPayload = azure.EntityBytes - 64<<10

// Population is a compiled PopulationSpec. It is immutable and safe for
// concurrent use.
type Population struct {
	spec   PopulationSpec
	fields []*field
	byName map[string]int
	pad    []byte // the payload source buffer
}

// Entity is one entity of a population: its index, event time and field
// values. Fill it with Population.Entity; reuse it to avoid allocation.
type Entity struct {
	Index  int64
	Time   time.Time
	Values []Value
	guid   [2]uint64
	st     Stream // scratch stream for field draws
}

// NewPopulation validates spec and compiles its fields.
func NewPopulation(spec PopulationSpec) (*Population, error) {
	p := &Population{spec: spec, byName: map[string]int{}}
	for _, fs := range spec.Fields {
		if _, dup := p.byName[fs.Name]; dup {
			return nil, fmt.Errorf("%w %q: declared twice", ErrField, fs.Name)
		}
		f, err := compileField(fs, spec.Interval)
		if err != nil {
			return nil, err
		}
		p.byName[fs.Name] = len(p.fields)
		p.fields = append(p.fields, f)
	}
	if spec.Payload.Size < 0 || spec.Payload.Size > MaxPayload {
		return nil, fmt.Errorf("%w: payload size %d is outside 0..%d bytes (an entity is at most 1 MiB)", ErrField, spec.Payload.Size, MaxPayload)
	}
	if spec.Interval < 0 {
		return nil, fmt.Errorf("%w: interval %v must not be negative", ErrField, spec.Interval)
	}
	p.pad = payloadBuffer(spec.Seed, min(spec.Payload.Size, MaxPropertyChars))
	return p, nil
}

// Spec returns the spec the population was built from.
func (p *Population) Spec() PopulationSpec { return p.spec }

// Fields returns the declared field names in order.
func (p *Population) Fields() []string {
	out := make([]string, len(p.fields))
	for i, f := range p.fields {
		out[i] = f.spec.Name
	}
	return out
}

// HasField reports whether name is a declared field.
func (p *Population) HasField(name string) bool { _, ok := p.byName[name]; return ok }

// Entity fills e with entity i. It reuses e.Values, so a caller that keeps one
// Entity per goroutine allocates nothing.
func (p *Population) Entity(i int64, e *Entity) {
	e.Index = i
	e.Time = p.spec.Start.Add(time.Duration(i) * p.spec.Interval)
	if cap(e.Values) < len(p.fields) {
		e.Values = make([]Value, len(p.fields))
	}
	e.Values = e.Values[:len(p.fields)]
	for k, f := range p.fields {
		e.Values[k] = f.draw(p.spec.Seed, i, &e.st)
	}
	st := entityStream(p.spec.Seed, guidSalt, i)
	e.guid = [2]uint64{st.Uint64(), st.Uint64()}
}

// FieldString renders field name of e in its default form; ok is false when
// there is no such field.
func (p *Population) FieldString(e *Entity, name string) (string, bool) {
	k, ok := p.byName[name]
	if !ok {
		return "", false
	}
	return string(p.fields[k].appendValue(nil, &e.Values[k])), true
}

// payloadBuffer returns n printable bytes (plus n more so any window of n
// bytes can start at a random offset) drawn from the population seed.
func payloadBuffer(seed uint64, n int) []byte {
	if n == 0 {
		return nil
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	st := NewStream(seed, 0x7061796c6f6164) // "payload"
	buf := make([]byte, 2*n)
	for k := range buf {
		buf[k] = alphabet[st.Uint64()%uint64(len(alphabet))]
	}
	return buf
}
