package edm

import (
	"strings"
	"time"
)

// ParseTime reads an Edm.DateTime value, or a datetime'…' literal of a
// filter, as the service accepts one: ISO 8601 date and time (RFC 3339,
// any fraction), with a zone, or without one, which is UTC (the service
// reads a DateTime with XmlConvert's rules and keeps it in UTC: REST
// "Understanding the Table service data model", Edm.DateTime "expressed
// as Coordinated Universal Time (UTC)").
func ParseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if local, lerr := time.Parse(zonelessLayout, s); lerr == nil {
			return local, nil // no zone: time.Parse reads it as UTC
		}
	}
	return t, err
}

// zonelessLayout is an ISO 8601 date and time without a zone, with any
// fraction.
const zonelessLayout = "2006-01-02T15:04:05.999999999"

// AppendUTC appends the DateTime s as the service stores and answers it:
// in UTC, with "Z", and with as many fraction digits as s has (at most
// 9); false when s is not a DateTime (ParseTime).
func AppendUTC(dst []byte, s string) ([]byte, bool) {
	t, err := ParseTime(s)
	if err != nil {
		return dst, false
	}
	digits := 0
	if dot := strings.IndexByte(s, '.'); dot > 0 {
		for i := dot + 1; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	return AppendTime(dst, t.Unix(), int64(t.Nanosecond()), min(digits, 9), ":"), true
}

// CompactTime returns the seconds since the Unix epoch, nanoseconds and
// fraction digits of a DateTime written in UTC as AppendTime writes it
// ("2006-01-02T15:04:05Z", or with a fraction of 1 to 9 digits, trailing
// zeros kept); false for any other form, which is stored as written.
func CompactTime(s string) (sec, nsec int64, digits int, ok bool) {
	if len(s) < 20 || len(s) > 30 || s[len(s)-1] != 'Z' || len(s) == 21 {
		return 0, 0, 0, false
	}
	if len(s) > 20 {
		digits = len(s) - 21
	}
	t, err := ParseTime(s)
	if err != nil {
		return 0, 0, 0, false
	}
	sec, nsec = t.Unix(), int64(t.Nanosecond())
	var buf [32]byte
	return sec, nsec, digits, string(AppendTime(buf[:0], sec, nsec, digits, ":")) == s
}

// AppendTime writes a UTC time with digits fraction digits (none: no
// fraction), as CompactTime reads it, with colon between hours, minutes
// and seconds (an ETag writes %3A; see AppendTicks).
func AppendTime(dst []byte, sec, nsec int64, digits int, colon string) []byte {
	t := time.Unix(sec, nsec).UTC()
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	dst = AppendDigits(dst, y, 4)
	dst = AppendDigits(append(dst, '-'), int(mo), 2)
	dst = AppendDigits(append(dst, '-'), d, 2)
	dst = AppendDigits(append(dst, 'T'), h, 2)
	dst = AppendDigits(append(dst, colon...), mi, 2)
	dst = AppendDigits(append(dst, colon...), s, 2)
	if digits > 0 {
		frac := int(nsec)
		for k := 9; k > digits; k-- {
			frac /= 10
		}
		dst = AppendDigits(append(dst, '.'), frac, digits)
	}
	return append(dst, 'Z')
}

// AppendDigits writes n ≥ 0 in width digits, zero-padded (more when n
// needs them).
func AppendDigits(dst []byte, n, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for n > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(dst, buf[i:]...)
}
