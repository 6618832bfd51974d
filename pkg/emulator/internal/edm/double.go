package edm

import (
	"math"
	"strconv"
)

// AppendDouble appends a finite f as the Table service writes an
// Edm.Double in JSON: OData .NET Libraries 5.x (JsonValueUtils.WriteValue)
// writes XmlConvert.ToString(f), which is "-0" for a negative zero and
// otherwise .NET Framework's round-trip format ("R"), then ".0" when that
// text has no '.', 'e' or 'E' — so 2 is "2.0", 1e3 "1000.0", 1e15
// "1E+15", 1.23456789012346e+24 "1.23456789012346E+24" and 1e-5 "1E-05".
// NaN and the infinities are not JSON numbers: the service writes them as
// the strings "NaN", "Infinity" and "-Infinity", which callers do.
//
// The "R" format writes f with 15 significant digits when they read back
// as f, else with 17; as .NET's "G" format of that many digits does, in
// scientific notation (an upper-case E, a sign and at least two exponent
// digits) when the decimal exponent is at least the digits' count or
// below -5, and in plain decimals otherwise, without trailing zeros.
func AppendDouble(dst []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	digits, scale, precision := roundTripDigits(buf[:0], f)
	if scale > precision || scale < -3 { // .NET's FormatGeneral
		dst = append(dst, digits[0])
		if len(digits) > 1 {
			dst = append(append(dst, '.'), digits[1:]...)
		}
		dst = append(dst, 'E')
		exp := scale - 1
		if exp < 0 {
			dst, exp = append(dst, '-'), -exp
		} else {
			dst = append(dst, '+')
		}
		return AppendDigits(dst, exp, 2)
	}
	if scale <= 0 {
		dst = append(dst, "0."...)
		for ; scale < 0; scale++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	for i := 0; i < scale; i++ {
		if i < len(digits) {
			dst = append(dst, digits[i])
		} else {
			dst = append(dst, '0')
		}
	}
	if scale >= len(digits) {
		return append(dst, ".0"...) // a whole number: ".0" as the JSON writer adds it
	}
	return append(append(dst, '.'), digits[scale:]...)
}

// roundTripDigits returns the significant digits of f > 0 (no trailing
// zeros) with the decimal exponent scale of f = 0.d1d2… × 10^scale, in 15
// digits when those read back as f, else 17 (precision).
func roundTripDigits(buf []byte, f float64) (digits []byte, scale, precision int) {
	b := strconv.AppendFloat(buf[:0], f, 'e', 14, 64) // d.dddde±XX
	precision = 15
	if back, err := strconv.ParseFloat(string(b), 64); err != nil || back != f {
		b = strconv.AppendFloat(buf[:0], f, 'e', 16, 64)
		precision = 17
	}
	e := len(b) - 1
	for b[e] != 'e' {
		e--
	}
	exp, _ := strconv.Atoi(string(b[e+1:]))
	copy(b[1:], b[2:e]) // drop the point
	digits = b[:e-1]
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits, exp + 1, precision
}
