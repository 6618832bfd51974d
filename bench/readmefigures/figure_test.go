package main

import (
	"math"
	"strings"
	"testing"
)

func TestParseFigure(t *testing.T) {
	tests := []struct {
		in     string
		metric string
		value  float64
		kind   Kind
	}{
		{"19 µs", "ns/op", 19_000, Time},                        // micro sign U+00B5
		{"19 μs", "ns/op", 19_000, Time},                        // Greek mu U+03BC
		{"19us", "ns/op", 19_000, Time},                         // no space, ASCII
		{"273 ns", "ns/op", 273, Time},                          // bare time: per op
		{"57 ns/op", "ns/op", 57, Time},                         // as the benchmark prints it
		{"1.5 ms", "ns/op", 1_500_000, Time},                    // decimals
		{"3.2 ns per entity", "ns/entity", 3.2, Time},           // a custom time metric
		{"1,122 bytes per entity", "bytes/entity", 1122, Count}, // thousands, custom size metric
		{"697 bytes/partition", "bytes/partition", 697, Count},  // the benchmark's spelling
		{"4,272 B/op", "B/op", 4272, Count},                     // -benchmem's spelling
		{"13.7 KB per op", "B/op", 13_700, Count},               // decimal kilobytes, per op
		{"2 KiB", "B/op", 2048, Count},                          // binary kilobytes
		{"1,806 MiB", "B/op", 1806 << 20, Count},                // thousands and MiB
		{"0 allocations", "allocs/op", 0, Count},                // zero is a figure
		{"55 allocs/op", "allocs/op", 55, Count},                // as -benchmem prints it
		{"  19 µs  ", "ns/op", 19_000, Time},                    // surrounding space
		{"550 bytes per second", "bytes/second", 550, Count},    // the Measured table's memory row
		{"1 GiB", "B/op", 1 << 30, Count},                       // gibibytes
		{"3 allocs", "allocs/op", 3, Count},                     // short plural
		{"1.25 us/op", "ns/op", 1250, Time},                     // ASCII micro per op
		{"333 ns / op", "ns/op", 333, Time},                     // spaces round the slash
		{"5 s per 1k", "ns/1k", 5e9, Time},                      // what follows per is kept as is
		{"1000 ns", "ns/op", 1000, Time},                        // grouping is optional
		{"1.12× per floor", "×/floor", 1.12, Time},              // a ratio, as bench/server-cpu.sh prints it
		{"41 µs per floor-op", "ns/floor-op", 41_000, Time},     // bench/server-cpu.sh's floor
	}
	for _, tt := range tests {
		f, err := ParseFigure(tt.in)
		if err != nil {
			t.Errorf("ParseFigure(%q): %v", tt.in, err)
			continue
		}
		if f.Metric != tt.metric || math.Abs(f.Value-tt.value) > 1e-6*math.Max(1, tt.value) || f.Kind != tt.kind {
			t.Errorf("ParseFigure(%q) = %s %g kind %d, want %s %g kind %d", tt.in, f.Metric, f.Value, f.Kind, tt.metric, tt.value, tt.kind)
		}
	}
}

func TestParseFigureRefuses(t *testing.T) {
	tests := []struct{ in, says string }{
		{"fast", "want a number and a unit"},                // no number
		{"19", "want a number and a unit"},                  // no unit
		{"19 parsecs", `unknown unit "parsecs"`},            // not a unit
		{"1,12 bytes", "thousands go in groups of three"},   // bad grouping
		{"1,1222 bytes", "thousands go in groups of three"}, // bad grouping
		{"19 kb", `unknown unit "kb"`},                      // units are case-sensitive
		{"0 ns", "a time or a ratio of zero"},               // nothing to compare with
		{"3 allocations per entity", "per op only"},         // benchmarks count allocs per op
		{"-5 ns", "want a number and a unit"},               // negative
		{"19 µs fast", "want a number and a unit"},          // trailing words
	}
	for _, tt := range tests {
		_, err := ParseFigure(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ParseFigure(%q) = %v, want an error saying %q", tt.in, err, tt.says)
		}
	}
}

func TestParseFigures(t *testing.T) {
	figs, err := ParseFigures("273 ns, 0 allocations")
	if err != nil || len(figs) != 2 || figs[0].Metric != "ns/op" || figs[1].Metric != "allocs/op" {
		t.Fatalf("ParseFigures = %+v, %v", figs, err)
	}
	figs, err = ParseFigures("1,122 bytes per entity") // the comma of 1,122 separates nothing
	if err != nil || len(figs) != 1 || figs[0].Value != 1122 {
		t.Fatalf("ParseFigures = %+v, %v", figs, err)
	}
	if _, err := ParseFigures("273 ns, quick"); err == nil {
		t.Fatal("a cell with a bad second figure was accepted")
	}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		fig string
		now float64 // in the figure's metric unit
		ok  bool
	}{
		{"19 µs", 19_000, true},                        // equal
		{"19 µs", 28_500, true},                        // exactly 1.5×
		{"19 µs", 28_600, false},                       // just over 1.5×
		{"19 µs", 1_000, true},                         // much faster passes
		{"1,122 bytes per entity", 1122 * 1.25, true},  // +25%
		{"1,122 bytes per entity", 1122 * 1.26, false}, // over +25%
		{"1,122 bytes per entity", 1122 * 0.75, true},  // -25%
		{"1,122 bytes per entity", 1122 * 0.74, false}, // under -25%: sizes fail both ways
		{"0 allocations", 0, true},                     // zero is zero
		{"0 allocations", 1, false},                    // any allocation breaks zero
		{"55 allocs/op", 60, true},                     // within 25%
		{"55 allocs/op", 103, false},                   // the old benchmark's count
	}
	for _, tt := range tests {
		f, err := ParseFigure(tt.fig)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.Judge(tt.now); ok != tt.ok {
			t.Errorf("%q judging %g: ok %v, want %v", tt.fig, tt.now, ok, tt.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		fig  string
		now  float64
		want string
	}{
		{"19 µs", 18_734, "18.7 µs"},
		{"19 µs", 5_250, "5.25 µs"},
		{"94 µs", 373_000, "373 µs"},
		{"57 ns/op", 153.4, "153 ns/op"},
		{"1,122 bytes per entity", 1131.4, "1,131 bytes per entity"},
		{"0 allocations", 0, "0 allocations"},
		{"2 KiB", 4096, "4 KiB"},
		{"273 ns", 1_234_567, "1,234,567 ns"},
	}
	for _, tt := range tests {
		f, err := ParseFigure(tt.fig)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Format(tt.now); got != tt.want {
			t.Errorf("%q formatting %g = %q, want %q", tt.fig, tt.now, got, tt.want)
		}
	}
}
