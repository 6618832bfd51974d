package metrics

import (
	"math"
	"math/bits"
)

// Compact is a sparse log-linear histogram of non-negative integers
// (latencies in microseconds), small enough to keep one per partition when a
// run touches 100,000 partitions, and mergeable and encodable exactly.
//
// Buckets. With b sub-bucket bits (1 <= b <= 10), a value below 2^(b+1) has a
// bucket of its own; a value v with 2^e <= v < 2^(e+1), e > b, falls into one
// of 2^b equal buckets of width 2^(e-b) that split its power of two.
//
// Precision contract. The value reported for a bucket (its midpoint, or the
// value itself below 2^(b+1)) differs from every value recorded in that
// bucket by at most 2^-(b+1) of that value: 1/64 (1.5625%, CompactPrecision)
// with the default 5 bits. Quantile(q) reports the bucket holding the sample
// of rank max(1, floor(q*N + 0.5)) in sorted order (hdrhistogram-go's rank),
// so it is within that precision of that sample, and never above Max, which
// is exact. Count is exact. With HDRBits (10) the buckets are exactly those of
// an hdrhistogram-go histogram with lowest value 1 and 3 significant digits.
//
// Storage. Only used buckets are stored, as parallel slices of uint16 bucket
// indexes (ascending) and uint32 counts: 6 bytes per used bucket plus a
// 72-byte header, growing with the number of distinct buckets used (a few
// dozen for one partition's latencies), never with the number of samples. A
// bucket's count saturates at 2^32-1 (Count stays the sum of the stored
// counts). Recording into an existing bucket is a binary search; a new bucket
// shifts the buckets above it.
//
// The zero value is an empty histogram with DefaultCompactBits. A Compact is
// not safe for concurrent use.
type Compact struct {
	bits  uint8 // sub-bucket bits; 0 means DefaultCompactBits
	idx   []uint16
	cnt   []uint32
	total int64
	max   int64
}

// Resolutions of Compact.
const (
	// DefaultCompactBits gives 32 buckets per power of two (1.5625%).
	DefaultCompactBits = 5
	// HDRBits gives hdrhistogram-go's 3-significant-digit buckets.
	HDRBits = 10
	// CompactPrecision is the relative error bound of a default Compact.
	CompactPrecision = 1.0 / 64
)

// NewCompact returns an empty histogram with 2^b buckets per power of two;
// b is clamped to 1..10.
func NewCompact(b int) *Compact { return &Compact{bits: uint8(min(max(b, 1), HDRBits))} }

// Bits is the number of sub-bucket bits.
func (c *Compact) Bits() int { return int(c.b()) }

func (c *Compact) b() uint {
	if c.bits == 0 {
		return DefaultCompactBits
	}
	return uint(c.bits)
}

// index returns the bucket of v (v >= 0).
func (c *Compact) index(v int64) uint16 {
	b := c.b()
	exact := int64(1) << (b + 1)
	if v < exact {
		return uint16(max(v, 0))
	}
	e := uint(bits.Len64(uint64(v)) - 1) // e >= b+1
	sub := (uint64(v) >> (e - b)) & (1<<b - 1)
	return uint16(exact + int64(e-b-1)<<b + int64(sub))
}

// maxIndex bounds the bucket indexes of values below 2^63.
func (c *Compact) maxIndex() int {
	b := c.b()
	return 1<<(b+1) + int(62-b)<<b
}

// lower is the smallest value of bucket i; width is the bucket's width.
func (c *Compact) lower(i uint16) (lo, width int64) {
	b := c.b()
	exact := int64(1) << (b + 1)
	if int64(i) < exact {
		return int64(i), 1
	}
	k := int64(i) - exact
	e, sub := uint(k>>b)+b+1, k&(1<<b-1)
	width = int64(1) << (e - b)
	return (int64(1)<<b + sub) * width, width
}

// value is the value reported for bucket i: its midpoint.
func (c *Compact) value(i uint16) int64 {
	lo, w := c.lower(i)
	return lo + w/2
}

// Record adds one value. Negative values count as 0.
func (c *Compact) Record(v int64) { c.RecordN(v, 1) }

// RecordN adds n occurrences of v. Negative values count as 0.
func (c *Compact) RecordN(v int64, n uint32) {
	if n == 0 {
		return
	}
	v = max(v, 0)
	c.addBucket(c.index(v), n)
	c.max = max(c.max, v)
}

