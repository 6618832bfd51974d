package keygen

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Distribution picks a position in [0, n): which existing entity an operation
// reads or updates, or which value an id field takes. n may change between
// calls (the population grows as a run inserts).
//
// Implementations are safe for concurrent use; the randomness comes from the
// caller's Stream, so a distribution owns no generator.
type Distribution interface {
	// Pick returns a position in [0, n) for n >= 1 (0 when n <= 1).
	Pick(st *Stream, n int64) int64
	// String returns the spec that parses back to this distribution.
	String() string
}

// Uniform gives every position probability 1/n.
type Uniform struct{}

// Pick implements Distribution.
func (Uniform) Pick(st *Stream, n int64) int64 { return st.Int64n(n) }
func (Uniform) String() string                 { return "uniform" }

// Zipf gives rank r (1-based) probability proportional to 1/r^S and scatters
// ranks over positions with a fixed hash, like YCSB's scrambled zipfian: a few
// entities are very popular, and they are spread over the key space rather
// than being the oldest ones. Popular positions stay stable as n grows only
// approximately (the hash is reduced modulo n).
type Zipf struct {
	S float64
	z zipf
}

// NewZipf returns a scrambled Zipf distribution with exponent s > 0.
func NewZipf(s float64) *Zipf { return &Zipf{S: s, z: newZipf(s)} }

// Pick implements Distribution.
func (d *Zipf) Pick(st *Stream, n int64) int64 {
	if n <= 1 {
		return 0
	}
	r := d.z.rank(st, n)
	return int64(mix(uint64(r)) % uint64(n))
}
func (d *Zipf) String() string { return "zipf(" + ftoa(d.S) + ")" }

// Latest is a Zipf over recency: rank 1 is the newest position (n-1), rank 2
// the one before, and so on. It models "recent items are read most".
type Latest struct {
	S float64
	z zipf
}

// NewLatest returns a recency-skewed Zipf distribution with exponent s > 0.
func NewLatest(s float64) *Latest { return &Latest{S: s, z: newZipf(s)} }

// Pick implements Distribution.
func (d *Latest) Pick(st *Stream, n int64) int64 {
	if n <= 1 {
		return 0
	}
	return n - d.z.rank(st, n)
}
func (d *Latest) String() string { return "latest(" + ftoa(d.S) + ")" }

// Hotspot sends a share Ops of the picks uniformly to the first Hot fraction of
// positions and the rest uniformly to the others (YCSB's hotspot generator):
// hotspot(0.2,0.8) is the 80/20 rule. With Hot*n < 1 the hot set is position 0.
type Hotspot struct{ Hot, Ops float64 }

// Pick implements Distribution.
func (d Hotspot) Pick(st *Stream, n int64) int64 {
	if n <= 1 {
		return 0
	}
	hot := int64(d.Hot * float64(n))
	if hot < 1 {
		hot = 1
	}
	if hot >= n || st.Float64() < d.Ops {
		return st.Int64n(hot)
	}
	return hot + st.Int64n(n-hot)
}
func (d Hotspot) String() string { return "hotspot(" + ftoa(d.Hot) + "," + ftoa(d.Ops) + ")" }

// Sequential walks the positions in order, 0, 1, 2, ..., wrapping at n. The
// cursor is shared by every caller of the same instance (an atomic counter),
// so a pool of workers scans the population together.
type Sequential struct{ next atomic.Int64 }

// Pick implements Distribution.
func (d *Sequential) Pick(_ *Stream, n int64) int64 {
	if n <= 1 {
		return 0
	}
	return (d.next.Add(1) - 1) % n
}
func (d *Sequential) String() string { return "sequential" }

// Single always picks the same position (clamped to n-1): the extreme hot key.
type Single struct{ At int64 }

// Pick implements Distribution.
func (d Single) Pick(_ *Stream, n int64) int64 {
	if n <= 1 {
		return 0
	}
	if d.At >= n {
		return n - 1
	}
	return d.At
}
func (d Single) String() string {
	if d.At == 0 {
		return "single"
	}
	return "single(" + strconv.FormatInt(d.At, 10) + ")"
}

// DefaultZipf is the exponent used by "zipf" and "latest" without arguments
// (YCSB's zipfian constant).
const DefaultZipf = 0.99

// DistributionForms lists the accepted spellings, for error messages and help.
const DistributionForms = "uniform, zipf, zipf(S), hotspot(HOT,OPS), latest, latest(S), sequential, single, single(I)"

