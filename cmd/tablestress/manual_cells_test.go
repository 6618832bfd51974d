package main

import (
	"regexp"
	"strings"
	"testing"
)

// How the manual's shown output is held to what a command prints now.
// Numbers change from run to run and machine to machine; the words do
// not. A shown line is cut into cells at runs of two or more spaces (a
// table's columns; a wrapped line is one cell) and read word by word
// (normWord): a number becomes #, a name keeps its letters with # for
// each run of digits (P99.9 is P#.#, dev-002 dev-#), and a fresh table's
// random name is #. Each cell must then occur, between word boundaries, in
// the command's output read the same way as one line (so a verdict
// wrapped at another word still reads through). "(left out to fit: A, B;
// ...)" is held column by column: a column left out in one run may be
// shown in another, as long as it exists. A line "..." leaves lines out.

var (
	cellSplitRE = regexp.MustCompile(`\s{2,}`)
	ansiRE      = regexp.MustCompile("\x1b\\[[0-9;]*m")
	leftOutRE   = regexp.MustCompile(`^\(left out to fit: (.*); --wide shows them\)$`)
)

// normalize reads text as the check does: colours dropped, each word
// read by normWord, white space one space, padded with a space each side.
func normalize(s string) string {
	words := strings.Fields(ansiRE.ReplaceAllString(s, ""))
	for i, w := range words {
		words[i] = normWord(w)
	}
	return " " + strings.Join(words, " ") + " "
}

var (
	digitsRE     = regexp.MustCompile(`[0-9]+`)
	freshTableRE = regexp.MustCompile(`^ts[a-z0-9]*[0-9a-f]{8}$`) // workload.FreshTableName
)

// normWord reads one word: the punctuation around it apart, a number
// (what starts with a digit or a sign) #, a fresh table's name #, and
// another word with its runs of digits #.
func normWord(w string) string {
	core := strings.TrimLeft(w, "([{\"'×±")
	lead := w[:len(w)-len(core)]
	core = strings.TrimRight(core, ")]}\"',;:.")
	trail := w[len(lead)+len(core):]
	switch {
	case !strings.ContainsAny(core, "0123456789"):
	case strings.IndexAny(core[:1], "0123456789+-−~") == 0 || freshTableRE.MatchString(core):
		core = "#"
	default:
		core = digitsRE.ReplaceAllString(core, "#")
	}
	parts := strings.Split(lead, "")
	parts = append(parts, core)
	return strings.TrimSpace(strings.Join(append(parts, strings.Split(trail, "")...), " "))
}

// shownCells returns the cells of the shown output that carry a word.
func shownCells(shown []string) []string {
	var out []string
	for _, l := range shown {
		if strings.TrimSpace(l) == "..." {
			continue
		}
		for _, c := range cellSplitRE.Split(strings.TrimSpace(l), -1) {
			if m := leftOutRE.FindStringSubmatch(c); m != nil {
				out = append(out, strings.Split(m[1], ", ")...)
				continue
			}
			if strings.Trim(normalize(c), " #.,:;%/()×±-") != "" { // a cell of numbers alone says nothing
				out = append(out, c)
			}
		}
	}
	return out
}

// missingCells returns the cells of the shown output that the output
// does not hold.
func missingCells(shown []string, output string) []string {
	got := normalize(output)
	var out []string
	for _, c := range shownCells(shown) {
		if !strings.Contains(got, normalize(c)) {
			out = append(out, c)
		}
	}
	return out
}

func TestMissingCells(t *testing.T) {
	output := "SCHEME        OPS/S  P99 MS  THROTTLED  VERDICT\n" +
		"constant        119     464     66.28%  hot partition Orders; 66%\n" +
		"                                        throttled; 8 dropped\n" +
		"hash-buckets    120    27.9      0.00%  ok\n" +
		"(left out to fit: P50 MS, ERRORS; --wide shows them)\n" +
		"table tsquickstart5f3a09bc: seeded 20,000 entities\n"
	shown := []string{
		"SCHEME        OPS/S  P50 MS  THROTTLED  VERDICT",
		"constant        120    13.4     66.67%  hot partition Orders; 67%",
		"                                        throttled",
		"...",
		"hash-buckets    120    18.9      0.00%  ok",
		"(left out to fit: P99 MS; --wide shows them)",
		"table tsquickstartadb84a1c: seeded 20,000 entities",
	}
	if m := missingCells(shown, output); len(m) != 0 {
		t.Errorf("missing %q from an output that holds every cell but for numbers", m)
	}
	for _, bad := range []string{
		"constant        120    13.4     66.67%  cold partition",                // another verdict
		"SCHEME        OPS/S  P50 MS  THROTTLED  PEAK/S",                        // a column gone
		"(left out to fit: P99.9 MS; --wide shows them)",                        // a column that never was
		"hash-buckets    120    18.9      0.00%  o",                             // a word cut short
		"tablestress: quickstart, scheme device-date, on embedded (http://x:1)", // a line gone
	} {
		if m := missingCells([]string{bad}, output); len(m) == 0 {
			t.Errorf("%q passed against an output that does not hold it", bad)
		}
	}
}

// A run on this machine's clock may fail a latency threshold without the
// manual being wrong; any other failure, or any exit in a bubble, counts.
func TestExitAsShown(t *testing.T) {
	latency := "thresholds:\n  FAIL p99(point_read) < 250ms  (observed 336ms)\n  ok   throttle_rate < 1%  (observed 0%)\n"
	throttle := latency + "  FAIL throttle_rate < 1%  (observed 84%)\n"
	for _, tt := range []struct {
		code, want int
		out        string
		realTime   bool
		ok         bool
	}{
		{0, 0, "", false, true},
		{99, 99, "", false, true},
		{99, 0, latency, true, true},
		{99, 0, latency, false, false}, // in a bubble latency is exact
		{99, 0, throttle, true, false},
		{99, 0, "  FAIL max_partition_peak < 2000  (observed 2050)\n", true, false},
		{99, 0, "no thresholds printed\n", true, false},
		{1, 0, latency, true, false},
	} {
		if got := exitAsShown(tt.code, tt.want, tt.out, tt.realTime); got != tt.ok {
			t.Errorf("exitAsShown(%d, %d, %q, %v) = %v, want %v", tt.code, tt.want, tt.out, tt.realTime, got, tt.ok)
		}
	}
}
