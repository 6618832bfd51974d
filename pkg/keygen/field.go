package keygen

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// FieldSpec declares one field of the population: how its value for entity i
// is drawn. Only the members of its Kind are used.
type FieldSpec struct {
	Name string
	// Kind is one of choice, id, int, sequence, guid, slug.
	Kind string
	// Values and Weights (choice): a value drawn with probability weight/sum;
	// without Weights every value is equally likely.
	Values  []string
	Weights []float64
	// Count, Distribution, Prefix and Width (id): a number in [0, Count) drawn
	// from Distribution (default uniform), rendered as Prefix + number
	// zero-padded to Width (default: the digits of Count-1). With a
	// Lifetime, Count is the keys live at once (or 0, derived from the
	// lifetime) and the numbers grow with the keys' births (default width
	// lifetimeWidth).
	Count        int64
	Distribution string
	Prefix       string
	Width        int
	Lifetime     *LifetimeSpec
	// Min and Max (int): a uniform integer in [Min, Max].
	Min, Max int64
	// Start and Step (sequence): Start + i*Step, rendered zero-padded to Width.
	Start, Step int64
	// Words (slug): the number of words, default 3; slugs are made unique by a
	// base-36 suffix of the entity index.
	Words int
}

// FieldKinds lists the accepted field kinds.
var FieldKinds = []string{"choice", "id", "int", "sequence", "guid", "slug"}

// Value is one field's value for one entity. Numeric kinds use Num, choice uses
// Str, guid and slug use Bits (and Num for the slug's suffix). It holds no
// pointers into per-entity memory, so filling it never allocates.
type Value struct {
	Num  int64
	Str  string
	Bits [2]uint64
}

// field is a compiled FieldSpec.
type field struct {
	spec    FieldSpec
	salt    uint64
	numeric bool
	width   int
	dist    Distribution
	cum     []float64 // choice: cumulative weights, normalised to 1
	seq     bool      // id with sequential distribution: i % Count
	life    *Lifetime // id with a lifetime
}

// lifetimeWidth is the digits of a key with a lifetime, by default: keys
// keep being born, so no count bounds their numbers.
const lifetimeWidth = 10

var fieldNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,254}$`)

// compileField validates a spec and prepares it for drawing, the
// population writing an entity every iv of event time. Every error wraps
// ErrField and names the field.
func compileField(s FieldSpec, iv time.Duration) (*field, error) {
	if !fieldNameRE.MatchString(s.Name) {
		return nil, fmt.Errorf("%w %q: a field name must start with a letter or _ and hold only letters, digits and _ (it becomes a property name)", ErrField, s.Name)
	}
	f := &field{spec: s, salt: nameHash(s.Name)}
	if isBuiltin(s.Name) || reservedProperty(s.Name) {
		return nil, f.bad("the name is reserved (built-in fields: %s; properties: PartitionKey, RowKey, Timestamp, EventTime, Seq, Version, Data*): rename it", strings.Join(BuiltinFields, ", "))
	}
	if err := f.compileKind(iv); err != nil {
		return nil, err
	}
	if s.Width < 0 || s.Width > 30 {
		return nil, f.bad("width must be between 0 and 30")
	}
	return f, nil
}

// bad is an error about f: ErrField, its name and why.
func (f *field) bad(format string, a ...any) error {
	return fmt.Errorf("%w %q: %s", ErrField, f.spec.Name, fmt.Sprintf(format, a...))
}

// MemberError is a problem with one member of a field's spec (like
// "lifetime" or "distribution"), so a scenario can point at it.
type MemberError struct {
	Member string
	err    error
}

func (e *MemberError) Error() string { return e.err.Error() }

// Unwrap is the field's error (wrapping ErrField).
func (e *MemberError) Unwrap() error { return e.err }

// badMember is bad, about member of f's spec.
func (f *field) badMember(member, format string, a ...any) error {
	return &MemberError{Member: member, err: f.bad(format, a...)}
}

// badDistribution is a field's distribution that does not parse. It reads
// once, `keygen: bad field "d": distribution "zipf(0)": why`, and wraps
// both ErrField and the ErrDistribution error.
type badDistribution struct {
	field string
	err   error
}

func (e *badDistribution) Error() string {
	why := strings.TrimPrefix(e.err.Error(), ErrDistribution.Error()+": ")
	return fmt.Sprintf("%v %q: distribution %s", ErrField, e.field, why)
}

func (e *badDistribution) Unwrap() []error { return []error{ErrField, e.err} }

// compileKind checks and prepares what f's kind needs: a choice's
// cumulative weights, an id's distribution, width and lifetime, whether
// the value is numeric, a sequence's step (default 1) and a slug's words
// (default 3, at most 8).
func (f *field) compileKind(iv time.Duration) error {
	s := f.spec
	if s.Lifetime != nil && s.Kind != "id" {
		return f.badMember("lifetime", "a lifetime applies to an id field (kind: id), not to a %s", s.Kind)
	}
	switch s.Kind {
	case "choice":
		return f.compileChoice()
	case "id":
		if s.Lifetime != nil {
			return f.compileLifetimeID(iv)
		}
		return f.compileID()
	case "int":
		if s.Max < s.Min {
			return f.bad("max (%d) is below min (%d): make max at least min", s.Max, s.Min)
		}
		f.numeric = true
		f.width = s.Width
	case "sequence":
		f.numeric = true
		f.width = s.Width
		if s.Step == 0 {
			f.spec.Step = 1
		}
	case "guid":
	case "slug":
		if s.Words == 0 {
			f.spec.Words = 3
		}
		if f.spec.Words < 1 || f.spec.Words > 8 {
			return f.bad("words must be between 1 and 8")
		}
	case "":
		return f.bad("kind is missing; use one of %s", strings.Join(FieldKinds, ", "))
	default:
		return f.bad("kind %q is unknown; use one of %s", s.Kind, strings.Join(FieldKinds, ", "))
	}
	return nil
}

// compileChoice turns a choice's weights (1 each when none are given; one
// per value, each >= 0, not all 0) into cumulative shares ending at 1.
func (f *field) compileChoice() error {
	s := f.spec
	if len(s.Values) == 0 {
		return f.bad("a choice needs values, like values: [red, green, blue]")
	}
	if len(s.Weights) != 0 && len(s.Weights) != len(s.Values) {
		return f.bad("weights has %d entries but values has %d: give one weight per value", len(s.Weights), len(s.Values))
	}
	f.cum = make([]float64, len(s.Values))
	total := 0.0
	for i := range s.Values {
		w := 1.0
		if len(s.Weights) > 0 {
			w = s.Weights[i]
		}
		if !(w >= 0) {
			return f.bad("weight %v of %q must be >= 0", w, s.Values[i])
		}
		total += w
		f.cum[i] = total
	}
	if total <= 0 {
		return f.bad("the weights sum to 0: at least one must be positive")
	}
	for i := range f.cum {
		f.cum[i] /= total
	}
	return nil
}

// compileID prepares an id: Count >= 1 distinct values drawn by its
// distribution (uniform unless given), written Width digits wide, by
// default as wide as the largest value, Count-1.
func (f *field) compileID() error {
	s := f.spec
	if s.Count < 1 {
		return f.bad("an id needs count >= 1 (how many distinct ids exist)")
	}
	d := s.Distribution
	if d == "" {
		d = "uniform"
	}
	dist, err := ParseDistribution(d)
	if err != nil {
		return &badDistribution{field: s.Name, err: err}
	}
	f.dist = dist
	_, f.seq = dist.(*Sequential)
	f.numeric = true
	f.width = s.Width
	if f.width == 0 {
		f.width = len(strconv.FormatInt(s.Count-1, 10))
	}
	return nil
}

// compileLifetimeID prepares an id whose keys are born and retire
// (Lifetime): drawn evenly among the live keys, written Width digits wide
// (lifetimeWidth by default).
func (f *field) compileLifetimeID(iv time.Duration) error {
	if err := f.compileLifetime(iv); err != nil {
		return err
	}
	f.spec.Count = f.life.Live
	f.dist = Uniform{}
	f.numeric = true
	f.width = f.spec.Width
	if f.width == 0 {
		f.width = lifetimeWidth
	}
	return nil
}

// draw computes the field's value for entity i of a population seeded with
// seed. st is scratch space (reseeded here), so that passing it to a
// Distribution does not allocate.
func (f *field) draw(seed uint64, i int64, st *Stream) Value {
	*st = entityStream(seed, f.salt, i)
	s := &f.spec
	switch s.Kind {
	case "choice":
		u := st.Float64()
		k := sort.SearchFloat64s(f.cum, u)
		for k < len(f.cum)-1 && f.cum[k] <= u {
			k++
		}
		return Value{Str: s.Values[k]}
	case "id":
		if f.life != nil {
			return Value{Num: f.life.Oldest(i) + st.Int64n(f.life.Live)}
		}
		if f.seq {
			return Value{Num: i % s.Count}
		}
		return Value{Num: f.dist.Pick(st, s.Count)}
	case "int":
		return Value{Num: s.Min + st.Int64n(s.Max-s.Min+1)}
	case "sequence":
		return Value{Num: s.Start + i*f.spec.Step}
	case "guid":
		return Value{Bits: [2]uint64{st.Uint64(), st.Uint64()}}
	case "slug":
		return Value{Bits: [2]uint64{st.Uint64(), 0}, Num: i}
	}
	return Value{}
}

// appendValue renders v in the field's default form.
func (f *field) appendValue(dst []byte, v *Value) []byte {
	switch f.spec.Kind {
	case "choice":
		return append(dst, v.Str...)
	case "id":
		dst = append(dst, f.spec.Prefix...)
		return appendPadded(dst, v.Num, f.width)
	case "int", "sequence":
		return appendPadded(dst, v.Num, f.width)
	case "guid":
		return appendGUID(dst, v.Bits)
	case "slug":
		return appendSlug(dst, v, f.spec.Words)
	}
	return dst
}

// appendNumber renders v's number with a numeric format, keeping an id's prefix.
func (f *field) appendNumber(dst []byte, v *Value, nf numFormat) []byte {
	if f.spec.Kind == "id" {
		dst = append(dst, f.spec.Prefix...)
	}
	return nf.append(dst, v.Num)
}

// outputs returns every string the field can render to when that set is small
// (choice), or representative ones otherwise; key validation checks them.
func (f *field) outputs() []string {
	if f.spec.Kind == "choice" {
		return f.spec.Values
	}
	var out []string
	for _, i := range []int64{0, 1, 7, 12345} {
		var st Stream
		v := f.draw(0, i, &st)
		out = append(out, string(f.appendValue(nil, &v)))
	}
	if f.spec.Kind == "id" && f.life == nil {
		v := Value{Num: f.spec.Count - 1}
		out = append(out, string(f.appendValue(nil, &v)))
	}
	return out
}
