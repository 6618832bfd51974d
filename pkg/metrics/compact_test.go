package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func TestCompactBuckets(t *testing.T) {
	for _, b := range []int{1, 5, 7, 8} {
		c := NewCompact(b)
		for _, v := range []int64{0, 1, 63, 64, 65, 100, 1000, 12345, 1 << 30, 1<<40 + 12345} {
			got := c.value(c.index(v))
			if rel := math.Abs(float64(got-v)) / math.Max(float64(v), 1); rel > 1/math.Exp2(float64(b+1)) {
				t.Errorf("bits %d: %d maps to %d (error %.4f > %.4f)", b, v, got, rel, 1/math.Exp2(float64(b+1)))
			}
			if int(c.index(v)) >= c.maxIndex() {
				t.Errorf("bits %d: index %d of %d beyond max %d", b, c.index(v), v, c.maxIndex())
			}
		}
	}
}

// The compact histogram's quantiles agree with hdrhistogram-go's within the
// documented precision on several shapes of latency.
func TestCompactMatchesHDR(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func() int64{
		"uniform":     func() int64 { return 100 + r.Int64N(20_000) },
		"exponential": func() int64 { return int64(r.ExpFloat64()*2000) + 50 },
		"bimodal": func() int64 {
			if r.IntN(10) == 0 {
				return 40_000 + r.Int64N(5000)
			}
			return 800 + r.Int64N(400)
		},
		"heavy tail": func() int64 { return int64(500 / math.Pow(1-r.Float64(), 1/1.5)) },
	}
	for name, draw := range shapes {
		c := &Compact{}
		h := hdrhistogram.New(1, int64(1e12), 3)
		for i := 0; i < 200_000; i++ {
			v := draw()
			c.Record(v)
			_ = h.RecordValue(v)
		}
		for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
			got, want := float64(c.Quantile(q)), float64(h.ValueAtQuantile(q*100))
			if math.Abs(got-want)/want > CompactPrecision+0.002 {
				t.Errorf("%s p%v: compact %v, hdr %v", name, q*100, got, want)
			}
		}
		if c.Quantile(1) != h.Max() && math.Abs(float64(c.Quantile(1)-h.Max()))/float64(h.Max()) > 0.001 {
			t.Errorf("%s max: compact %d hdr %d", name, c.Quantile(1), h.Max())
		}
		if c.Count() != 200_000 {
			t.Errorf("%s count %d", name, c.Count())
		}
	}
}

func TestCompactMergeAndEncode(t *testing.T) {
	a, b, all := &Compact{}, &Compact{}, &Compact{}
	for i := int64(1); i <= 5000; i++ {
		v := i * i % 100_003
		all.Record(v)
		if i%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	a.Merge(b)
	for _, q := range []float64{0, 0.25, 0.5, 0.99, 1} {
		if a.Quantile(q) != all.Quantile(q) {
			t.Errorf("merged q%v = %d, direct %d", q, a.Quantile(q), all.Quantile(q))
		}
	}
	d, err := DecodeCompact(a.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if d.Count() != a.Count() || d.Max() != a.Max() || d.Quantile(0.9) != a.Quantile(0.9) {
		t.Errorf("decode: %d/%d %d/%d", d.Count(), a.Count(), d.Max(), a.Max())
	}
	fine := NewCompact(7)
	fine.Record(123456)
	coarse := &Compact{}
	coarse.Merge(fine) // different resolutions merge by value
	if coarse.Count() != 1 || math.Abs(float64(coarse.Quantile(0.5)-123456))/123456 > CompactPrecision {
		t.Errorf("cross-resolution merge gave %d", coarse.Quantile(0.5))
	}
	for _, bad := range []string{"!!", "", "AQ"} {
		if _, err := DecodeCompact(bad); err == nil {
			t.Errorf("DecodeCompact(%q) accepted", bad)
		}
	}
}

func BenchmarkCompactRecord(b *testing.B) {
	c := &Compact{}
	for i := 0; i < b.N; i++ {
		c.Record(int64(500 + i%5000))
	}
}

// Memory of per-partition histograms: 100,000 partitions with 10 requests each.
func BenchmarkCompactMemoryPerPartition(b *testing.B) {
	for n := 0; n < b.N; n++ {
		hs := make([]Compact, 100_000)
		total := 0
		for p := range hs {
			for k := 0; k < 10; k++ {
				hs[p].Record(int64(800 + (p*7+k*131)%4000))
			}
			total += hs[p].Bytes()
		}
		b.ReportMetric(float64(total)/float64(len(hs)), "bytes/partition")
	}
}
