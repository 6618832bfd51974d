package faults

import (
	"math"
	"strings"
	"testing"
	"time"
)

func within(t *testing.T, name string, got, n int, p float64) {
	t.Helper()
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(got)-p*float64(n)) > 5*sd+1 {
		t.Errorf("%s: %d of %d, want %.0f ± %.0f", name, got, n, p*float64(n), 5*sd)
	}
}

func TestSharesAndDeterminism(t *testing.T) {
	cfg, err := Parse("503=2%,500=1%,504=0.5%,429=1%,latency=1ms..3ms@10%,drop=0.1%,discard=1%,seed=7")
	if err != nil {
		t.Fatal(err)
	}
	in := New(cfg)
	const n = 100_000
	count := map[int]int{}
	var delayed, drops, discards int
	var seq []Fault
	for i := 0; i < n; i++ {
		f := in.Decide("p", i%2 == 0)
		if i < 100 {
			seq = append(seq, f)
		}
		count[f.Status]++
		if f.Delay > 0 {
			delayed++
			if f.Delay < time.Millisecond || f.Delay > 3*time.Millisecond {
				t.Fatalf("delay %v outside 1ms..3ms", f.Delay)
			}
		}
		if f.Drop {
			drops++
		}
		if f.Discard {
			discards++
			if i%2 != 0 {
				t.Fatal("a read was discarded")
			}
		}
		if f.Status == 503 && f.Code != "ServerBusy" || f.Status == 500 && f.Code != "OperationTimedOut" || f.Status == 429 && !strings.Contains(f.Message, "Request rate is large") {
			t.Fatalf("bad answer %+v", f)
		}
	}
	within(t, "503", count[503], n, 0.02)
	within(t, "500", count[500], n, 0.01)
	within(t, "504", count[504], n, 0.005)
	within(t, "429", count[429], n, 0.01)
	within(t, "delayed", delayed, n, 0.1)
	within(t, "dropped", drops, n, 0.001)
	within(t, "discarded", discards, n/2, 0.01*(1-0.0455)) // writes that got no other fault
	c := in.Counts()
	if c.Decisions != n || c.Status != int64(count[503]+count[500]+count[504]+count[429]) || c.Dropped != int64(drops) || c.Discarded != int64(discards) {
		t.Errorf("counts %+v", c)
	}
	again := New(cfg)
	for i, want := range seq {
		if got := again.Decide("p", i%2 == 0); got != want {
			t.Fatalf("decision %d differs with the same seed: %+v vs %+v", i, got, want)
		}
	}
}

func TestPartitionFilter(t *testing.T) {
	cfg, _ := Parse("503=100%,partitions=hot|warm")
	in := New(cfg)
	if f := in.Decide("hot", false); f.Status != 503 {
		t.Errorf("hot: %+v", f)
	}
	if f := in.Decide("cold", false); f != (Fault{}) {
		t.Errorf("cold: %+v", f)
	}
	if (&Injector{}).Active() || New(Config{}).Decide("x", true) != (Fault{}) {
		t.Error("a zero config must inject nothing")
	}
}

func TestParseErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"503=abc":          "a share must be a percentage",
		"503":              "is not key=value",
		"418=1%":           "unknown key",
		"latency=fast":     "latency must be a duration",
		"latency=5ms..1ms": "upper bound not below",
		"503=60%,500=50%":  "more than 100%",
		"partitions=":      "name at least one",
		"seed=-1":          "seed must be a whole number",
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", spec, err, want)
		}
	}
	c, err := Parse("503=2%,latency=1ms..2ms@50%,drop=0.5%,partitions=a|b,seed=3")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(c.String())
	if err != nil || again.String() != c.String() {
		t.Errorf("round trip %q -> %q (%v)", c, again, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("503=2%,latency=5ms,drop=0.1%")
	f.Add("partitions=a|b,seed=1")
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := Parse(spec)
		if err != nil {
			return
		}
		again, err := Parse(c.String())
		if err != nil || again.String() != c.String() {
			t.Fatalf("%q: round trip %q (%v)", spec, c.String(), err)
		}
		New(c).Decide("a", true)
	})
}
