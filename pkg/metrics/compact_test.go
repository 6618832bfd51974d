package metrics

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// Every value is reported within 2^-(b+1) of itself, at every resolution,
// and bucket indexes stay within bounds.
func TestCompactBucketPrecision(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for b := 1; b <= HDRBits; b++ {
		c := NewCompact(b)
		bound := math.Exp2(-float64(b + 1))
		values := []int64{0, 1, 2, 63, 64, 65, 100, 1000, 2047, 2048, 12345, 1 << 30, 1<<40 + 12345, math.MaxInt64}
		for range 2000 {
			values = append(values, r.Int64N(1<<uint(r.IntN(62)+1)))
		}
		for _, v := range values {
			i := c.index(v)
			got := c.value(i)
			if rel := math.Abs(float64(got)-float64(v)) / math.Max(float64(v), 1); rel > bound {
				t.Fatalf("bits %d: %d reported as %d (error %.5f > %.5f)", b, v, got, rel, bound)
			}
			if lo, w := c.lower(i); v < lo || v >= lo+w && lo+w > lo {
				t.Fatalf("bits %d: %d outside its bucket [%d, %d)", b, v, lo, lo+w)
			}
			if int(i) >= c.maxIndex() {
				t.Fatalf("bits %d: index %d of %d beyond %d", b, i, v, c.maxIndex())
			}
		}
	}
}

// With HDRBits the buckets are hdrhistogram-go's: feeding a Compact's
// buckets to an HDR histogram gives the histogram of the raw values.
func TestCompactHDRBitsEqualHDRBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	direct, via := newHDR(), opTotal{}
	c := NewCompact(HDRBits)
	for range 100_000 {
		v := int64(r.ExpFloat64()*20_000) + r.Int64N(3)
		if r.IntN(100) == 0 {
			v = r.Int64N(maxLatencyUS)
		}
		_ = direct.RecordValue(v)
		c.Record(v)
	}
	via.recordCompact(c)
	if !direct.Equals(via.hist) {
		t.Fatalf("HDR fed from Compact differs: p99 %d vs %d, total %d vs %d", via.hist.ValueAtQuantile(99),
			direct.ValueAtQuantile(99), via.hist.TotalCount(), direct.TotalCount())
	}
}

// latencyShapes are fixed-seed latency distributions (µs).
func latencyShapes() map[string]func(r *rand.Rand) int64 {
	return map[string]func(r *rand.Rand) int64{
		"uniform":     func(r *rand.Rand) int64 { return 100 + r.Int64N(20_000) },
		"exponential": func(r *rand.Rand) int64 { return int64(r.ExpFloat64()*2000) + 50 },
		"bimodal": func(r *rand.Rand) int64 { // fast reads, 10% slow throttled retries
			if r.IntN(10) == 0 {
				return 40_000 + r.Int64N(5000)
			}
			return 800 + r.Int64N(400)
		},
		"heavy tail": func(r *rand.Rand) int64 { return int64(500 / math.Pow(1-r.Float64(), 1/1.5)) }, // Pareto 1.5
	}
}

