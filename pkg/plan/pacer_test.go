package plan

import (
	"math"
	"testing"
	"time"
)

// starts lists every due time of a pacer.
func starts(p Pacer) []time.Duration {
	var out []time.Duration
	for n := uint64(0); n < 1_000_000; n++ {
		due, ok := p.Due(n)
		if !ok {
			break
		}
		out = append(out, due)
	}
	return out
}

func TestConstantProfile(t *testing.T) {
	p := NewPacer(Load{Open: true, Rate: 100}, 0, time.Second)
	tests := []struct {
		n   uint64
		due time.Duration
		ok  bool
	}{
		{0, 0, true},                       // the first is due at once
		{1, 10 * time.Millisecond, true},   // the second at 10ms
		{99, 990 * time.Millisecond, true}, // the last one
		{100, 0, false},                    // the 101st would be due at 1s: over
	}
	for _, tt := range tests {
		due, ok := p.Due(tt.n)
		if ok != tt.ok || (ok && (due-tt.due).Abs() > time.Microsecond) {
			t.Errorf("Due(%d) = %v, %v; want %v, %v", tt.n, due, ok, tt.due, tt.ok)
		}
	}
	if _, ok := NewPacer(Load{Open: true}, 0, time.Second).Due(0); ok {
		t.Error("a zero rate must schedule nothing")
	}
}

func TestRampMatchesIntegral(t *testing.T) {
	p := NewProfile(0,
		Stage{10 * time.Second, 1000}, // ramp 0 → 1000/s: 5,000 operations
		Stage{10 * time.Second, 1000}, // hold: 10,000
		Stage{5 * time.Second, 0},     // ramp down: 2,500
	)
	s := starts(p)
	if n := len(s); n < 17_499 || n > 17_501 {
		t.Fatalf("%d operations, want 17,500 (the integral of the profile)", n)
	}
	// Operations in each second follow the rate: second 4 of the ramp has ~450.
	perSecond := make([]int, 26)
	for _, d := range s {
		perSecond[int(d/time.Second)]++
	}
	for sec, want := range map[int]float64{4: 450, 9: 950, 15: 1000, 22: 500} {
		if math.Abs(float64(perSecond[sec])-want) > 2 {
			t.Errorf("second %d: %d operations, want %.0f", sec, perSecond[sec], want)
		}
	}
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			t.Fatalf("operation %d due at %v, before operation %d at %v", i, s[i], i-1, s[i-1])
		}
	}
	if r := p.Rate(5 * time.Second); math.Abs(r-500) > 1e-9 {
		t.Errorf("Rate(5s) = %v, want 500", r)
	}
	if p.Total() != 25*time.Second {
		t.Errorf("Total = %v", p.Total())
	}
}

// The warm-up comes before the stages, at the warm-up rate; the stages keep
// their whole length after it. (A 3 s ramp with a 2 s warm-up measured
// 0.98 s when the warm-up was taken out of the ramp.)
func TestWarmupPrecedesStages(t *testing.T) {
	l := Load{Open: true, Stages: []Stage{{3 * time.Second, 50}}, WarmupRate: 50}
	p := NewPacer(l, 2*time.Second, 3*time.Second)
	if p.Total() != 5*time.Second {
		t.Fatalf("total %v, want the 2 s warm-up and the 3 s ramp", p.Total())
	}
	var warm, measured int
	for _, d := range starts(p) {
		if d < 2*time.Second {
			warm++
		} else {
			measured++
		}
	}
	if warm != 100 || measured < 74 || measured > 76 {
		t.Errorf("%d operations in the warm-up (want 100 at 50/s), %d in the ramp (want 75, its integral)", warm, measured)
	}
	for sec, want := range map[time.Duration]float64{time.Second: 50, 2 * time.Second: 0, 3500 * time.Millisecond: 25} {
		if r := p.Rate(sec); math.Abs(r-want) > 1e-9 {
			t.Errorf("Rate(%v) = %v, want %v", sec, r, want)
		}
	}
}

func TestHoldFromStartRate(t *testing.T) {
	if n := len(starts(NewProfile(200, Stage{2 * time.Second, 200}))); n != 400 {
		t.Errorf("hold at 200/s for 2s started %d operations, want 400", n)
	}
}

func BenchmarkProfileDue(b *testing.B) {
	p := NewProfile(0, Stage{time.Minute, 5000}, Stage{time.Minute, 5000})
	for i := 0; b.Loop(); i++ {
		p.Due(uint64(i % 300000))
	}
}