// ParseDistribution parses a distribution spec: uniform, zipf(1.1),
// hotspot(0.2,0.8), latest, sequential, single. Each call returns a new
// instance (Sequential carries a cursor).
func ParseDistribution(spec string) (Distribution, error) {
	name, args, err := splitCall(strings.TrimSpace(spec))
	if err != nil {
		return nil, err
	}
	nums := make([]float64, len(args))
	for i, a := range args {
		v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: argument %q is not a number; write numbers, like zipf(0.99) or hotspot(0.2,0.8)", ErrDistribution, spec, a)
		}
		nums[i] = v
	}
	switch name {
	case "uniform":
		return Uniform{}, arity(spec, name, nums, 0)
	case "sequential":
		return &Sequential{}, arity(spec, name, nums, 0)
	case "zipf", "zipfian", "latest":
		return parseZipf(spec, name, nums)
	case "hotspot":
		return parseHotspot(spec, nums)
	case "single":
		return parseSingle(spec, nums)
	}
	return nil, fmt.Errorf("%w: %q is not a distribution; use one of %s", ErrDistribution, spec, DistributionForms)
}

// arity says, naming spec, that name takes one of the allowed numbers of
// arguments, unless nums has one of them.
func arity(spec, name string, nums []float64, allowed ...int) error {
	for _, a := range allowed {
		if len(nums) == a {
			return nil
		}
	}
	return fmt.Errorf("%w: %q: %s takes %s", ErrDistribution, spec, name, arityText(allowed))
}

// parseZipf reads zipf, zipfian or latest with an optional exponent in
// (0, 10] (DefaultZipf when left out).
func parseZipf(spec, name string, nums []float64) (Distribution, error) {
	if err := arity(spec, name, nums, 0, 1); err != nil {
		return nil, err
	}
	s := DefaultZipf
	if len(nums) == 1 {
		s = nums[0]
	}
	if !(s > 0 && s <= 10) {
		return nil, fmt.Errorf("%w: %q: the exponent must be in (0, 10], like zipf(0.99) or zipf(1.2)", ErrDistribution, spec)
	}
	if name == "latest" {
		return NewLatest(s), nil
	}
	return NewZipf(s), nil
}

// parseHotspot reads hotspot(HOT,OPS) with 0 < HOT < 1 and 0 <= OPS <= 1.
func parseHotspot(spec string, nums []float64) (Distribution, error) {
	if err := arity(spec, "hotspot", nums, 2); err != nil {
		return nil, err
	}
	if !(nums[0] > 0 && nums[0] < 1) || !(nums[1] >= 0 && nums[1] <= 1) {
		return nil, fmt.Errorf("%w: %q: hotspot(HOT,OPS) needs 0 < HOT < 1 (share of entities) and 0 <= OPS <= 1 (share of operations), like hotspot(0.2,0.8)", ErrDistribution, spec)
	}
	return Hotspot{Hot: nums[0], Ops: nums[1]}, nil
}

// parseSingle reads single or single(I) with a whole I >= 0.
func parseSingle(spec string, nums []float64) (Distribution, error) {
	if err := arity(spec, "single", nums, 0, 1); err != nil {
		return nil, err
	}
	if len(nums) == 1 {
		if nums[0] < 0 || nums[0] != float64(int64(nums[0])) {
			return nil, fmt.Errorf("%w: %q: single(I) needs a whole entity index I >= 0", ErrDistribution, spec)
		}
		return Single{At: int64(nums[0])}, nil
	}
	return Single{}, nil
}

// splitCall splits "name(a,b)" into name and arguments; "name" has none.
func splitCall(s string) (string, []string, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return s, nil, nil
	}
	if !strings.HasSuffix(s, ")") {
		return "", nil, fmt.Errorf("%w: %q: missing closing parenthesis; close it: %s)", ErrDistribution, s, s)
	}
	name, inner := strings.TrimSpace(s[:open]), s[open+1:len(s)-1]
	if strings.TrimSpace(inner) == "" {
		return name, nil, nil
	}
	return name, strings.Split(inner, ","), nil
}

func arityText(allowed []int) string {
	parts := make([]string, len(allowed))
	for i, a := range allowed {
		switch a {
		case 0:
			parts[i] = "no arguments"
		case 1:
			parts[i] = "one argument"
		default:
			parts[i] = strconv.Itoa(a) + " arguments"
		}
	}
	return strings.Join(parts, " or ")
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
