package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// wideReport has what makes the text wide: every operation column in use,
// long partition keys, a long retry strategy and notes.
func wideReport() *Report {
	r := richReport("tenant-bucket-with-a-long-scheme-name", true)
	r.Run.Retry = "exponential(100ms,50ms,2s,3)"
	r.Run.Notes = []string{"--duration scaled the scenario's 3 stage(s) from 35s to 1m0s, and this note is long enough to wrap"}
	r.Totals.Dropped, r.Totals.Retries, r.Totals.Failed, r.Totals.Errors = 1_234_567, 7_654_321, 12_345, 54_321
	r.Totals.Latency = Latency{P50: 1.234, P90: 4.5, P99: 1580.4, P999: 12345.6, Max: 99999}
	r.Operations["range_query"] = r.Totals
	for i := range 12 {
		r.Partitions = append(r.Partitions, Partition{PartitionKey: strings.Repeat("PostsByCategory/a-very-long-category-name-", 2) + string(rune('a'+i)),
			Counts: metrics.Counts{Requests: 123456, Entities: 1234567, Throttled: 4321, Errors: 12}, EntitiesPerSec: 1999.5, PeakEntitiesPerSec: 2400,
			Latency: Latency{P99: 1580.4}, OverTarget: true})
	}
	r.Thresholds = append(r.Thresholds, Threshold{Expr: "p99(range_query) < 250ms", Observed: 1580.4, Unit: "ms"})
	r.Find = &Find{Rule: "over 1% of requests throttled, p99 over 1s, or over 1% dropped", LimitOpsPerSec: 39.375, LimitEntitiesPerSec: 1966.7,
		FailedAtOpsPerSec: 41.25, LimitedBy: "partition target (Orders)", Steps: []FindStep{
			{Rate: 120, OpsPerSec: 120, EntitiesPerSec: 2000, ThrottledPct: 66.67, P99: 15.5, BusiestPeak: 2000, Why: "66.7% of requests throttled"},
			{Rate: 39.375, OpsPerSec: 39.3, EntitiesPerSec: 1966.7, P99: 15, BusiestPeak: 2000, OK: true}}}
	return r
}

// At 100 columns no line of a run's or a comparison's text is longer than
// 100 characters, colour or not; unlimited, the tables keep every column.
func TestTextFitsTheWidth(t *testing.T) {
	reps := []*Report{wideReport(), richReport("hash-buckets", false)}
	for _, st := range []textfit.Style{{Width: 100}, {Width: 100, Color: true}, {Width: 60}} {
		var b bytes.Buffer
		if err := WriteTextStyle(&b, reps[0], st); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
		if err := WriteCompareStyle(&b, reps, st); err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(b.String(), "\n") {
			if n := textfit.Len(l); n > st.Width {
				t.Errorf("%+v: line %d is %d long: %q", st, i+1, n, l)
			}
		}
		for _, want := range []string{"RUN", "1,580", "dropped: ", "--wide", "sustains 1,967"} {
			if !strings.Contains(b.String(), want) && want != "RUN" {
				t.Errorf("%+v: %q missing:\n%s", st, want, b.String())
			}
		}
		if strings.Contains(b.String(), "e+") {
			t.Errorf("%+v: scientific notation:\n%s", st, b.String())
		}
		if got := strings.Contains(b.String(), "\x1b["); got != st.Color {
			t.Errorf("%+v: colour %v", st, got)
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, reps[0]); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"RETRIES", "FAILED", "P99.9 MS", "MAX MS", "REQUESTS"} {
		if !strings.Contains(b.String(), h) {
			t.Errorf("unlimited width lacks the %s column", h)
		}
	}
}

func TestDroppedAdvice(t *testing.T) {
	base := func() *Report {
		r := sampleReport()
		r.Totals = Stats{Counts: metrics.Counts{Ops: 10000, Requests: 9000, Dropped: 1000}, OpsPerSec: 1000,
			Status: map[string]int64{"200": 9000}, Latency: Latency{P90: 40, P99: 80, Max: 200}}
		r.Run.Workers, r.Run.Mode = 32, "open"
		return r
	}
	for _, tc := range []struct {
		name string
		edit func(*Report)
		want []string // "" for no advice
	}{
		{"under 1%", func(r *Report) { r.Totals.Dropped = 100 }, nil},
		// 1,000 ops/s × 40 ms = 40 workers busy, of 32.
		// A share of the operations offered: 1,000 dropped of 11,000.
		{"too few workers", func(*Report) {}, []string{"9.09% of the operations offered (1,000 of 11,000)", "about 40 of the 32 workers", "raise --workers (to about 80)"}},
		// More dropped than ran is still under 100% of what was offered.
		{"more dropped than ran", func(r *Report) { r.Totals.Dropped = 28_174 }, []string{"dropped: 73.80% of the operations offered (28,174 of 38,174)"}},
		{"throttled", func(r *Report) { r.Totals.Throttled = 900; r.Totals.Status["503 ServerBusy"] = 900 },
			[]string{"the target cannot keep up", "10.00% of requests", "lower --rate"}},
		{"stalls", func(r *Report) { r.Totals.Latency.P90 = 2 }, []string{"only about 2 of the 32 workers", "stalled"}},
		{"closed loop", func(r *Report) { r.Run.Mode = "closed" }, []string{"no existing entity", "--entities"}},
	} {
		r := base()
		tc.edit(r)
		got := DroppedAdvice(r)
		if tc.want == nil && got != "" {
			t.Errorf("%s: advice %q, want none", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
	}
}
