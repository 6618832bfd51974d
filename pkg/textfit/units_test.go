package textfit

import (
	"testing"
	"time"
)

// Sizes and durations are written in the largest unit they fill.
func TestUnits(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Bytes(512), "512 B"},
		{Bytes(3.25 * 1024 * 1024 * 1024), "3.3 GB"},
		{Bytes(20 << 30), "20 GB"},
		{Duration(365 * 24 * time.Hour), "a year"},
		{Duration(30 * 24 * time.Hour), "30 days"},
		{Duration(time.Hour), "an hour"},
		{Duration(90 * time.Minute), "1h30m0s"},
		{Plural(2, "year"), "2 years"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
