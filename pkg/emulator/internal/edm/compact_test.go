package edm

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestCompactTimeReadsAppendTime: CompactTime reads back every time
// AppendTime writes, with its fraction digits, and refuses the forms it
// does not write (an offset, a lone dot, lower-case z, a time that does
// not parse).
func TestCompactTimeReadsAppendTime(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20_000 {
		sec, nsec, digits := r.Int64N(253402300800)-62135596800, r.Int64N(1e9), r.IntN(10)
		for k := 9; k > digits; k-- {
			nsec -= nsec % pow10(9-k+1)
		}
		s := string(AppendTime(nil, sec, nsec, digits, ":"))
		gs, gn, gd, ok := CompactTime(s)
		if !ok || gs != sec || gn != nsec || gd != digits {
			t.Fatalf("%s: CompactTime = %d %d %d %v, want %d %d %d", s, gs, gn, gd, ok, sec, nsec, digits)
		}
		if want := time.Unix(sec, nsec).UTC().Format(time.RFC3339Nano); digits == 0 && s != want {
			t.Fatalf("AppendTime(%d, %d, 0) = %s, want %s", sec, nsec, s, want)
		}
	}
	for _, s := range []string{"2026-01-02T03:04:05+00:00", "2026-01-02T03:04:05.Z", "2026-01-02T03:04:05z", "2026-13-02T03:04:05Z", "2026-01-02 03:04:05Z", "2026-01-02T03:04:05.1234567890Z"} {
		if _, _, _, ok := CompactTime(s); ok {
			t.Errorf("CompactTime(%s) is ok", s)
		}
	}
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// TestCompactGUIDReadsAppendGUID: CompactGUID reads back every GUID
// AppendGUID writes, in its case, and refuses mixed case and malformed
// GUIDs.
func TestCompactGUIDReadsAppendGUID(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 10_000 {
		var g [16]byte
		for i := range g {
			g[i] = byte(r.IntN(256))
		}
		upper := r.IntN(2) == 0
		s := string(AppendGUID(nil, g[:], upper))
		inCase := strings.ToLower(s)
		if upper {
			inCase = strings.ToUpper(s)
		}
		if !ValidGUID(s) || s != inCase {
			t.Fatalf("%s is not a valid GUID in the case asked for (upper %v)", s, upper)
		}
		gg, gu, ok := CompactGUID(s)
		if !ok || gg != g || gu != upper && s != string(AppendGUID(nil, g[:], gu)) {
			t.Fatalf("%s: CompactGUID = %x %v %v", s, gg, gu, ok)
		}
	}
	for _, s := range []string{"0000000a-0000-4000-8000-00000000000A", "0000000a-0000-4000-8000-00000000000", "0000000a00000-4000-8000-000000000000", "0000000g-0000-4000-8000-000000000000"} {
		if _, _, ok := CompactGUID(s); ok {
			t.Errorf("CompactGUID(%s) is ok", s)
		}
	}
}
