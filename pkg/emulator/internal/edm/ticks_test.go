package edm

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestAppendTicksAsPackageTime holds AppendTicks to time.Time.AppendFormat
// with TimeLayout: random times over the whole range, days around every
// month's and leap year's edges, and times outside the fast range.
func TestAppendTicksAsPackageTime(t *testing.T) {
	check := func(ts int64) {
		t.Helper()
		want := TicksTime(ts).Format(TimeLayout)
		if got := string(AppendTicks(nil, ts, ":")); got != want {
			t.Fatalf("ticks %d: %s, want %s", ts, got, want)
		}
		if got, want := string(AppendTicks([]byte("x"), ts, "%3A")), "x"+strings.ReplaceAll(want, ":", "%3A"); got != want {
			t.Fatalf("ticks %d (ETag form): %s, want %s", ts, got, want)
		}
	}
	const maxTicks = year10000Ticks
	r := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		check(r.Int64N(maxTicks))
	}
	// Every day's first and last tick from 1970 to 2500 (leap years,
	// centuries, month ends), and the range's ends.
	const day = 86400 * TicksPerSecond
	for d := int64(0); d < 194_000; d++ {
		check(d * day)
		check(d*day + day - 1)
	}
	for _, ts := range []int64{0, 1, maxTicks - 1, maxTicks, maxTicks + 12345, -1, -day - 7, -62135596800*TicksPerSecond - 1, time.Date(2026, 11, 23, 21, 4, 5, 123456700, time.UTC).UnixNano() / 100} {
		check(ts)
	}
}

func BenchmarkAppendTicks(b *testing.B) {
	var buf [64]byte
	ts := time.Date(2026, 11, 23, 21, 4, 5, 123456700, time.UTC).UnixNano() / 100
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			AppendTicks(buf[:0], ts, ":")
		}
	})
	b.Run("time", func(b *testing.B) {
		for b.Loop() {
			TicksTime(ts).AppendFormat(buf[:0], TimeLayout)
		}
	})
}
