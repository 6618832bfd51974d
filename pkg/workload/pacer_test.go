package workload

import (
	"math"
	"testing"
	"time"
)

func TestConstantPacer(t *testing.T) {
	p := ConstantPacer{Freq: 100, Duration: time.Second}
	tests := []struct {
		elapsed time.Duration
		started uint64
		wait    time.Duration
		stop    bool
	}{
		{0, 0, 0, false},                                       // the first is due at once
		{0, 1, 10 * time.Millisecond, false},                   // the second at 10ms
		{5 * time.Millisecond, 1, 5 * time.Millisecond, false}, // half-way there
		{50 * time.Millisecond, 1, 0, false},                   // late: start now
		{990 * time.Millisecond, 99, 0, false},                 // the last one
		{995 * time.Millisecond, 100, 0, true},                 // the 101st would be due at 1s: over
		{time.Second, 0, 0, true},                              // out of time
	}
	for _, tt := range tests {
		wait, stop := p.Pace(tt.elapsed, tt.started)
		if wait != tt.wait || stop != tt.stop {
			t.Errorf("Pace(%v, %d) = %v, %v; want %v, %v", tt.elapsed, tt.started, wait, stop, tt.wait, tt.stop)
		}
	}
	if _, stop := (ConstantPacer{Freq: 0, Duration: time.Second}).Pace(0, 0); !stop {
		t.Error("a zero rate must stop")
	}
}

// simulate runs a pacer with no clock and returns the start times.
func simulate(p Pacer) []time.Duration {
	var starts []time.Duration
	var now time.Duration
	for n := uint64(0); n < 1_000_000; n++ {
		wait, stop := p.Pace(now, n)
		if stop {
			break
		}
		now += wait
		starts = append(starts, now)
	}
	return starts
}

func TestStagesPacerRampMatchesIntegral(t *testing.T) {
	p := StagesPacer{Start: 0, Stages: []Stage{
		{10 * time.Second, 1000}, // ramp 0 → 1000/s: 5,000 operations
		{10 * time.Second, 1000}, // hold: 10,000
		{5 * time.Second, 0},     // ramp down: 2,500
	}}
	starts := simulate(p)
	if n := len(starts); n < 17_499 || n > 17_501 {
		t.Fatalf("%d operations, want 17,500 (the integral of the profile)", n)
	}
	// Operations in each second follow the rate: second 4 of the ramp has ~450.
	perSecond := make([]int, 26)
	for _, s := range starts {
		perSecond[int(s/time.Second)]++
	}
	for sec, want := range map[int]float64{4: 450, 9: 950, 15: 1000, 22: 500} {
		if math.Abs(float64(perSecond[sec])-want) > 2 {
			t.Errorf("second %d: %d operations, want %.0f", sec, perSecond[sec], want)
		}
	}
	// Start times never go backwards.
	for i := 1; i < len(starts); i++ {
		if starts[i] < starts[i-1] {
			t.Fatalf("start %d at %v is before start %d at %v", i, starts[i], i-1, starts[i-1])
		}
	}
	if r := p.Rate(5 * time.Second); math.Abs(r-500) > 1e-9 {
		t.Errorf("Rate(5s) = %v, want 500", r)
	}
	if p.Total() != 25*time.Second {
		t.Errorf("Total = %v", p.Total())
	}
}

func TestStagesPacerFromStartRate(t *testing.T) {
	p := StagesPacer{Start: 200, Stages: []Stage{{2 * time.Second, 200}}}
	if n := len(simulate(p)); n != 400 {
		t.Errorf("hold at 200/s for 2s started %d operations, want 400", n)
	}
}

func BenchmarkStagesPacer(b *testing.B) {
	p := StagesPacer{Start: 0, Stages: []Stage{{time.Minute, 5000}, {time.Minute, 5000}}}
	for i := 0; i < b.N; i++ {
		p.Pace(time.Duration(i)*time.Microsecond, uint64(i%300000))
	}
}
