package httpfront

import (
	"net/http"
	"testing"
	"time"
)

// TestDateCache answers each second's Date, also when the clock goes back
// or jumps.
func TestDateCache(t *testing.T) {
	var c DateCache
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, d := range []time.Duration{0, 300 * time.Millisecond, 999 * time.Millisecond, time.Second, 0, -time.Hour, 48 * time.Hour, 48*time.Hour + 1} {
		now := base.Add(d)
		if got, want := c.Of(now)[0], now.UTC().Format(http.TimeFormat); got != want {
			t.Errorf("%v: %q, want %q", now, got, want)
		}
	}
}
