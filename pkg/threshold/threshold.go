// Package threshold parses and evaluates pass/fail conditions on a run, in
// the spirit of k6 thresholds but for tables:
//
//	p99(point_read) < 20ms         latency percentile of one operation (or of all)
//	throttle_rate < 1%             share of requests throttled
//	error_rate(insert) <= 0.5%     share of requests that failed otherwise
//	max_partition_peak < 2000      busiest partition's peak entities/s
//	partitions_over_target == 0    partitions whose peak exceeded the target
//	dropped == 0                   operations that could not start on time
//	ops_per_sec(batch) >= 100
//	p99(question:newest-by-device) < 50ms   one of the application's questions
//
// Latency metrics (p50 p90 p99 p999 max) compare in milliseconds and accept
// us, ms, s units; rate metrics (throttle_rate, error_rate, failed_rate)
// need a percentage (package percent's grammar); the rest are plain numbers.
package threshold

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/pkg/percent"
)

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("threshold: bad expression")

// Kind is how a metric's value is expressed.
type Kind int

// Metric kinds.
const (
	Latency Kind = iota // milliseconds
	Rate                // percent
	Count               // a plain number
)

// Metrics lists every metric with its kind and whether it takes an operation.
var Metrics = map[string]struct {
	Kind  Kind
	PerOp bool
}{
	"p50": {Latency, true}, "p90": {Latency, true}, "p99": {Latency, true}, "p999": {Latency, true}, "max": {Latency, true},
	"throttle_rate": {Rate, true}, "error_rate": {Rate, true}, "failed_rate": {Rate, true},
	"ops": {Count, true}, "requests": {Count, true}, "entities": {Count, true},
	"ops_per_sec": {Count, true}, "entities_per_sec": {Count, true},
	"throttled": {Count, true}, "errors": {Count, true}, "failed": {Count, true}, "dropped": {Count, true}, "retries": {Count, true},
	"max_partition_peak": {Count, false}, "partitions_over_target": {Count, false}, "partitions": {Count, false},
}

// Threshold is a parsed expression.
type Threshold struct {
	Expr   string
	Metric string
	Op     string // "" for the totals
	Cmp    string // < <= > >= == !=
	Value  float64
}

// Unit is the unit observed values are printed in.
func (t Threshold) Unit() string {
	switch Metrics[t.Metric].Kind {
	case Latency:
		return "ms"
	case Rate:
		return "%"
	}
	return ""
}

var comparators = []string{"<=", ">=", "==", "!=", "<", ">"}

// Parse parses one threshold expression. ops, when non-nil, lists the valid
// operation names.
func Parse(expr string, ops []string) (Threshold, error) {
	t := Threshold{Expr: strings.TrimSpace(expr)}
	bad := func(format string, a ...any) (Threshold, error) {
		return Threshold{}, fmt.Errorf("%w: %q: %s", ErrSyntax, t.Expr, fmt.Sprintf(format, a...))
	}
	lhs, cmp, rhs, ok := Split(t.Expr)
	t.Cmp = cmp
	if !ok {
		return bad("no comparison; write it like 'p99(point_read) < 20ms' (comparators: < <= > >= == !=)")
	}
	name, arg := lhs, ""
	if open := strings.IndexByte(lhs, '('); open >= 0 {
		if !strings.HasSuffix(lhs, ")") {
			return bad("missing ')' after the operation; write it like p99(point_read) < 20ms")
		}
		name, arg = strings.TrimSpace(lhs[:open]), strings.TrimSpace(lhs[open+1:len(lhs)-1])
	}
	m, ok := Metrics[name]
	if !ok {
		return bad("unknown metric %q; metrics are %s", name, metricNames())
	}
	if arg != "" {
		if !m.PerOp {
			return bad("%s applies to the whole run, not to one operation; write it without the operation, like %s %s %s", name, name, cmp, rhs)
		}
		if ops != nil && !contains(ops, arg) {
			return bad("unknown operation %q; operations are %s", arg, strings.Join(ops, ", "))
		}
	}
	t.Metric, t.Op = name, arg
	v, err := parseValue(rhs, m.Kind)
	if err != nil {
		return bad("%v", err)
	}
	t.Value = v
	return t, nil
}

