package keygen

import (
	"fmt"
	"strconv"
	"strings"
)

// numFormat renders an integer: decimal or hexadecimal, zero-padded to Width.
// Negative numbers keep their sign before the padding.
type numFormat struct {
	Width int
	Hex   bool
}

// parseNumFormat accepts "06" or "d6" (decimal, width 6, like .NET's D6 and
// C's %06d), "x8" (lower-case hex, width 8), and "" (plain decimal).
func parseNumFormat(s string) (numFormat, bool) {
	switch {
	case s == "":
		return numFormat{}, true
	case s[0] == 'd' || s[0] == 'D':
		w, err := strconv.Atoi(s[1:])
		return numFormat{Width: w}, err == nil && w >= 0 && w <= 30
	case s[0] == 'x':
		w := 0
		if len(s) > 1 {
			var err error
			if w, err = strconv.Atoi(s[1:]); err != nil {
				return numFormat{}, false
			}
		}
		return numFormat{Width: w, Hex: true}, w >= 0 && w <= 30
	case s[0] == '0':
		w, err := strconv.Atoi(s)
		return numFormat{Width: w}, err == nil && w <= 30 && len(s) >= 2
	}
	return numFormat{}, false
}

func (nf numFormat) append(dst []byte, n int64) []byte {
	if nf.Hex {
		var buf [20]byte
		b := strconv.AppendUint(buf[:0], uint64(n), 16)
		for k := len(b); k < nf.Width; k++ {
			dst = append(dst, '0')
		}
		return append(dst, b...)
	}
	return appendPadded(dst, n, nf.Width)
}

func (nf numFormat) String() string {
	if nf.Hex {
		return "x" + strconv.Itoa(nf.Width)
	}
	return "d" + strconv.Itoa(nf.Width)
}

// appendPadded appends n in decimal, zero-padded to width digits.
func appendPadded(dst []byte, n int64, width int) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	var buf [20]byte
	b := strconv.AppendUint(buf[:0], uint64(n), 10)
	for k := len(b); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

const hexDigits = "0123456789abcdef"

// appendGUID renders 128 random bits as a version-4 UUID in the canonical
// 8-4-4-4-12 lower-case form.
func appendGUID(dst []byte, bits [2]uint64) []byte {
	var b [16]byte
	for k := 0; k < 8; k++ {
		b[k] = byte(bits[0] >> (56 - 8*k))
		b[8+k] = byte(bits[1] >> (56 - 8*k))
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	for k, c := range b {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&0x0f])
	}
	return dst
}

// appendSlug renders words picked by the random bits, joined by '-', with a
// base-36 suffix of the entity index so slugs are unique: "quiet-river-lamp-2s".
func appendSlug(dst []byte, v *Value, words int) []byte {
	r := v.Bits[0]
	for w := 0; w < words; w++ {
		dst = append(dst, slugWords[r%uint64(len(slugWords))]...)
		r /= uint64(len(slugWords))
		if r == 0 {
			r = mix(v.Bits[0] + uint64(w))
		}
		dst = append(dst, '-')
	}
	return strconv.AppendInt(dst, v.Num, 36)
}

// dotnetTokens maps .NET custom date and time format tokens to Go layout
// elements, longest first, so "yyyy-MM-dd" and Go's "2006-01-02" both work.
var dotnetTokens = []struct{ net, goLayout string }{
	{"yyyy", "2006"}, {"fffffff", "0000000"}, {"ffffff", "000000"}, {"fff", "000"},
	{"MM", "01"}, {"dd", "02"}, {"HH", "15"}, {"mm", "04"}, {"ss", "05"}, {"yy", "06"},
}

// timeLayout turns a time format into a Go layout. A format containing any of
// the .NET tokens yyyy, yy, MM, dd, HH, mm, ss, fff is read as .NET custom
// format; anything else is taken as a Go layout (reference time
// 2006-01-02T15:04:05Z). Named shortcuts: year, month, day, hour, minute,
// second, rfc3339.
func timeLayout(f string) (string, error) {
	switch f {
	case "year":
		return "2006", nil
	case "month":
		return "2006-01", nil
	case "day", "date":
		return "2006-01-02", nil
	case "hour":
		return "2006-01-02T15", nil
	case "minute":
		return "2006-01-02T15:04", nil
	case "second":
		return "2006-01-02T15:04:05", nil
	case "", "rfc3339":
		return "2006-01-02T15:04:05Z07:00", nil
	}
	net := false
	for _, t := range dotnetTokens {
		if strings.Contains(f, t.net) {
			net = true
			break
		}
	}
	if !net {
		if !strings.ContainsAny(f, "0123456789") {
			return "", fmt.Errorf("%w: time format %q has no date or time element; use a Go layout like 2006-01-02, a .NET format like yyyy-MM-dd, or year, month, day, hour, minute, second", ErrTemplate, f)
		}
		return f, nil
	}
	out := f
	for _, t := range dotnetTokens {
		out = strings.ReplaceAll(out, t.net, t.goLayout)
	}
	return out, nil
}
