package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// WriteCompare writes the side-by-side table of a comparison: one row per
// scheme with throughput, latency, throttling, partitions and a verdict.
func WriteCompare(w io.Writer, reps []*Report) error {
	if len(reps) == 0 {
		return nil
	}
	ew := &errWriter{w: w}
	r0 := reps[0]
	ew.printf("tablestress compare: %s on %s, %d scheme(s), seed %d, the same entity stream and workload\n", r0.Scenario, r0.Target.Kind, len(reps), r0.Run.Seed)
	if m := sharedModel(reps); m != "" {
		ew.printf("model: %s\n", m)
	}
	ew.printf("\n")
	tw := tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEME\tOPS/S\tENTITIES/S\tP50 MS\tP99 MS\tP99.9 MS\tTHROTTLED\tERRORS\tDROPPED\tPARTITIONS\tBUSIEST PEAK/S\tPAGES/QUERY\tVERDICT")
	for _, r := range reps {
		t := r.Totals
		peak, _ := r.ThresholdValue("max_partition_peak", "")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", runLabel(r, reps), rate(t.OpsPerSec), rate(t.EntitiesPerSec),
			ms(t.Latency.P50), ms(t.Latency.P99), ms(t.Latency.P999), pct(t.Throttled, t.Requests), num(t.Errors), num(t.Dropped),
			num(int64(len(r.Partitions))), fmt.Sprintf("%s/%s", rate(peak), rate(r.Run.PartitionTarget)), pagesPerQuery(r), SchemeVerdict(r))
	}
	tw.Flush()
	ew.printf("\nthrottled by code (share of requests):\n")
	for _, r := range reps {
		ew.printf("  %-14s %s\n", runLabel(r, reps), throttleCodes(r))
	}
	ew.printf("\nlatency by operation (p50 / p99 / p99.9 ms):\n")
	tw = tabwriter.NewWriter(ew, 0, 4, 2, ' ', 0)
	ops := map[string]bool{}
	for _, r := range reps {
		for op := range r.Operations {
			ops[op] = true
		}
	}
	var order []string
	for _, op := range operationOrder {
		if ops[op] {
			order = append(order, op)
		}
	}
	fmt.Fprint(tw, "SCHEME")
	for _, op := range order {
		fmt.Fprintf(tw, "\t%s", op)
	}
	fmt.Fprintln(tw)
	for _, r := range reps {
		fmt.Fprint(tw, runLabel(r, reps))
		for _, op := range order {
			s, ok := r.Operations[op]
			if !ok {
				fmt.Fprint(tw, "\t-")
				continue
			}
			fmt.Fprintf(tw, "\t%s / %s / %s", ms(s.Latency.P50), ms(s.Latency.P99), ms(s.Latency.P999))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, r := range reps {
		if len(r.Thresholds) == 0 {
			continue
		}
		failed := 0
		for _, t := range r.Thresholds {
			if !t.OK {
				failed++
			}
		}
		ew.printf("thresholds %s: %d of %d passed\n", r.Scheme, len(r.Thresholds)-failed, len(r.Thresholds))
	}
	return ew.err
}

// pagesPerQuery is the average number of pages a query operation read.
func pagesPerQuery(r *Report) string {
	var pages, ops int64
	for _, op := range []string{metrics.RangeQuery.String(), metrics.PartitionScan.String(), metrics.TableScan.String()} {
		if s, ok := r.Operations[op]; ok {
			pages += s.Pages
			ops += s.Ops
		}
	}
	if ops == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(pages)/float64(ops))
}

// throttleCodes lists the throttling answers of a run by share of requests.
func throttleCodes(r *Report) string {
	type kv struct {
		k string
		n int64
	}
	var codes []kv
	for k, n := range r.Totals.Status {
		if isThrottleKey(k) {
			codes = append(codes, kv{k, n})
		}
	}
	if len(codes) == 0 {
		return "none"
	}
	sort.Slice(codes, func(i, j int) bool {
		return codes[i].n > codes[j].n || (codes[i].n == codes[j].n && codes[i].k < codes[j].k)
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = c.k + " " + pct(c.n, r.Totals.Requests)
	}
	return strings.Join(parts, ", ")
}

// isThrottleKey reports whether a status key is a throttling answer.
func isThrottleKey(k string) bool {
	return strings.HasPrefix(k, "503") || strings.HasPrefix(k, "504") || strings.HasPrefix(k, "429") || k == "500 OperationTimedOut"
}
