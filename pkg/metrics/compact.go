package metrics

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"sort"
)

// Compact is a sparse log-linear histogram of microsecond values, small
// enough to keep one per partition when a run touches 100,000 partitions.
//
// With the default 5 sub-bucket bits, values below 64 µs have buckets of
// their own and above, every power of two is split into 32 equal buckets, so a
// reported value (the bucket's midpoint) is within 1/64 (1.6%) of any value
// recorded in that bucket. NewCompact(b) uses 2^b buckets per power of two
// (precision 2^-(b+1)). Only buckets that
// were used are stored, as (index, count) pairs sorted by index: memory grows
// with the number of distinct buckets (at most a few hundred in practice),
// not with the number of samples.
//
// A Compact is not safe for concurrent use.
type Compact struct {
	bits  uint8 // sub-bucket bits; 0 means DefaultCompactBits
	idx   []uint16
	cnt   []uint32
	total int64
	max   int64
}

// DefaultCompactBits gives 32 buckets per power of two (1.6% precision).
const DefaultCompactBits = 5

// CompactPrecision is the relative error bound of a default Compact's values.
const CompactPrecision = 1.0 / 64

// NewCompact returns an empty histogram with 2^b buckets per power of two,
// 1 <= b <= 8.
func NewCompact(b int) *Compact { return &Compact{bits: uint8(min(max(b, 1), 8))} }

func (c *Compact) b() uint {
	if c.bits == 0 {
		return DefaultCompactBits
	}
	return uint(c.bits)
}

func (c *Compact) index(v int64) uint16 {
	b := c.b()
	exact := int64(1) << (b + 1)
	if v < exact {
		if v < 0 {
			return 0
		}
		return uint16(v)
	}
	e := uint(bits.Len64(uint64(v)) - 1) // >= b+1
	sub := (uint64(v) >> (e - b)) & (1<<b - 1)
	return uint16(exact + int64(e-b-1)<<b + int64(sub))
}

// maxIndex bounds bucket indexes: values up to 2^62 µs.
func (c *Compact) maxIndex() int {
	b := c.b()
	return 1<<(b+1) + int(62-b)<<b
}

// value is the midpoint of bucket i.
func (c *Compact) value(i uint16) int64 {
	b := c.b()
	exact := int64(1) << (b + 1)
	if int64(i) < exact {
		return int64(i)
	}
	k := int64(i) - exact
	e, sub := uint(k>>b)+b+1, k&(1<<b-1)
	width := int64(1) << (e - b)
	return (int64(1)<<b+sub)*width + width/2
}

// Record adds one value (µs).
func (c *Compact) Record(v int64) { c.RecordN(v, 1) }

// RecordN adds n occurrences of v.
func (c *Compact) RecordN(v int64, n uint32) {
	if n == 0 {
		return
	}
	c.addBucket(c.index(v), n)
	if v > c.max {
		c.max = v
	}
}

// addBucket adds n samples to bucket i without touching max.
func (c *Compact) addBucket(i uint16, n uint32) {
	k := sort.Search(len(c.idx), func(j int) bool { return c.idx[j] >= i })
	if k < len(c.idx) && c.idx[k] == i {
		c.cnt[k] += n
	} else {
		c.idx = append(c.idx, 0)
		c.cnt = append(c.cnt, 0)
		copy(c.idx[k+1:], c.idx[k:])
		copy(c.cnt[k+1:], c.cnt[k:])
		c.idx[k], c.cnt[k] = i, n
	}
	c.total += int64(n)
}

// Merge adds every sample of o.
func (c *Compact) Merge(o *Compact) {
	if o == nil {
		return
	}
	same := c.b() == o.b()
	for k, i := range o.idx {
		if same {
			c.addBucket(i, o.cnt[k])
		} else {
			c.addBucket(c.index(o.value(i)), o.cnt[k])
		}
	}
	if o.max > c.max {
		c.max = o.max
	}
}

// Count is the number of samples.
func (c *Compact) Count() int64 { return c.total }

// Max is the largest value recorded (exact).
func (c *Compact) Max() int64 { return c.max }

// Quantile returns the value at quantile q in [0, 1] (the bucket midpoint,
// or the exact maximum for q = 1), 0 when empty.
func (c *Compact) Quantile(q float64) int64 {
	if c.total == 0 {
		return 0
	}
	if q >= 1 {
		return c.max
	}
	rank := int64(math.Ceil(q * float64(c.total)))
	if rank < 1 {
		rank = 1
	}
	var seen int64
	for k, i := range c.idx {
		seen += int64(c.cnt[k])
		if seen >= rank {
			return min(c.value(i), c.max)
		}
	}
	return c.max
}

// Each calls f for every used bucket with its midpoint and count, in order.
func (c *Compact) Each(f func(value int64, count uint32)) {
	for k, i := range c.idx {
		f(c.value(i), c.cnt[k])
	}
}

// Reset empties the histogram, keeping its memory.
func (c *Compact) Reset() { c.idx, c.cnt, c.total, c.max = c.idx[:0], c.cnt[:0], 0, 0 }

// Bytes is the memory the histogram's storage uses.
func (c *Compact) Bytes() int { return cap(c.idx)*2 + cap(c.cnt)*4 + 32 }

// Encode returns a compact base64 form: bits, max, then (index, count) varints.
func (c *Compact) Encode() string {
	buf := binary.AppendUvarint(nil, uint64(c.b()))
	buf = binary.AppendUvarint(buf, uint64(c.max))
	for k, i := range c.idx {
		buf = binary.AppendUvarint(buf, uint64(i))
		buf = binary.AppendUvarint(buf, uint64(c.cnt[k]))
	}
	return base64.RawStdEncoding.EncodeToString(buf)
}

// DecodeCompact parses the form Encode writes.
func DecodeCompact(s string) (*Compact, error) {
	buf, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	bad := errors.New("metrics: malformed compact histogram")
	b, n := binary.Uvarint(buf)
	if n <= 0 || b < 1 || b > 8 {
		return nil, bad
	}
	buf = buf[n:]
	mx, n := binary.Uvarint(buf)
	if n <= 0 {
		return nil, bad
	}
	buf = buf[n:]
	c := NewCompact(int(b))
	for len(buf) > 0 {
		i, n1 := binary.Uvarint(buf)
		if n1 <= 0 || i >= uint64(c.maxIndex()) {
			return nil, bad
		}
		cnt, n2 := binary.Uvarint(buf[n1:])
		if n2 <= 0 || cnt > math.MaxUint32 {
			return nil, bad
		}
		c.addBucket(uint16(i), uint32(cnt))
		buf = buf[n1+n2:]
	}
	c.max = int64(mx)
	return c, nil
}
