package emulator

import (
	"encoding/hex"
	"time"
)

// compactTime returns the seconds since the Unix epoch, nanoseconds and
// fraction digits of a DateTime written in UTC as appendTime writes it
// ("2006-01-02T15:04:05Z", or with a fraction of 1 to 9 digits, trailing
// zeros kept); false for any other form, which is stored as written.
func compactTime(s string) (sec, nsec int64, digits int, ok bool) {
	if len(s) < 20 || len(s) > 30 || s[len(s)-1] != 'Z' || len(s) == 21 {
		return 0, 0, 0, false
	}
	if len(s) > 20 {
		digits = len(s) - 21
	}
	t, err := parseTime(s)
	if err != nil {
		return 0, 0, 0, false
	}
	sec, nsec = t.Unix(), int64(t.Nanosecond())
	var buf [32]byte
	return sec, nsec, digits, string(appendTime(buf[:0], sec, nsec, digits, ":")) == s
}

// appendTime writes a UTC time with digits fraction digits (none: no
// fraction), as compactTime reads it, with colon between hours, minutes
// and seconds (an ETag writes %3A; see appendTicks).
func appendTime(dst []byte, sec, nsec int64, digits int, colon string) []byte {
	t := time.Unix(sec, nsec).UTC()
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	dst = appendDigits(dst, y, 4)
	dst = appendDigits(append(dst, '-'), int(mo), 2)
	dst = appendDigits(append(dst, '-'), d, 2)
	dst = appendDigits(append(dst, 'T'), h, 2)
	dst = appendDigits(append(dst, colon...), mi, 2)
	dst = appendDigits(append(dst, colon...), s, 2)
	if digits > 0 {
		frac := int(nsec)
		for k := 9; k > digits; k-- {
			frac /= 10
		}
		dst = appendDigits(append(dst, '.'), frac, digits)
	}
	return append(dst, 'Z')
}

// appendDigits writes n ≥ 0 in width digits, zero-padded (more when n
// needs them).
func appendDigits(dst []byte, n, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for n > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(dst, buf[i:]...)
}

// compactGUID returns the bytes of a GUID written in one case, and
// whether that case is upper; false for a GUID in mixed case or any other
// form, which is stored as written.
func compactGUID(s string) (g [16]byte, upper, ok bool) {
	if !validGUID(s) {
		return g, false, false
	}
	lower := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		}
	}
	if lower && upper {
		return g, false, false
	}
	hexes := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36]
	if _, err := hex.Decode(g[:], []byte(hexes)); err != nil {
		return g, false, false
	}
	return g, upper, true
}

// hexDigits are the digits GUIDs and request ids are written in.
const hexDigits = "0123456789abcdef"

// appendGUID writes 16 bytes as a GUID, 8-4-4-4-12 hex digits.
func appendGUID(dst, g []byte, upper bool) []byte {
	digits := hexDigits
	if upper {
		digits = "0123456789ABCDEF"
	}
	for i, b := range g {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, digits[b>>4], digits[b&0xf])
	}
	return dst
}
