package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// TopPartitions is how many partitions the text summary lists.
const TopPartitions = 10

// WriteText writes the human summary of a run: what ran where, totals and
// operations, throttling by status, the busiest partitions with a verdict
// against the partition target, and the thresholds.
func WriteText(w io.Writer, r *Report) error {
	ew := &errWriter{w: w}
	ew.printf("tablestress: %s, scheme %s, on %s (%s)\n", r.Scenario, r.Scheme, r.Target.Kind, r.Target.Endpoint)
	if r.Model != "" {
		ew.printf("model: %s\n", r.Model)
	}
	if r.Seed.Entities > 0 {
		ew.printf("table %s: seeded %s entities (%s rows) in %s partitions in %.1fs\n", r.Table, num(r.Seed.Entities), num(r.Seed.Rows), num(int64(r.Seed.Partitions)), r.Seed.DurationS)
	} else {
		ew.printf("table %s\n", r.Table)
	}
	ew.printf("measured %.1fs from %s (warm-up %gs excluded), %s, retry %s, seed %d\n",
		r.DurationS, r.StartedAt.UTC().Format(time.RFC3339), r.Run.WarmupS, LoadShape(r.Run), r.Run.Retry, r.Run.Seed)
	for _, n := range r.Run.Notes {
		ew.printf("note: %s\n", n)
	}
	if r.MergedShards > 0 {
		ew.printf("merged from %d shard(s)", r.MergedShards)
		if len(r.MissingShards) > 0 {
			ew.printf("; PARTIAL: missing shard %s", strings.Join(r.MissingShards, ", "))
		}
		ew.printf("\n")
	}
	if r.Interrupted || r.Failure != "" {
		ew.printf("RUN DID NOT COMPLETE: %s\n", r.Failure)
	}
	for _, o := range r.Outages {
		ew.printf("TARGET DOWN from %.1fs to %.1fs of the run (%.1fs): %s\n", o.StartS, o.EndS, o.EndS-o.StartS, o.Cause)
	}
	if r.Aborted != "" {
		ew.printf("RUN ABORTED: %s\n", r.Aborted)
	}
	ew.printf("\n")
	tw := tabwriter.NewWriter(ew, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "OPERATION\tOPS\tOPS/S\tENTITIES/S\tREQUESTS\tTHROTTLED\tERRORS\tFAILED\tDROPPED\tRETRIES\tP50 MS\tP99 MS\tP99.9 MS\tMAX MS\t")
	row := func(name string, s Stats) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, num(s.Ops), rate(s.OpsPerSec), rate(s.EntitiesPerSec),
			num(s.Requests), num(s.Throttled), num(s.Errors), num(s.Failed), num(s.Dropped), num(s.Retries),
			ms(s.Latency.P50), ms(s.Latency.P99), ms(s.Latency.P999), ms(s.Latency.Max))
	}
	for _, op := range OperationOrder(r.Operations) {
		row(op, r.Operations[op])
	}
	row("total", r.Totals)
	tw.Flush()
	ew.printf("status: %s\n", statusLine(r.Totals.Status))
	ew.printf("throttled: %s of requests\n", pct(r.Totals.Throttled, r.Totals.Requests))

	n := min(len(r.Partitions), TopPartitions)
	ew.printf("\nbusiest %d of %s partitions (target %s entities/s per partition)\n", n, num(int64(len(r.Partitions))), rate(r.Run.PartitionTarget))
	tw = tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARTITION\tENTITIES\tENTITIES/S\tPEAK/S\tREQUESTS\tTHROTTLED\tERRORS\tP99 MS\tVERDICT")
	for _, p := range r.Partitions[:n] {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", displayKey(p.PartitionKey), num(p.Entities), rate(p.EntitiesPerSec), rate(p.PeakEntitiesPerSec),
			num(p.Requests), num(p.Throttled), num(p.Errors), ms(p.Latency.P99), partitionVerdict(p, r.Run.PartitionTarget))
	}
	tw.Flush()
	ew.printf("verdict: %s\n", Verdict(r))
	if v := r.Verify; v != nil {
		if v.OK() {
			ew.printf("verify: all %s acknowledged writes read back as written\n", num(v.Checked))
		} else {
			ew.printf("VERIFY FAILED: of %s acknowledged writes, %s missing, %s with another version, %s deleted but present, %s unreadable\n",
				num(v.Checked), num(v.Missing), num(v.Mismatched), num(v.Resurrected), num(v.Unreadable))
			for _, ex := range v.Examples {
				ew.printf("  %s\n", ex)
			}
		}
	}
	if len(r.Thresholds) > 0 {
		ew.printf("\nthresholds:\n")
		for _, t := range r.Thresholds {
			mark := "ok  "
			if !t.OK {
				mark = "FAIL"
			}
			if t.Missing != "" {
				ew.printf("  %s %s  (nothing observed: %s)\n", mark, t.Expr, t.Missing)
				continue
			}
			ew.printf("  %s %s  (observed %s%s)\n", mark, t.Expr, trimFloat(t.Observed), t.Unit)
		}
	}
	return ew.err
}

func partitionVerdict(p Partition, target float64) string {
	switch {
	case p.OverTarget && p.PeakEntitiesPerSec > target:
		return "OVER TARGET"
	case p.OverTarget:
		return "HOT: throttled at target"
	case p.Throttled > 0:
		return "throttled"
	case target > 0 && p.PeakEntitiesPerSec > 0.8*target:
		return "near target"
	}
	return "ok"
}

func trimFloat(f float64) string {
	if f == float64(int64(f)) {
		return num(int64(f))
	}
	return fmt.Sprintf("%.3g", f)
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

// LoadShape says how the run offered its load: "closed loop, 32 workers",
// "open loop at 800 ops/s, up to 32 workers", or the stages of a ramp,
// "open loop ramping 0 to 50 ops/s in 3s, then to 100 in 10s, up to 8
// workers".
func LoadShape(r RunInfo) string {
	switch {
	case r.Mode != "open":
		return fmt.Sprintf("closed loop, %d workers", r.Workers)
	case len(r.Stages) == 0:
		return fmt.Sprintf("open loop at %s ops/s, up to %d workers", rate(r.Rate), r.Workers)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "open loop ramping %s", rate(r.Rate))
	for i, st := range r.Stages {
		if i > 0 {
			b.WriteString(", then")
		}
		fmt.Fprintf(&b, " to %s ops/s in %gs", rate(st.Rate), st.DurationS)
	}
	fmt.Fprintf(&b, ", up to %d workers", r.Workers)
	return b.String()
}