// The compact histogram's quantiles agree with the exact samples within
// CompactPrecision and with hdrhistogram-go within CompactPrecision plus
// HDR's own 1/1024.
func TestCompactAccuracyAgainstHDR(t *testing.T) {
	for name, draw := range latencyShapes() {
		r := rand.New(rand.NewPCG(1, 2))
		c, h := NewCompact(DefaultCompactBits), newHDR()
		samples := make([]int64, 200_000)
		for i := range samples {
			v := min(draw(r), maxLatencyUS)
			samples[i] = v
			c.Record(v)
			_ = h.RecordValue(v)
		}
		slices.Sort(samples)
		for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
			got, hdr := float64(c.Quantile(q)), float64(h.ValueAtQuantile(q*100))
			exact := float64(samples[int64(q*float64(len(samples))+0.5)-1])
			if e := math.Abs(got-exact) / exact; e > CompactPrecision {
				t.Errorf("%s p%v: compact %v, exact %v: error %.4f > %.4f", name, q*100, got, exact, e, CompactPrecision)
			}
			if e := math.Abs(got-hdr) / hdr; e > CompactPrecision+1.0/1024 {
				t.Errorf("%s p%v: compact %v, hdr %v: error %.4f", name, q*100, got, hdr, e)
			}
		}
		if got, want := c.Quantile(1), samples[len(samples)-1]; got != want || c.Max() != want {
			t.Errorf("%s max: compact %d, exact %d", name, got, want)
		}
		if e := math.Abs(float64(c.Max()-h.Max())) / float64(h.Max()); e > 1.0/1024 {
			t.Errorf("%s max: compact %d, hdr %d", name, c.Max(), h.Max())
		}
		if c.Count() != int64(len(samples)) || c.Buckets() > 400 {
			t.Errorf("%s: count %d, %d buckets", name, c.Count(), c.Buckets())
		}
	}
}

func TestCompactEmptyAndEdges(t *testing.T) {
	c := NewCompact(0) // clamped to 1 bit
	if c.Bits() != 1 || c.Quantile(0.5) != 0 || c.Max() != 0 || c.Count() != 0 {
		t.Errorf("empty: bits %d q50 %d max %d count %d", c.Bits(), c.Quantile(0.5), c.Max(), c.Count())
	}
	c.Record(-5) // negative counts as 0
	if c.Max() != 0 || c.Quantile(0) != 0 || c.Count() != 1 {
		t.Errorf("negative: max %d q0 %d count %d", c.Max(), c.Quantile(0), c.Count())
	}
	var z Compact // the zero value uses the default resolution
	z.RecordN(1000, 3)
	if z.Bits() != DefaultCompactBits || z.Count() != 3 || z.Quantile(0.5) < 984 || z.Quantile(0.5) > 1000 {
		t.Errorf("zero value: bits %d count %d q50 %d", z.Bits(), z.Count(), z.Quantile(0.5))
	}
	s := NewCompact(5) // counts saturate, Count stays their sum
	s.RecordN(7, math.MaxUint32)
	s.RecordN(7, 10)
	if s.Count() != math.MaxUint32 {
		t.Errorf("saturated count %d", s.Count())
	}
	if unsafe.Sizeof(Compact{}) != compactHeaderBytes {
		t.Errorf("Compact header is %d bytes, Bytes assumes %d", unsafe.Sizeof(Compact{}), compactHeaderBytes)
	}
}

// Merging parts gives exactly the histogram of the whole, whatever the
// order and the sizes (few buckets take the insertion path, many the
// sorted merge); a different resolution merges by value.
func TestCompactMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, parts := range []int{2, 3, 17} {
		all := NewCompact(DefaultCompactBits)
		shards := make([]*Compact, parts)
		for i := range shards {
			shards[i] = NewCompact(DefaultCompactBits)
		}
		for i := range 20_000 {
			v := int64(r.ExpFloat64() * 5000)
			all.Record(v)
			shards[(i*i+r.IntN(2))%parts].Record(v)
		}
		merged := NewCompact(DefaultCompactBits)
		for _, s := range shards {
			merged.Merge(s)
		}
		if merged.Encode() != all.Encode() {
			t.Errorf("%d parts: merged %d buckets/%d samples, direct %d/%d", parts, merged.Buckets(), merged.Count(),
				all.Buckets(), all.Count())
		}
	}
	fine := NewCompact(HDRBits)
	fine.Record(123_456)
	fine.Record(99)
	coarse := NewCompact(DefaultCompactBits)
	coarse.Merge(fine)
	if coarse.Count() != 2 || coarse.Max() != 123_456 || math.Abs(float64(coarse.Quantile(0.99)-123_456))/123_456 > CompactPrecision {
		t.Errorf("cross-resolution merge: count %d max %d p99 %d", coarse.Count(), coarse.Max(), coarse.Quantile(0.99))
	}
	if _, err := DecodeCompact(coarse.Encode()); err != nil {
		t.Errorf("cross-resolution merge broke the encoding: %v", err)
	}
}

func TestCompactEncodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, b := range []int{1, DefaultCompactBits, HDRBits} {
		c := NewCompact(b)
		for range 5000 {
			c.Record(int64(r.ExpFloat64() * 3000))
		}
		d, err := DecodeCompact(c.Encode())
		if err != nil {
			t.Fatalf("bits %d: %v", b, err)
		}
		if d.Encode() != c.Encode() || d.Count() != c.Count() || d.Max() != c.Max() || d.Quantile(0.9) != c.Quantile(0.9) {
			t.Errorf("bits %d: decoded count %d max %d, want %d %d", b, d.Count(), d.Max(), c.Count(), c.Max())
		}
		js, err := json.Marshal(struct{ H *Compact }{c})
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ H *Compact }
		if err := json.Unmarshal(js, &back); err != nil || back.H.Encode() != c.Encode() {
			t.Errorf("bits %d: JSON round trip: %v", b, err)
		}
	}
	if d, err := DecodeCompact(NewCompact(5).Encode()); err != nil || d.Count() != 0 {
		t.Errorf("empty round trip: %v", err)
	}
}

func TestDecodeCompactRejectsMalformed(t *testing.T) {
	valid := func() *Compact { c := NewCompact(5); c.Record(100); c.Record(5000); return c }().Encode()
	tests := []struct{ name, in string }{
		{"not base64", "!!"},
		{"empty input", ""},
		{"header only bits", "BQ"},
		{"zero bits", enc(0, 0, 0)},
		{"too many bits", enc(11, 0, 0)},
		{"max without buckets", enc(5, 9, 0)},
		{"bucket count beyond input", enc(5, 9, 200)},
		{"truncated bucket", enc(5, 100, 1, 80)},
		{"zero count", enc(5, 100, 1, 80, 0)},
		{"index not ascending", enc(5, 100, 2, 80, 1, 0, 1)},
		{"index beyond range", enc(5, 100, 1, 1<<20, 1)},
		{"max outside top bucket", enc(5, 5000, 1, 80, 1)},
		{"trailing bytes", valid + "AA"},
	}
	for _, tt := range tests {
		if _, err := DecodeCompact(tt.in); !errors.Is(err, ErrMalformedHistogram) {
			t.Errorf("%s: error %v, want ErrMalformedHistogram", tt.name, err)
		}
	}
	var c Compact
	if err := json.Unmarshal([]byte(`12`), &c); !errors.Is(err, ErrMalformedHistogram) {
		t.Errorf("JSON number: %v", err)
	}
}

// enc writes uvarints as Encode does.
func enc(vs ...uint64) string {
	var buf []byte
	for _, v := range vs {
		for v >= 0x80 {
			buf = append(buf, byte(v)|0x80)
			v >>= 7
		}
		buf = append(buf, byte(v))
	}
	return base64.RawStdEncoding.EncodeToString(buf)
}

func FuzzDecodeCompact(f *testing.F) {
	c := NewCompact(5)
	c.Record(10)
	c.Record(100_000)
	f.Add(c.Encode())
	f.Add(NewCompact(HDRBits).Encode())
	f.Add("BQoCAQ")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := DecodeCompact(s)
		if err != nil {
			return
		}
		again, err := DecodeCompact(d.Encode())
		if err != nil || again.Encode() != d.Encode() || again.Count() != d.Count() || d.Quantile(1) != d.Max() {
			t.Fatalf("decoded %q does not round trip: %v", s, err)
		}
		var sum int64
		d.Each(func(_ int64, n uint32) { sum += int64(n) })
		if sum != d.Count() {
			t.Fatalf("bucket counts sum to %d, Count %d", sum, d.Count())
		}
	})
}
