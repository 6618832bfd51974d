package faults

import (
	"math"
	"sync"
	"testing"
	"time"
)

// binomial fails unless got successes of n trials are within 4 standard
// deviations of n·p (for a fixed seed the outcome is fixed: the bound
// says the hashing draws behave like independent trials).
func binomial(t *testing.T, what string, got, n int, p float64) {
	t.Helper()
	mean, sd := float64(n)*p, math.Sqrt(float64(n)*p*(1-p))
	if math.Abs(float64(got)-mean) > 4*sd+0.5 {
		t.Errorf("%s: %d of %d, want %.0f ± %.0f", what, got, n, mean, 4*sd)
	}
}

func mustParse(t testing.TB, spec string) Config {
	t.Helper()
	c, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Over 100,000 decisions each fault's share is within a tight binomial
// bound of the configured share, for several seeds.
func TestShares(t *testing.T) {
	const n = 100_000
	for _, seed := range []string{"1", "7", "18446744073709551615"} {
		in := New(mustParse(t, "503=2%,500=1%,504=0.5%,429=1%,drop=0.1%,discard=3%,seed="+seed))
		status := map[int]int{}
		var drops, writes, served, discards int
		for i := range n {
			write := i%3 == 0
			f := in.Decide("p", write)
			status[f.Status]++
			switch {
			case f.Drop:
				drops++
			case f.Status == 0 && write:
				served++
			}
			if f.Discard {
				discards++
				if !write || f.Status != 0 || f.Drop {
					t.Fatalf("decision %d: %+v discards a read or an unserved write", i, f)
				}
			}
			if write {
				writes++
			}
		}
		binomial(t, "503 seed "+seed, status[503], n, 0.02)
		binomial(t, "500 seed "+seed, status[500], n, 0.01)
		binomial(t, "504 seed "+seed, status[504], n, 0.005)
		binomial(t, "429 seed "+seed, status[429], n, 0.01)
		binomial(t, "drop seed "+seed, drops, n, 0.001)
		binomial(t, "discard seed "+seed, discards, served, 0.03)
		c := in.Counts()
		want := map[string]int64{"503 ServerBusy": int64(status[503]), "500 OperationTimedOut": int64(status[500]),
			"504": int64(status[504]), "429 TooManyRequests": int64(status[429])}
		if c.Decisions != n || c.Dropped != int64(drops) || c.Discarded != int64(discards) || c.Status != int64(n-status[0]) {
			t.Errorf("counts %+v disagree with the faults returned", c)
		}
		for k, v := range want {
			if c.Statuses[k] != v {
				t.Errorf("counts[%q] = %d, want %d", k, c.Statuses[k], v)
			}
		}
	}
}

// Latency rules: a fixed delay for all, a uniform range for a share, and
// both at once (delays add up).
func TestLatency(t *testing.T) {
	tests := []struct {
		spec     string
		share    float64 // of requests delayed beyond the fixed part
		fixed    time.Duration
		lo, hi   time.Duration // of the variable part
		wantMean time.Duration // of the variable part, when delayed
	}{
		{"latency=5ms", 0, 5 * time.Millisecond, 0, 0, 0},
		{"latency=1ms..3ms@10%", 0.1, 0, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond},
		{"latency=5ms,latency=1ms..21ms@25%", 0.25, 5 * time.Millisecond, time.Millisecond, 21 * time.Millisecond, 11 * time.Millisecond},
		{"latency=2ms@50%", 0.5, 0, 2 * time.Millisecond, 2 * time.Millisecond, 2 * time.Millisecond},
	}
	const n = 100_000
	for _, tt := range tests {
		in := New(mustParse(t, tt.spec+",seed=3"))
		delayed, low := 0, 0
		var sum time.Duration
		for range n {
			d := in.Decide("p", false).Delay - tt.fixed
			if d < 0 {
				t.Fatalf("%s: delay under the fixed %v", tt.spec, tt.fixed)
			}
			if d == 0 {
				continue
			}
			delayed++
			sum += d
			if d < tt.lo || d > tt.hi {
				t.Fatalf("%s: variable delay %v outside %v..%v", tt.spec, d, tt.lo, tt.hi)
			}
			if d < (tt.lo+tt.hi)/2 {
				low++
			}
		}
		binomial(t, tt.spec+" delayed", delayed, n, tt.share)
		if delayed > 0 {
			mean := sum / time.Duration(delayed)
			if tol := (tt.hi - tt.lo) / 50; mean < tt.wantMean-tol || mean > tt.wantMean+tol {
				t.Errorf("%s: mean variable delay %v, want %v", tt.spec, mean, tt.wantMean)
			}
			if tt.hi > tt.lo {
				binomial(t, tt.spec+" in the lower half", low, delayed, 0.5) // uniform
			}
		}
		if c := in.Counts(); tt.fixed > 0 && c.Delayed != n || tt.fixed == 0 && c.Delayed != int64(delayed) {
			t.Errorf("%s: %d counted delayed", tt.spec, c.Delayed)
		}
	}
}

// The same seed gives the same sequence, also when decided from many
// goroutines (the n-th decision depends only on seed, n and write); another
// seed gives another sequence.
func TestDeterminism(t *testing.T) {
	cfg := mustParse(t, "503=5%,429=5%,drop=1%,discard=10%,latency=1ms..9ms@20%,seed=42")
	sequence := func(cfg Config) []Fault {
		in := New(cfg)
		out := make([]Fault, 10_000)
		for i := range out {
			out[i] = in.Decide("p", i%2 == 0)
		}
		return out
	}
	a, b := sequence(cfg), sequence(cfg)
	other := cfg
	other.Seed = 43
	c := sequence(other)
	same := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("decision %d: %+v then %+v with the same seed", i, a[i], b[i])
		}
		if a[i] == c[i] {
			same++
		}
	}
	if same == len(a) {
		t.Error("seeds 42 and 43 gave the same sequence")
	}
	// Concurrently, writes only: the tallies are those of the sequential run.
	seq, par := New(cfg), New(cfg)
	for range 16_000 {
		seq.Decide("p", true)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 2000 {
				par.Decide("p", true)
			}
		})
	}
	wg.Wait()
	if s, p := seq.Counts(), par.Counts(); s.Status != p.Status || s.Dropped != p.Dropped || s.Discarded != p.Discarded || s.Delayed != p.Delayed {
		t.Errorf("sequential %+v, concurrent %+v: want the same tallies", s, p)
	}
}
