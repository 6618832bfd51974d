package textfit

import (
	"bytes"
	"strings"
	"testing"
)

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Int(0), "0"},
		{Int(999), "999"},
		{Int(1000), "1,000"},
		{Int(-1234567), "-1,234,567"},
		{Rate(1999.6), "2,000"},
		{Rate(12.34), "12.3"},
		{Rate(0.4), "0.40"},
		{Float(1580), "1,580"},   // was 1.58e+03
		{Float(1580.4), "1,580"}, // was 1.58e+03
		{Float(15.83), "15.8"},   //
		{Float(0.4321), "0.432"}, //
		{Float(0.000123), "0.000123"},
		{Float(2.5), "2.5"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	s := "measured 25.0s from 2026-11-22T12:51:41Z (warm-up 2s excluded), open loop at 800 ops/s, up to 32 workers, retry exponential(100ms,50ms,2s,3), seed 42"
	lines := Wrap(s, 60, "  ")
	if len(lines) < 3 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for i, l := range lines {
		if Len(l) > 60 {
			t.Errorf("line %d is %d wide: %q", i, Len(l), l)
		}
		if i > 0 && !strings.HasPrefix(l, "  ") {
			t.Errorf("line %d is not indented: %q", i, l)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != s {
		t.Errorf("wrapping lost words:\n%s\n%s", got, s)
	}
	// A word longer than the line is cut, not left over the edge.
	long := strings.Repeat("x", 130)
	for _, l := range Wrap("key "+long, 50, "") {
		if Len(l) > 50 {
			t.Errorf("line over 50: %q", l)
		}
	}
	if got := Wrap(s, 0, ""); len(got) != 1 || got[0] != s {
		t.Errorf("unlimited width wrapped: %q", got)
	}
}

func sampleTable() *Table {
	t := &Table{Cols: []Column{
		{Header: "SCHEME"}, {Header: "OPS/S", Right: true}, {Header: "ENTITIES/S", Right: true},
		{Header: "P50 MS", Right: true, Drop: 3}, {Header: "P99 MS", Right: true}, {Header: "P99.9 MS", Right: true, Drop: 4},
		{Header: "THROTTLED", Right: true}, {Header: "ERRORS", Right: true, Drop: 2}, {Header: "DROPPED", Right: true, Drop: 2},
		{Header: "PARTITIONS", Right: true, Drop: 1}, {Header: "BUSIEST PEAK/S", Right: true}, {Header: "PAGES/QUERY", Right: true, Drop: 5},
		{Header: "VERDICT", Wrap: true},
	}}
	t.Cells(Cell{Text: "constant"}, Cell{Text: "120"}, Cell{Text: "2,001"}, Cell{Text: "2.62"}, Cell{Text: "7.32"}, Cell{Text: "9.51"},
		Cell{Text: "66.67%", Color: Yellow}, Cell{Text: "0"}, Cell{Text: "12"}, Cell{Text: "1"}, Cell{Text: "2,000/2,000"}, Cell{Text: "-"},
		Cell{Text: "hot partition Orders; 67% throttled; and a long explanation of what that means for the scheme", Color: Red})
	t.Row("hash-buckets", "120", "6,002", "2.95", "10.7", "15.7", "0.00%", "0", "0", "16", "400/2,000", "-", "ok")
	return t
}

func TestTableFitsTheWidth(t *testing.T) {
	for _, width := range []int{0, 160, 120, 100, 80, 60, 40} {
		var b bytes.Buffer
		dropped, err := sampleTable().Render(&b, Style{Width: width, Color: true})
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if width > 0 && Len(l) > width {
				t.Errorf("width %d: line of %d: %q", width, Len(l), l)
			}
		}
		if width == 0 && dropped != nil {
			t.Errorf("unlimited width dropped %v", dropped)
		}
		// The columns that never give way and every word of the verdict are there.
		for _, want := range []string{"constant", "hash-buckets", "66.67%", "2,000/2,000", "explanation", "scheme"} {
			if !strings.Contains(out, want) {
				t.Errorf("width %d: %q missing:\n%s", width, want, out)
			}
		}
		if !strings.Contains(out, "\x1b[1;31m") {
			t.Errorf("width %d: no colour:\n%s", width, out)
		}
	}
}

func TestTableDropsEmptyColumnsFirst(t *testing.T) {
	var b bytes.Buffer
	dropped, _ := sampleTable().Render(&b, Style{Width: 120})
	// ERRORS (all 0) and PAGES/QUERY (all -) go before the others, which
	// give way by their Drop: DROPPED (12, Drop 2) stays at 120 columns.
	if !contains(dropped, "ERRORS") || !contains(dropped, "PAGES/QUERY") || contains(dropped, "DROPPED") {
		t.Errorf("dropped %v: want the empty ERRORS and PAGES/QUERY, not DROPPED\n%s", dropped, b.String())
	}
}

func TestTableBecomesBlocks(t *testing.T) {
	tb := &Table{Cols: []Column{{Header: "NAME"}, {Header: "PARTITIONKEY"}, {Header: "ROWKEY"}, {Header: "PATTERN", Wrap: true}}}
	tb.Row("bib-age", "{race}__{distance}", "BIB:{bib}__{runner}__{gender}__{age} + 1 secondary row(s) and then some more", "secondary rows in the same partition")
	var b bytes.Buffer
	if _, err := tb.Render(&b, Style{Width: 60}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "bib-age\n") || !strings.Contains(out, "  ROWKEY") {
		t.Errorf("not a block:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if Len(l) > 60 {
			t.Errorf("line of %d: %q", Len(l), l)
		}
	}
}

func TestPaintHonoursStyle(t *testing.T) {
	if got := (Style{}).Paint("FAIL", Red); got != "FAIL" {
		t.Errorf("colour without a colour style: %q", got)
	}
	if got := (Style{Color: true}).Paint("FAIL", Red); got == "FAIL" || Len(got) != 4 {
		t.Errorf("painted %q (visible %d)", got, Len(got))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		word string
		list []string
		want string
	}{
		{"duraton", []string{"duration", "warmup", "rate"}, "duration"},
		{"azurtie", []string{"embedded", "azurite"}, "azurite"},
		{"embeded", []string{"embedded", "azurite"}, "embedded"},
		{"AZURITE", []string{"azurite"}, "azurite"},
		{"xyz", []string{"duration", "warmup"}, ""},
		{"hsah-buckets", []string{"constant", "hash-buckets"}, "hash-buckets"},
	} {
		if got := Closest(tc.word, tc.list); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// A wrapping column with a MinWrap narrower than the default keeps the
// table a table at a width where the default would make it blocks.
func TestTableMinWrap(t *testing.T) {
	render := func(minWrap int) string {
		tb := &Table{Cols: []Column{{Header: "NAME"}, {Header: "VALUE"}, {Header: "VERDICT", Wrap: true, MinWrap: minWrap}}}
		tb.Row("constant", "cosmos,ru=40000", "hot partition Orders; 66% throttled by request units (429)")
		var b bytes.Buffer
		if _, err := tb.Render(&b, Style{Width: 48}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// NAME 8 + VALUE 15 + two gaps = 27: 21 left for the verdict.
	if out := render(0); !strings.HasPrefix(out, "constant\n") {
		t.Errorf("default minimum 24 at width 48: want blocks, got\n%s", out)
	}
	out := render(20)
	if !strings.HasPrefix(out, "NAME") {
		t.Fatalf("MinWrap 20 at width 48: want a table, got\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if Len(l) > 48 {
			t.Errorf("line of %d: %q", Len(l), l)
		}
	}
}
