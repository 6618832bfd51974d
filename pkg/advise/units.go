package advise

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// round1 rounds to one decimal.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// bytesText writes a size in the largest 1024-based unit that keeps it
// at or above 1: 3.2 GB, 540 MB.
func bytesText(b float64) string {
	units := []string{"B", "KB", "MB", "GB", "TB", "PB"}
	k := 0
	for b >= 1024 && k < len(units)-1 {
		b /= 1024
		k++
	}
	return textfit.Float(math.Round(b*10)/10) + " " + units[k]
}

// durationText writes a duration in the largest calendar unit it fills:
// a year, 30 days, 1 hour.
func durationText(d time.Duration) string {
	day := 24 * time.Hour
	switch {
	case d >= 365*day && d%(365*day) == 0:
		return plural(int64(d/(365*day)), "year")
	case d >= day && d%day == 0:
		return plural(int64(d/day), "day")
	case d >= time.Hour && d%time.Hour == 0:
		return plural(int64(d/time.Hour), "hour")
	}
	return d.String()
}

// plural writes n things: "a year", "3 days".
func plural(n int64, unit string) string {
	if n == 1 {
		return "a " + unit
	}
	return textfit.Int(n) + " " + unit + "s"
}
