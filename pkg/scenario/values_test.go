package scenario

import (
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  string
	}{
		{"2000", 2000, ""},
		{"2000/s", 2000, ""},
		{" 120/m ", 2, ""},
		{"7200/h", 2, ""},
		{"0.5/s", 0.5, ""},
		{"fast", 0, "not a rate"},
		{"-3", 0, "not a rate"},
		{"10/d", 0, "unit must be"},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRate(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestSizeCountDuration(t *testing.T) {
	sizes := map[string]int64{"512": 512, "512B": 512, "1KiB": 1024, "1.5KiB": 1536, "4MiB": 4 << 20, "1KB": 1000, "2 MB": 2_000_000}
	for in, want := range sizes {
		var z Size
		if err := z.parseScalar(in); err != nil || int64(z) != want {
			t.Errorf("Size(%q) = %d, %v; want %d", in, z, err, want)
		}
	}
	for _, bad := range []string{"big", "-1KiB", "1XB"} {
		var z Size
		if err := z.parseScalar(bad); err == nil {
			t.Errorf("Size(%q) accepted", bad)
		}
	}
	counts := map[string]int64{"20000": 20000, "20k": 20000, "1M": 1_000_000, "1_000_000": 1_000_000, "2.5k": 2500}
	for in, want := range counts {
		var c Count
		if err := c.parseScalar(in); err != nil || int64(c) != want {
			t.Errorf("Count(%q) = %d, %v; want %d", in, c, err, want)
		}
	}
	for _, bad := range []string{"1.5", "many", "-5", "1.0001k"} {
		var c Count
		if err := c.parseScalar(bad); err == nil {
			t.Errorf("Count(%q) accepted", bad)
		}
	}
	var d Duration
	if err := d.parseScalar("1m30s"); err != nil || d.D() != 90*time.Second {
		t.Errorf("Duration(1m30s) = %v, %v", d.D(), err)
	}
	for _, bad := range []string{"30", "-1s", "soon"} {
		if err := d.parseScalar(bad); err == nil {
			t.Errorf("Duration(%q) accepted", bad)
		}
	}
}

func TestParseRetry(t *testing.T) {
	tests := []struct {
		in   string
		want Retry
		err  string
	}{
		{"none", Retry{Kind: "none"}, ""},
		{"fixed(200ms, 3)", Retry{Kind: "fixed", Delay: 200 * time.Millisecond, Retries: 3}, ""},
		{"exponential(30s,3s,90s,5)", Retry{Kind: "exponential", Delay: 30 * time.Second, Min: 3 * time.Second, Max: 90 * time.Second, Retries: 5}, ""}, // the example of the partitioning guide's "Retry strategy"
		{"fixed(200ms)", Retry{}, "fixed takes a delay and a count"},
		{"exponential(1s,5s,2s,3)", Retry{}, "min backoff is above max"},
		{"fixed(soon,3)", Retry{}, `"soon" is not a duration`},
		{"fixed(1s,-1)", Retry{}, "not a retry count"},
		{"linear(1s,3)", Retry{}, `unknown strategy "linear"`},
		{"fixed", Retry{}, "expected name(arguments)"},
		{"", Retry{Kind: "none"}, ""},
		{" exponential ( 1s, 0s, 1s, 0 ) ", Retry{Kind: "exponential", Delay: time.Second, Max: time.Second}, ""},
		{"exponential(1s,2s,3)", Retry{}, `"exponential(1s,2s,3)" is not a retry strategy (exponential takes default, min and max backoffs and a count); use ` + RetryForms},
		{"exponential(1s,-2s,3s,1)", Retry{}, `"exponential(1s,-2s,3s,1)" is not a retry strategy ("-2s" is not a duration); use `},
		{"exponential(1s,2s,3s,x)", Retry{}, `("x" is not a retry count between 0 and 1000)`},
		{"fixed(1s,1001)", Retry{}, `"1001" is not a retry count between 0 and 1000`},
		{"fixed(1s,1000)", Retry{Kind: "fixed", Delay: time.Second, Retries: 1000}, ""},
	}
	for _, tt := range tests {
		got, err := ParseRetry(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRetry(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseRetry(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if again, err := ParseRetry(got.String()); err != nil || again != got {
			t.Errorf("%s does not round-trip", got)
		}
	}
}
