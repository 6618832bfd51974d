package threshold

import (
	"errors"
	"strings"
	"testing"
)

var ops = []string{"point_read", "insert", "batch"}

func TestParse(t *testing.T) {
	tests := []struct {
		expr string
		want Threshold
	}{
		{"p99(point_read) < 20ms", Threshold{Metric: "p99", Op: "point_read", Cmp: "<", Value: 20}},
		{"p999 <= 1.5s", Threshold{Metric: "p999", Cmp: "<=", Value: 1500}},                 // seconds to ms
		{"max(insert)<500us", Threshold{Metric: "max", Op: "insert", Cmp: "<", Value: 0.5}}, // no spaces
		{"throttle_rate < 1%", Threshold{Metric: "throttle_rate", Cmp: "<", Value: 1}},
		{"error_rate(batch) == 0%", Threshold{Metric: "error_rate", Op: "batch", Cmp: "==", Value: 0}},
		{"throttle_rate < 0.5 %", Threshold{Metric: "throttle_rate", Cmp: "<", Value: 0.5}},
		{"max_partition_peak < 2,000", Threshold{Metric: "max_partition_peak", Cmp: "<", Value: 2000}},
		{"max_partition_peak < 1,234,567.5", Threshold{Metric: "max_partition_peak", Cmp: "<", Value: 1234567.5}},
		{"dropped == 0", Threshold{Metric: "dropped", Cmp: "==", Value: 0}},
		{"ops_per_sec(batch) >= 100/s", Threshold{Metric: "ops_per_sec", Op: "batch", Cmp: ">=", Value: 100}},
		{"partitions_over_target != 3", Threshold{Metric: "partitions_over_target", Cmp: "!=", Value: 3}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.expr, ops)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.expr, err)
			continue
		}
		tt.want.Expr = tt.expr
		if got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.expr, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"p99(point_read) 20ms", "no comparison"},
		{"p98 < 3ms", `unknown metric "p98"`},
		{"p99(scan) < 3ms", `unknown operation "scan"`},
		{"p99(point_read < 3ms", "missing ')'"},
		{"p99 < 20", "a latency needs a unit"},
		{"throttle_rate < 0.01", `a rate is a percentage: 0.01 needs a % sign: 0.01%, or 1% if it is a fraction of the whole`},
		{"throttle_rate < 1,5%", `a rate is a percentage: "1,5%" has a comma`}, // never 15%
		{"max_partition_peak(insert) < 3", "applies to the whole run"},
		{"dropped == none", `"none" is not a number`},
		{"p99 < 1,5ms", `"1,5": a comma only separates thousands (2,000); write a decimal point: 1.5`}, // never 15 ms
		{"max_partition_peak < 20,00", `"20,00": a comma only separates thousands`},                    // never 2000
		{"max_partition_peak < 2,000,0", `a comma only separates thousands`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.expr, ops)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %v, want %q", tt.expr, err, tt.want)
		}
	}
}

type fake map[string]float64

func (f fake) ThresholdValue(metric, op string) (float64, string) {
	v, ok := f[metric+"/"+op]
	if !ok {
		return 0, "nothing of " + metric + "(" + op + ")"
	}
	return v, ""
}

func TestEval(t *testing.T) {
	src := fake{"p99/point_read": 19.9, "throttle_rate/": 1, "dropped/": 0}
	tests := []struct {
		expr     string
		observed float64
		pass     bool
	}{
		{"p99(point_read) < 20ms", 19.9, true},
		{"p99(point_read) < 19ms", 19.9, false},
		{"throttle_rate < 1%", 1, false}, // the bound is exclusive
		{"throttle_rate <= 1%", 1, true},
		{"dropped == 0", 0, true},
		{"p99(insert) < 1ms", 0, false}, // nothing observed fails, whatever the comparison
		{"p99(insert) > 1ms", 0, false},
	}
	for _, tt := range tests {
		th, err := Parse(tt.expr, ops)
		if err != nil {
			t.Fatal(err)
		}
		res := th.Eval(src)
		if res.Observed != tt.observed || res.OK != tt.pass || (res.Missing != "") != (tt.expr[:11] == "p99(insert)") {
			t.Errorf("%s: %+v, want observed %v pass %v", tt.expr, res, tt.observed, tt.pass)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"p99(point_read) < 20ms", "throttle_rate < 1%", "dropped == 0", "(<", "max(>=)<=1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := Parse(expr, ops)
		if err != nil {
			return
		}
		if _, ok := Metrics[th.Metric]; !ok {
			t.Fatalf("accepted unknown metric %q", th.Metric)
		}
		th.Eval(fake{})
	})
}

// Split cuts any expression at its comparator, as Parse does, whatever the
// metric: the JUnit report takes a failed threshold's bound from it.
func TestSplit(t *testing.T) {
	for _, c := range []struct{ expr, lhs, cmp, rhs string }{
		{"p99(point_read) < 20ms", "p99(point_read)", "<", "20ms"},
		{" throttle_rate<=1% ", "throttle_rate", "<=", "1%"},
		{"p99(question:newest-for-device) >= 5ms", "p99(question:newest-for-device)", ">=", "5ms"},
		{"dropped != 0", "dropped", "!=", "0"},
		{"partitions == 3", "partitions", "==", "3"},
		{"ops > 10", "ops", ">", "10"},
	} {
		lhs, cmp, rhs, ok := Split(c.expr)
		if !ok || lhs != c.lhs || cmp != c.cmp || rhs != c.rhs {
			t.Errorf("Split(%q) = %q %q %q %v", c.expr, lhs, cmp, rhs, ok)
		}
	}
	if _, _, _, ok := Split("p99 20ms"); ok {
		t.Error("an expression without a comparator splits")
	}
}
