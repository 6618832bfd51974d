package edm

import "time"

// ParseTime reads an Edm.DateTime value as the service accepts one: ISO
// 8601 (RFC 3339, any fraction).
func ParseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

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