// find returns the position of bucket i, or where it would be inserted.
func (c *Compact) find(i uint16) int {
	if n := len(c.idx); n > 0 && c.idx[n-1] <= i { // common case: the top bucket
		if c.idx[n-1] == i {
			return n - 1
		}
		return n
	}
	lo, hi := 0, len(c.idx)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.idx[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// addBucket adds n samples to bucket i without touching max.
func (c *Compact) addBucket(i uint16, n uint32) {
	k := c.find(i)
	if k < len(c.idx) && c.idx[k] == i {
		n = min(n, math.MaxUint32-c.cnt[k])
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

// Merge adds every sample of o (nil adds nothing). Histograms of the same
// resolution merge exactly, in one pass over both; a coarser or finer o is
// re-bucketed by its bucket values (within both precisions).
func (c *Compact) Merge(o *Compact) {
	if o == nil || o.total == 0 {
		return
	}
	c.max = max(c.max, o.max)
	if c.b() != o.b() {
		for k, i := range o.idx {
			c.addBucket(c.index(min(o.value(i), o.max)), o.cnt[k])
		}
		return
	}
	if len(o.idx) <= 4 {
		for k, i := range o.idx {
			c.addBucket(i, o.cnt[k])
		}
		return
	}
	c.mergeSorted(o)
}

// mergeSorted merges o's buckets into c from the back, growing c once.
func (c *Compact) mergeSorted(o *Compact) {
	extra := 0
	for a, b := 0, 0; b < len(o.idx); {
		switch {
		case a < len(c.idx) && c.idx[a] < o.idx[b]:
			a++
		case a < len(c.idx) && c.idx[a] == o.idx[b]:
			a, b = a+1, b+1
		default:
			extra, b = extra+1, b+1
		}
	}
	n := len(c.idx)
	c.idx = append(c.idx, make([]uint16, extra)...)
	c.cnt = append(c.cnt, make([]uint32, extra)...)
	a, b, w := n-1, len(o.idx)-1, len(c.idx)-1
	for b >= 0 {
		switch {
		case a >= 0 && c.idx[a] > o.idx[b]:
			c.idx[w], c.cnt[w] = c.idx[a], c.cnt[a]
			a--
		case a >= 0 && c.idx[a] == o.idx[b]:
			add := min(o.cnt[b], math.MaxUint32-c.cnt[a])
			c.idx[w], c.cnt[w] = c.idx[a], c.cnt[a]+add
			c.total += int64(add)
			a, b = a-1, b-1
		default:
			c.idx[w], c.cnt[w] = o.idx[b], o.cnt[b]
			c.total += int64(o.cnt[b])
			b--
		}
		w--
	}
}

// Count is the number of samples.
func (c *Compact) Count() int64 { return c.total }

// Max is the largest value recorded (exact; 0 when empty).
func (c *Compact) Max() int64 { return c.max }

// Quantile returns the value at quantile q in [0, 1] (see the precision
// contract): the exact maximum for q >= 1, 0 when empty.
func (c *Compact) Quantile(q float64) int64 {
	if c.total == 0 {
		return 0
	}
	if q >= 1 {
		return c.max
	}
	rank := int64(1)
	if r := q*float64(c.total) + 0.5; r >= float64(c.total) {
		rank = c.total
	} else if r >= 1 {
		rank = int64(r)
	}
	var seen int64
	for k, i := range c.idx {
		if seen += int64(c.cnt[k]); seen >= rank {
			return min(c.value(i), c.max)
		}
	}
	return c.max
}

// Each calls f for every used bucket, in ascending order, with the value
// reported for it and its count.
func (c *Compact) Each(f func(value int64, count uint32)) {
	for k, i := range c.idx {
		f(c.value(i), c.cnt[k])
	}
}

// Buckets is the number of used buckets.
func (c *Compact) Buckets() int { return len(c.idx) }

// Reset empties the histogram, keeping its memory and resolution.
func (c *Compact) Reset() { c.idx, c.cnt, c.total, c.max = c.idx[:0], c.cnt[:0], 0, 0 }

// Clone returns an independent copy using no more memory than needed.
func (c *Compact) Clone() *Compact {
	return &Compact{bits: uint8(c.b()), idx: append([]uint16(nil), c.idx...), cnt: append([]uint32(nil), c.cnt...),
		total: c.total, max: c.max}
}

// Bytes is the memory the histogram uses: its header and the capacity of
// its bucket storage.
func (c *Compact) Bytes() int { return compactHeaderBytes + cap(c.idx)*2 + cap(c.cnt)*4 }

// compactHeaderBytes is the size of a Compact value.
const compactHeaderBytes = 72
