package edm

import (
	"time"
)

// Entity times in 100 ns ticks since the Unix epoch (an entity's write
// time) that AppendTime writes: the years 0 to 9999, as TimeLayout does
// with four digits.
const (
	TicksPerSecond = 10_000_000
	year0Ticks     = -62167219200 * TicksPerSecond // 0000-01-01T00:00:00Z
	year10000Ticks = 253402300800 * TicksPerSecond // 10000-01-01T00:00:00Z
)

// TimeLayout is how the service writes Edm.DateTime values and Timestamps:
// seven fractional digits, UTC.
const TimeLayout = "2006-01-02T15:04:05.0000000Z"

// TicksTime is the time of ts, in 100 ns ticks since the Unix epoch, for
// any ts (nanoseconds in an int64 end in 2262).
func TicksTime(ts int64) time.Time {
	return time.Unix(ts/TicksPerSecond, ts%TicksPerSecond*100).UTC()
}

// AppendTicks appends the time ts (100 ns ticks since the Unix epoch) as
// TimeLayout writes it, 2006-01-02T15:04:05.0000000Z, with colon between
// hours, minutes and seconds (an ETag writes %3A). It is
// time.Time.AppendFormat's answer at a fraction of its cost (a point read
// writes its entity's time three times: the Timestamp, the odata.etag and
// the ETag header); years outside 0 to 9999 go through AppendFormat.
func AppendTicks(dst []byte, ts int64, colon string) []byte {
	if ts < year0Ticks || ts >= year10000Ticks {
		var tb [40]byte
		return AppendColons(dst, TicksTime(ts).AppendFormat(tb[:0], TimeLayout), colon)
	}
	sec, frac := ts/TicksPerSecond, ts%TicksPerSecond
	if frac < 0 {
		sec, frac = sec-1, frac+TicksPerSecond
	}
	return AppendTime(dst, sec, frac*100, 7, colon)
}

// AppendColons appends a time written in TimeLayout with its colons
// written as colon: "%3A" in an ETag.
func AppendColons(dst, ts []byte, colon string) []byte {
	for _, c := range ts {
		if c == ':' {
			dst = append(dst, colon...)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// The ETag of an entity surrounds its timestamp, whose colons are written
// %3A: W/"datetime'2026-01-02T03%3A04%3A05.0000000Z'".
const (
	ETagPrefix = `W/"datetime'`
	ETagSuffix = `'"`
)

// AppendETag appends the ETag of an entity written at ts, derived from
// its timestamp as Azure does.
func AppendETag(dst []byte, ts int64) []byte {
	dst = append(dst, ETagPrefix...)
	dst = AppendTicks(dst, ts, "%3A")
	return append(dst, ETagSuffix...)
}

// ValidETag reports whether s is a well-formed weak ETag: W/ (or w/)
// and a quoted string, in which a backslash escapes a quote. Azure reads
// any such ETag as a condition, which one it never issued fails with 412
// (W/"wrong" is 412: Azurite issue #1229, quoting Azure's answers), and
// answers a condition on anything else — a strong ETag, a bare word, a
// lone quote, two ETags — with 400 InvalidInput, "The etag value '{0}'
// specified in one of the request headers is not valid" (REST "Table
// service error codes"), before looking for the entity.
func ValidETag(s string) bool {
	if len(s) < 4 || (s[0] != 'W' && s[0] != 'w') || s[1] != '/' || s[2] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 3; i < len(s)-1; i++ {
		if s[i] == '"' && s[i-1] != '\\' {
			return false
		}
	}
	return true
}
