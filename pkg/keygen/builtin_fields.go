package keygen

import (
	"strings"
	"time"
)

// BuiltinFields are available in every template without being declared:
//
//	i                 the entity index (0, 1, 2, ...)
//	time              the event time, Start + i*Interval (format with {time:yyyy-MM-dd})
//	ticks             .NET ticks of the event time (100 ns since 0001-01-01), d19
//	inverted_ticks    (DateTime.MaxValue - t).Ticks as d19: newest sorts first
//	unix              Unix seconds, d10
//	inverted_unix     9999999999 - unix, d10: newest sorts first
//	unix_ms           Unix milliseconds, d13
//	inverted_unix_ms  99999999999999 - unix_ms, d14
//	desc_seq          9999999999 - i, d10: a descending sequence (prepend-only)
//	guid              a random version-4 GUID per entity
var BuiltinFields = []string{"i", "time", "ticks", "inverted_ticks", "unix", "inverted_unix", "unix_ms", "inverted_unix_ms", "desc_seq", "guid"}

const (
	// MaxTicks is DateTime.MaxValue.Ticks in .NET.
	MaxTicks int64 = 3155378975999999999
	// unixEpochTicks is the .NET tick count of 1970-01-01T00:00:00Z.
	unixEpochTicks int64 = 621355968000000000
	maxUnix        int64 = 9999999999
	maxUnixMs      int64 = 99999999999999
	maxDescSeq     int64 = 9999999999
)

var guidSalt = nameHash("guid")

// timeBuiltins are the built-ins computed from the event time, with the
// time they resolve and the way their renderings move as it grows.
var timeBuiltins = map[string]struct {
	res time.Duration
	dir int
}{
	"time": {time.Nanosecond, 1}, "ticks": {100, 1}, "inverted_ticks": {100, -1},
	"unix": {time.Second, 1}, "inverted_unix": {time.Second, -1},
	"unix_ms": {time.Millisecond, 1}, "inverted_unix_ms": {time.Millisecond, -1},
}

// TimeBuiltin reports whether name is a built-in computed from the event
// time, with its resolution (ticks: 100 ns, unix: a second, time: a
// nanosecond) and dir +1 when its value grows with the event time, -1
// when it shrinks (the inverted ones). The default rendering of time
// (RFC 3339 with the trailing zeros of the fraction cut) grows with it
// but does not sort by it when instants differ within a second.
func TimeBuiltin(name string) (res time.Duration, dir int, ok bool) {
	b, ok := timeBuiltins[name]
	return b.res, b.dir, ok
}

func isBuiltin(name string) bool {
	for _, b := range BuiltinFields {
		if b == name {
			return true
		}
	}
	return false
}

// reservedProperty reports whether name is a property the entity encoder
// writes itself, or one the service owns.
func reservedProperty(name string) bool {
	switch name {
	case "PartitionKey", "RowKey", "Timestamp", "EventTime", "Seq", "Version":
		return true
	}
	return strings.HasPrefix(name, "Data") || strings.HasPrefix(name, "odata")
}

// builtinNumber returns the numeric value of a numeric built-in for e, and the
// zero-padding width its default rendering uses.
func builtinNumber(name string, e *Entity) (n int64, width int) {
	switch name {
	case "i":
		return e.Index, 0
	case "ticks":
		return Ticks(e.Time), 19
	case "inverted_ticks":
		return MaxTicks - Ticks(e.Time), 19
	case "unix":
		return e.Time.Unix(), 10
	case "inverted_unix":
		return maxUnix - e.Time.Unix(), 10
	case "unix_ms":
		return e.Time.UnixMilli(), 13
	case "inverted_unix_ms":
		return maxUnixMs - e.Time.UnixMilli(), 14
	case "desc_seq":
		return maxDescSeq - e.Index, 10
	}
	return 0, 0
}

// Ticks returns the .NET tick count (100 ns units since 0001-01-01T00:00:00Z)
// of t, as DateTime.Ticks would for the same UTC instant.
func Ticks(t time.Time) int64 {
	return unixEpochTicks + t.Unix()*10_000_000 + int64(t.Nanosecond())/100
}