// Split cuts an expression at its comparator: "p99(point_read) < 20ms" is
// ("p99(point_read)", "<", "20ms"), each side trimmed. It reads any
// expression the way Parse does, whatever its metric, and reports false
// when there is no comparator.
func Split(expr string) (lhs, cmp, rhs string, ok bool) {
	for _, c := range comparators {
		if i := strings.Index(expr, c); i >= 0 {
			return strings.TrimSpace(expr[:i]), c, strings.TrimSpace(expr[i+len(c):]), true
		}
	}
	return strings.TrimSpace(expr), "", "", false
}

// parseValue reads the right-hand side in the metric's unit.
func parseValue(s string, k Kind) (float64, error) {
	num := func(text string) (float64, error) {
		text = strings.TrimSpace(text)
		plain, err := dropThousands(text)
		if err != nil {
			return 0, err
		}
		v, err := strconv.ParseFloat(plain, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number; write one like 20ms, 1%% or 2000", text)
		}
		return v, nil
	}
	switch k {
	case Latency:
		for _, u := range []struct {
			suffix string
			mult   float64
		}{{"ms", 1}, {"us", 0.001}, {"µs", 0.001}, {"s", 1000}} {
			if strings.HasSuffix(s, u.suffix) {
				v, err := num(strings.TrimSuffix(s, u.suffix))
				return v * u.mult, err
			}
		}
		return 0, fmt.Errorf("a latency needs a unit: us, ms or s (like 20ms)")
	case Rate:
		v, err := percent.Parse(s)
		if err != nil {
			return 0, fmt.Errorf("a rate is a percentage: %s", percent.Reason(err))
		}
		return v, nil
	}
	s = strings.TrimSuffix(s, "/s")
	return num(s)
}

// thousands matches a number whose commas separate groups of three digits
// (2,000 or 12,500.5), the only commas a threshold's value may carry.
var thousands = regexp.MustCompile(`^[+-]?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$`)

// dropThousands removes the thousands separators of a number written with
// them ("2,000" is "2000"); a comma anywhere else ("1,5", a decimal comma)
// is an error naming the fix, never read as another number.
func dropThousands(text string) (string, error) {
	if !strings.Contains(text, ",") {
		return text, nil
	}
	if !thousands.MatchString(text) {
		return "", fmt.Errorf("%q: a comma only separates thousands (2,000); write a decimal point: %s", text, strings.ReplaceAll(text, ",", "."))
	}
	return strings.ReplaceAll(text, ",", ""), nil
}

// Source gives the observed value of a metric for the totals (op "") or an
// operation, or, when the run observed nothing the metric is made of,
// what is missing ("no point_read operation completed").
type Source interface {
	ThresholdValue(metric, op string) (value float64, missing string)
}

// Result is a threshold's verdict on a run.
type Result struct {
	Observed float64
	OK       bool
	// Missing says what the run did not observe; the threshold then fails,
	// whatever its comparison: a gate that passes on nothing is no gate.
	Missing string
}

// Eval compares the observed value with the threshold.
func (t Threshold) Eval(src Source) Result {
	v, missing := src.ThresholdValue(t.Metric, t.Op)
	if missing != "" {
		return Result{Observed: v, Missing: missing}
	}
	return Result{Observed: v, OK: compare(v, t.Cmp, t.Value)}
}

func compare(v float64, cmp string, bound float64) bool {
	switch cmp {
	case "<":
		return v < bound
	case "<=":
		return v <= bound
	case ">":
		return v > bound
	case ">=":
		return v >= bound
	case "==":
		return v == bound
	case "!=":
		return v != bound
	}
	return false
}

func metricNames() string {
	names := make([]string, 0, len(Metrics))
	for n := range Metrics {
		names = append(names, n)
	}
	sortStrings(names)
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
