package soak

import "testing"

// fitTrend finds the slope of an exact line; a noisy flat series with two
// spikes does not grow; the same noise and spikes on a real slope do.
func TestFitTrend(t *testing.T) {
	var x, exact, flat, leak []float64
	noise := []float64{3, -2, 4, -4, 1, -3, 2, 0, -1, 2, 3, -2, 4, -4, 1, -3, 2, 0, -1, 2}
	for i := range 20 {
		v := float64(i)
		spike := 0.0
		if i == 6 || i == 15 {
			spike = 80 // a sample taken with a large page in flight
		}
		x = append(x, v)
		exact = append(exact, 5+2*v)
		flat = append(flat, 100+noise[i]+spike)
		leak = append(leak, 100+noise[i]+spike+2*v)
	}
	if f := fitTrend(x, exact); f.slope != 2 || f.lo != 2 || f.hi != 2 {
		t.Errorf("exact line: %+v, want slope 2 with no spread", f)
	}
	if f := fitTrend(x, flat); f.grows(0) {
		t.Errorf("noise and spikes alone grow: %+v", f)
	}
	if f := fitTrend(x, leak); !f.grows(0) || f.grows(3) {
		t.Errorf("slope 2 in the same noise: %+v; want growth beyond 0 and not beyond 3", f)
	}
	if f := fitTrend(x[:2], exact[:2]); !f.grows(1e9) {
		t.Errorf("two points decide nothing, so they fail: %+v", f)
	}
}
