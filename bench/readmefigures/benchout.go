package main

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Result is one result line of `go test -bench` output.
type Result struct {
	Name    string // without the -GOMAXPROCS suffix
	Metrics map[string]float64
}

var (
	// nameRE is the start of a benchmark's line: its name, then a tab.
	nameRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-[0-9]+)?\s+(.*)$`)
	// resultRE is the rest of a result line: iterations, then value-unit pairs.
	resultRE = regexp.MustCompile(`^[0-9]+\s+[0-9]`)
)

// ParseResults returns the benchmark results of go test's output. A
// benchmark that prints while it runs splits its line: the name comes
// first, the iterations and metrics on a later line.
func ParseResults(out string) []Result {
	var res []Result
	pending := ""
	for _, line := range strings.Split(out, "\n") {
		rest := strings.TrimSpace(line)
		if m := nameRE.FindStringSubmatch(line); m != nil {
			pending, rest = m[1], m[2]
		}
		if pending == "" || !resultRE.MatchString(rest) {
			continue
		}
		f := strings.Fields(rest)
		r := Result{Name: pending, Metrics: map[string]float64{}}
		for k := 1; k+1 < len(f); k += 2 {
			v, err := strconv.ParseFloat(f[k], 64)
			if err != nil {
				break
			}
			r.Metrics[f[k+1]] = v
		}
		res = append(res, r)
		pending = ""
	}
	return res
}

// Measure returns the median of a metric over results that must all be of
// one benchmark (a row's command runs one; with -count or several runs, it
// prints it more than once).
func Measure(res []Result, metric string) (float64, error) {
	if len(res) == 0 {
		return 0, fmt.Errorf("the command printed no benchmark result")
	}
	var vals []float64
	units := map[string]bool{}
	for _, r := range res {
		if r.Name != res[0].Name {
			return 0, fmt.Errorf("the command ran %s and %s: make its -bench pattern match one benchmark, as '^%s$'", res[0].Name, r.Name, res[0].Name)
		}
		v, ok := r.Metrics[metric]
		if !ok {
			for u := range r.Metrics {
				units[u] = true
			}
			continue
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		printed := strings.Join(slices.Sorted(maps.Keys(units)), ", ")
		return 0, fmt.Errorf("%s printed no %s (it printed %s)", res[0].Name, metric, printed)
	}
	if len(vals) < len(res) {
		return 0, fmt.Errorf("%s printed %s in %d of its %d results", res[0].Name, metric, len(vals), len(res))
	}
	slices.Sort(vals)
	n := len(vals)
	if n%2 == 1 {
		return vals[n/2], nil
	}
	return (vals[n/2-1] + vals[n/2]) / 2, nil
}
