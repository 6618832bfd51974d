package plan

import (
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

func TestExponentialBackoffFollowsSeedFormula(t *testing.T) {
	// The example of REST "Design a scalable partitioning strategy for
	// Azure Table storage", "Retry strategy": default 30s, min 3s, max 90s.
	r := NewRetrier(scenario.Retry{Kind: "exponential", Delay: 30 * time.Second, Min: 3 * time.Second, Max: 90 * time.Second, Retries: 5})
	st := keygen.NewStream(1, 2)
	for x := 1; x <= 5; x++ {
		lo, hi := time.Duration(1<<62), time.Duration(0)
		for k := 0; k < 2000; k++ {
			b := r.Backoff(x, &st)
			lo, hi = min(lo, b), max(hi, b)
		}
		// y = Rand(24s, 36s)·(2^x−1); y = min(3s + y, 90s)
		f := time.Duration(1<<x - 1)
		wantLo, wantHi := min(3*time.Second+24*time.Second*f, 90*time.Second), min(3*time.Second+36*time.Second*f, 90*time.Second)
		if lo < wantLo || hi > wantHi {
			t.Errorf("retry %d: backoff in [%v, %v], want within [%v, %v]", x, lo, hi, wantLo, wantHi)
		}
		// The jitter really spans ±20% when the cap does not bind.
		if wantHi < 90*time.Second && (lo > wantLo+time.Second || hi < wantHi-time.Second) {
			t.Errorf("retry %d: jitter too narrow: [%v, %v] of [%v, %v]", x, lo, hi, wantLo, wantHi)
		}
	}
	if r.Retries() != 5 {
		t.Errorf("Retries = %d", r.Retries())
	}
}

func TestFixedAndNone(t *testing.T) {
	f := NewRetrier(scenario.Retry{Kind: "fixed", Delay: 200 * time.Millisecond, Retries: 3})
	st := keygen.NewStream(1, 1)
	for x := 1; x <= 3; x++ {
		if b := f.Backoff(x, &st); b != 200*time.Millisecond {
			t.Errorf("fixed backoff %d = %v", x, b)
		}
	}
	n := NewRetrier(scenario.Retry{Kind: "none", Retries: 7})
	if n.Retries() != 0 || n.Backoff(1, &st) != 0 {
		t.Error("none must not retry")
	}
	if f.String() != "fixed(200ms,3)" {
		t.Errorf("String = %q", f.String())
	}
}
