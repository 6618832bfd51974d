package report

import (
	"fmt"
	"io"
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
	if r.Seed.Entities > 0 {
		ew.printf("table %s: seeded %s entities (%s rows) in %s partitions in %.1fs\n", r.Table, num(r.Seed.Entities), num(r.Seed.Rows), num(int64(r.Seed.Partitions)), r.Seed.DurationS)
	} else {
		ew.printf("table %s\n", r.Table)
	}
	mode := fmt.Sprintf("closed loop, %d workers", r.Run.Workers)
	if r.Run.Mode == "open" {
		mode = fmt.Sprintf("open loop at %s ops/s, up to %d workers", rate(r.Run.Rate), r.Run.Workers)
	}
	ew.printf("measured %.1fs from %s (warm-up %.0fs excluded), %s, retry %s, seed %d\n",
		r.DurationS, r.StartedAt.UTC().Format(time.RFC3339), r.Run.WarmupS, mode, r.Run.Retry, r.Run.Seed)
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
			ew.printf("  %s %s  (observed %s%s)\n", mark, t.Expr, trimFloat(t.Observed), t.Unit)
		}
	}
	return ew.err
}

func partitionVerdict(p Partition, target float64) string {
	switch {
	case p.OverTarget:
		return "OVER TARGET"
	case p.Throttled > 0 && p.PeakEntitiesPerSec >= 0.9*target:
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
