package faults

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		spec string
		want Config
	}{
		{"", Config{}},     // nothing
		{"none", Config{}}, // nothing, spelled out
		{"503=2%,500=1%,504=0.5%,429=1%", Config{Status: map[int]float64{503: 0.02, 500: 0.01, 504: 0.005, 429: 0.01}}},
		{"503=0.02", Config{Status: map[int]float64{503: 0.02}}},                       // a fraction
		{" 503 = 2% , seed = 7 ", Config{Status: map[int]float64{503: 0.02}, Seed: 7}}, // spaces
		{"latency=5ms", Config{Latency: []Latency{{5 * ms, 5 * ms, 1}}}},               // all requests
		{"latency=1ms..20ms@10%", Config{Latency: []Latency{{ms, 20 * ms, 0.1}}}},
		{"latency=5ms,latency=1ms..20ms@10%", Config{Latency: []Latency{{5 * ms, 5 * ms, 1}, {ms, 20 * ms, 0.1}}}}, // rules add up
		{"drop=0.1%,discard=0.1%", Config{Drop: 0.001, Discard: 0.001}},
		{"partitions=a|b", Config{Partitions: []string{"a", "b"}}},
		{"503=60%,drop=40%", Config{Status: map[int]float64{503: 0.6}, Drop: 0.4}}, // exactly 100%
		{"503=2%,500=1%,504=0.5%,429=1%,latency=5ms,latency=1ms..20ms@10%,drop=0.1%,discard=0.1%,partitions=a|b,seed=7", Config{
			Status: map[int]float64{503: 0.02, 500: 0.01, 504: 0.005, 429: 0.01}, Latency: []Latency{{5 * ms, 5 * ms, 1}, {ms, 20 * ms, 0.1}},
			Drop: 0.001, Discard: 0.001, Partitions: []string{"a", "b"}, Seed: 7}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.spec)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.spec, got, err, tt.want)
			continue
		}
		again, err := Parse(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("Parse(%q).String() = %q parses to %+v, %v", tt.spec, got.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"503=abc", `faults: "503=abc": share must be a percentage like 2% or a fraction like 0.02`},
		{"503=150%", "share must be a percentage"},
		{"503=-1%", "share must be a percentage"},
		{"503=2", "share must be a percentage"}, // 200% as a fraction
		{"drop=NaN", "share must be a percentage"},
		{"503", `"503": not key=value`},
		{"418=1%", `unknown key "418"; keys are 429, 500, 503, 504, latency, drop, discard, partitions, seed`},
		{"latency=fast", "latency must be a duration like 5ms or a range like 1ms..20ms"},
		{"latency=-5ms", "latency must be a duration"},
		{"latency=11m", "each at most 10m"},
		{"latency=5ms..1ms", "the upper bound not below the lower"},
		{"latency=5ms@lots", "the latency share must be a percentage"},
		{"503=60%,500=50%", "status answers and drops add up to 110%, more than 100%"},
		{"drop=60%,429=41%", "more than 100%"},
		{"partitions=", "name one or more PartitionKeys"},
		{"partitions=a||b", "name one or more PartitionKeys"},
		{"seed=-1", "seed must be a whole number"},
		{"503=1%,503=2%", "503 is given twice"},
		{"503=1%,,seed=1", "empty item between commas"},
		{"none,503=1%", `"none": not key=value`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.spec)
		var se *SpecError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrSpec) || !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want an ErrSpec saying %q", tt.spec, err, tt.want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		c    Config
		want string
	}{
		{Config{}, "none"},
		{Config{Status: map[int]float64{504: 0.005, 429: 0.07, 503: 0.02}}, "429=7%,503=2%,504=0.5%"}, // by code; 7%, not 7.000000000000001%
		{Config{Latency: []Latency{{Min: time.Millisecond, Max: 1500 * time.Microsecond, Share: 0.5}}}, "latency=1ms..1.5ms@50%"},
		{Config{Drop: 1e-5, Partitions: []string{"x"}, Seed: 9}, "drop=0.001%,partitions=x,seed=9"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"503=2%,latency=5ms,drop=0.1%", "partitions=a|b,seed=1", "latency=1ms..20ms@10%,latency=3ms",
		"429=0.07,500=1e-3,discard=1", "none", "latency=1.000000001s@33.3%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := Parse(spec)
		if err != nil {
			if !errors.Is(err, ErrSpec) {
				t.Fatalf("%q: error %v does not wrap ErrSpec", spec, err)
			}
			return
		}
		again, err := Parse(c.String())
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("%q: %q parses back to %+v (%v), want %+v", spec, c.String(), again, err, c)
		}
		in := New(c)
		for range 10 {
			if f := in.Decide("a", true); f.Delay < 0 || f.Delay > maxLatency*time.Duration(len(c.Latency)) {
				t.Fatalf("%q: delay %v", spec, f.Delay)
			}
		}
	})
}
