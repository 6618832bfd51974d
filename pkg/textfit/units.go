package textfit

import (
	"math"
	"strings"
	"time"
)

// Bytes writes a size in the largest 1024-based unit that keeps it at or
// above 1, to a tenth: 3.2 GB, 540 MB.
func Bytes(b float64) string {
	units := []string{"B", "KB", "MB", "GB", "TB", "PB"}
	k := 0
	for b >= 1024 && k < len(units)-1 {
		b /= 1024
		k++
	}
	return Float(math.Round(b*10)/10) + " " + units[k]
}

// Duration writes a duration in the largest calendar unit it fills (a
// year of 365 days): a year, 30 days, 1 hour; else as time.Duration
// writes it.
func Duration(d time.Duration) string {
	day := 24 * time.Hour
	switch {
	case d >= 365*day && d%(365*day) == 0:
		return Plural(int64(d/(365*day)), "year")
	case d >= day && d%day == 0:
		return Plural(int64(d/day), "day")
	case d >= time.Hour && d%time.Hour == 0:
		return Plural(int64(d/time.Hour), "hour")
	}
	return d.String()
}

// Plural writes n of a unit of time: "a year", "an hour", "3 days".
func Plural(n int64, unit string) string {
	if n == 1 {
		return Article(unit) + " " + unit
	}
	return Int(n) + " " + unit + "s"
}

// Article is the indefinite article of a unit of time: "an" before a
// vowel sound ("an hour"), else "a" ("a year", "a minute").
func Article(unit string) string {
	if unit != "" && strings.ContainsRune("aeiouh", rune(unit[0])) {
		return "an"
	}
	return "a"
}
