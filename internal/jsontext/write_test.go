package jsontext

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// stringCases are strings with every kind of character AppendString
// treats apart: plain ASCII, the escaped ones, other control characters,
// DEL, multi-byte UTF-8, U+2028, invalid and truncated UTF-8.
var stringCases = []string{
	"", "plain", `a"b`, `back\slash\`, "tab\tnl\ncr\r", "\x00\x01\x1f", "\x7f", "é€😀", "\u2028\u2029",
	"\xff", "\xfe\xff", "a\xc3", "\xe2\x82", "\xed\xa0\x80", "<&>", "/", strings.Repeat("x", 100) + "\"",
}

// referenceString writes s the way AppendString's contract says, one
// character at a time: the reference it is held to.
func referenceString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// checkString holds AppendString, AppendBytes, AppendChars and StringLen
// to the reference, and json.Unmarshal to reading the literal back as s
// with each byte of invalid UTF-8 replaced.
func checkString(t *testing.T, s string) {
	t.Helper()
	want := referenceString(s)
	if got := string(AppendString([]byte("x"), s)); got != "x"+want {
		t.Fatalf("AppendString(%q) = %s, want %s", s, got[1:], want)
	}
	if got := string(AppendBytes(nil, []byte(s))); got != want {
		t.Fatalf("AppendBytes(%q) = %s, want %s", s, got, want)
	}
	if got := string(AppendChars(nil, s)); got != want[1:len(want)-1] {
		t.Fatalf("AppendChars(%q) = %s, want %s", s, got, want[1:len(want)-1])
	}
	if got := StringLen(s); got != len(want) {
		t.Fatalf("StringLen(%q) = %d, want %d", s, got, len(want))
	}
	var back string
	if err := json.Unmarshal([]byte(want), &back); err != nil {
		t.Fatalf("%s does not decode: %v", want, err)
	}
	var valid strings.Builder
	for _, r := range s {
		valid.WriteRune(r) // an invalid byte is utf8.RuneError, U+FFFD
	}
	if back != valid.String() {
		t.Fatalf("%s decodes to %q, want %q", want, back, valid.String())
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range stringCases {
		checkString(t, s)
	}
	// Every byte value at every position of short strings.
	for c := range 256 {
		for _, s := range []string{string(rune(0)), "ab", "abcdefghij"} {
			for i := range len(s) + 1 {
				checkString(t, s[:i]+string([]byte{byte(c)})+s[i:])
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkString(t, s) })
}

// TestAppendStringAllocs: a string of printable ASCII is copied into room
// the buffer has without an allocation.
func TestAppendStringAllocs(t *testing.T) {
	buf := make([]byte, 0, 256)
	s := strings.Repeat("PartitionKey", 10)
	if n := testing.AllocsPerRun(100, func() { buf = AppendString(buf[:0], s) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// TestVerbatim: Verbatim reads a literal back exactly when AppendString
// writes its value as that literal, and says whether it holds escapes.
func TestVerbatim(t *testing.T) {
	raws := []string{`""`, `"a"`, `"a\"b"`, `"\u0041"`, `"\/"`, `"\u00e9"`, `"é"`, `"\ufffd"`, "\"\xff\"", `"\u001f"`, `"\u001F"`,
		"\"\x01\"", `"\n"`, `"\b"`, `"a\\"`, `"`, `1`, `null`, `"\u2028"`, "\"\u2028\""}
	for _, s := range stringCases {
		raws = append(raws, referenceString(s))
	}
	for _, raw := range raws {
		v, escaped, ok := Verbatim([]byte(raw))
		var value string
		decodes := json.Unmarshal([]byte(raw), &value) == nil && strings.HasPrefix(raw, `"`)
		want := decodes && string(AppendString(nil, value)) == raw
		if ok != want {
			t.Errorf("Verbatim(%s) ok = %v, want %v", raw, ok, want)
			continue
		}
		if ok && (string(v) != value || escaped != strings.Contains(raw, `\`)) {
			t.Errorf("Verbatim(%s) = %q, escaped %v; want %q, %v", raw, v, escaped, value, strings.Contains(raw, `\`))
		}
	}
}

// TestNameKeyOrder checks nameKey's contract on names that share prefixes
// of every length, are shorter and longer than 8 bytes and hold bytes
// above 0x7f: a smaller key means a smaller name, and a smaller name
// never has a greater key.
func TestNameKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\x01a~\x7f\xc3\xa9\xff")
	var names []string
	for range 3000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		names = append(names, string(b))
	}
	names = append(names, "", "abcdefgh", "abcdefg", "abcdefgh\x01", "abcdefghi")
	for i, a := range names {
		for _, b := range names[i+1:] {
			ka, kb := nameKey(a), nameKey(b)
			if ka < kb && !(a < b) || ka > kb && !(a > b) {
				t.Fatalf("nameKey(%q) = %#x, nameKey(%q) = %#x: out of the names' order", a, ka, b, kb)
			}
			if a < b && ka > kb || a > b && ka < kb {
				t.Fatalf("%q and %q: keys %#x, %#x disagree", a, b, ka, kb)
			}
		}
	}
}
