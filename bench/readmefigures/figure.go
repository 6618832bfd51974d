package main

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Kind is what a figure measures, which decides how it is judged.
type Kind int

const (
	// Time is judged one way: a measurement over MaxSlower times the figure
	// fails, a faster one passes. So is a ratio of costs (×), as
	// "1.12× per floor": less is better.
	Time Kind = iota
	// Count is a size in bytes or a number of allocations: a measurement
	// off the figure by more than CountTolerance either way fails.
	Count
)

// MaxSlower is how many times a figure's time a measurement may take.
const MaxSlower = 1.5

// CountTolerance is how far, as a fraction of the figure, a measured size
// or allocation count may be from the figure.
const CountTolerance = 0.25

// Figure is one quantity of the Measured table, as "19 µs", "1,122 bytes
// per entity" or "0 allocations".
type Figure struct {
	Text string // as the page writes it
	// Metric is the unit the benchmark prints the quantity in: "ns/op",
	// "B/op", "allocs/op", or a custom metric such as "bytes/entity".
	Metric string
	Value  float64 // in Metric's unit
	Kind   Kind
	suffix string  // what follows the number: "µs", "bytes per entity"
	scale  float64 // Metric units per the page's unit
}

type unitDef struct {
	kind   Kind
	scale  float64 // nanoseconds, bytes or allocations per unit
	metric string  // benchmark unit before the "/": "ns", "bytes", "allocs"
}

// units are the units a figure may be written in (case-sensitive: KB is
// not kb).
var units = map[string]unitDef{
	"ns": {Time, 1, "ns"}, "µs": {Time, 1e3, "ns"}, "μs": {Time, 1e3, "ns"},
	"us": {Time, 1e3, "ns"}, "ms": {Time, 1e6, "ns"}, "s": {Time, 1e9, "ns"},
	"B": {Count, 1, "bytes"}, "byte": {Count, 1, "bytes"}, "bytes": {Count, 1, "bytes"},
	"KB": {Count, 1e3, "bytes"}, "KiB": {Count, 1 << 10, "bytes"},
	"MB": {Count, 1e6, "bytes"}, "MiB": {Count, 1 << 20, "bytes"},
	"GB": {Count, 1e9, "bytes"}, "GiB": {Count, 1 << 30, "bytes"},
	"allocation": {Count, 1, "allocs"}, "allocations": {Count, 1, "allocs"},
	"alloc": {Count, 1, "allocs"}, "allocs": {Count, 1, "allocs"},
	"×": {Time, 1, "×"}, // a ratio of costs, as bench/server-cpu.sh prints "1.12 ×/floor"
}

var (
	figureRE = regexp.MustCompile(`^([0-9][0-9,]*(?:\.[0-9]+)?)\s*([^\s/0-9.,][^\s/]*)(?:\s*/\s*(\S+)|\s+per\s+(\S+))?$`)
	numberRE = regexp.MustCompile(`^(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?$`)
)

// ParseFigures parses a cell of the table's figure column: one or more
// figures separated by ", " (a comma inside a number, as in 1,122, has no
// space after it).
func ParseFigures(cell string) ([]Figure, error) {
	var figs []Figure
	for _, part := range strings.Split(cell, ", ") {
		f, err := ParseFigure(part)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// ParseFigure parses one figure: a number (with thousands separated by
// commas or not), a unit from units, and optionally what it is per, as
// "/op" or " per entity" (op when absent).
func ParseFigure(s string) (Figure, error) {
	s = strings.TrimSpace(s)
	m := figureRE.FindStringSubmatch(s)
	if m == nil {
		return Figure{}, fmt.Errorf("figure %q: want a number and a unit, as \"19 µs\", \"1,122 bytes per entity\" or \"0 allocations\"", s)
	}
	if !numberRE.MatchString(m[1]) {
		return Figure{}, fmt.Errorf("figure %q: %q is not a number (thousands go in groups of three: 1,122)", s, m[1])
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return Figure{}, fmt.Errorf("figure %q: %v", s, err)
	}
	u, ok := units[m[2]]
	if !ok {
		return Figure{}, fmt.Errorf("figure %q: unknown unit %q (known: ns, µs, us, ms, s, B, bytes, KB, KiB, MB, MiB, GB, GiB, allocations, ×)", s, m[2])
	}
	per := m[3] + m[4]
	if per == "" {
		per = "op"
	}
	f := Figure{Text: s, Value: n * u.scale, Kind: u.kind, suffix: strings.TrimSpace(s[len(m[1]):]), scale: u.scale,
		Metric: u.metric + "/" + per}
	switch {
	case u.metric == "bytes" && per == "op":
		f.Metric = "B/op" // what -benchmem prints
	case u.metric == "allocs" && per != "op":
		return Figure{}, fmt.Errorf("figure %q: benchmarks count allocations per op only", s)
	case u.kind == Time && n == 0:
		return Figure{}, fmt.Errorf("figure %q: a time or a ratio of zero cannot be compared", s)
	}
	return f, nil
}

// Judge compares a measurement, in the figure's Metric unit, with the
// figure: its ratio to the figure (NaN for a figure of 0) and whether it
// passes.
func (f Figure) Judge(now float64) (ratio float64, ok bool) {
	if f.Value == 0 {
		return math.NaN(), now == 0
	}
	ratio = now / f.Value
	const eps = 1e-9 // a ratio printed as 1.50 passes
	if f.Kind == Time {
		return ratio, ratio <= MaxSlower+eps
	}
	return ratio, math.Abs(ratio-1) <= CountTolerance+eps
}

// Format writes a measurement, in the figure's Metric unit, in the page's
// unit with three significant digits (a whole count as it is): "18.7 µs",
// "1,131 bytes per entity", "0 allocations".
func (f Figure) Format(now float64) string {
	v := now / f.scale
	var num string
	switch {
	case v >= 1000:
		num = thousands(int64(math.Round(v)))
	case v >= 100 || (f.Kind == Count && v == math.Trunc(v)):
		num = strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		num = strconv.FormatFloat(v, 'f', 1, 64)
	default:
		num = strconv.FormatFloat(v, 'f', 2, 64)
	}
	return num + " " + f.suffix
}

// thousands writes n ≥ 0 with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
