package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// operationOrder is the order operations are listed in: metrics.Op's.
var operationOrder = func() []string {
	out := make([]string, metrics.NumOps)
	for op := range metrics.NumOps {
		out[op] = op.String()
	}
	return out
}()

// OperationOrder returns the operations present in m in report order.
func OperationOrder(m map[string]Stats) []string {
	var out []string
	for _, op := range operationOrder {
		if _, ok := m[op]; ok {
			out = append(out, op)
		}
	}
	var extra []string
	for op := range m {
		if !contains(operationOrder, op) {
			extra = append(extra, op)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Verdict is a one-line judgement of a run: which partitions went over the
// target and how much was throttled.
func Verdict(r *Report) string {
	if r.Totals.Counts.IsZero() {
		return "nothing was measured in " + secondsText(r.DurationS) + ": no operation completed, was dropped or sent a request"
	}
	var over []string
	for _, p := range HotPartitions(r) {
		over = append(over, displayKey(p.PartitionKey))
	}
	var parts []string
	if r.Totals.Requests > 0 && succeeded(r.Totals.Status) == 0 {
		parts = append(parts, "no request succeeded: "+statusLine(r.Totals.Status))
	}
	switch {
	case len(over) == 1:
		parts = append(parts, fmt.Sprintf("hot partition %s at or over %s", over[0], targetPhrase(r)))
	case len(over) > 1:
		parts = append(parts, fmt.Sprintf("%d hot partitions at or over %s", len(over), targetPhrase(r)))
	case judgedByUnits(r):
		parts = append(parts, "no partition at "+targetPhrase(r))
	default:
		parts = append(parts, fmt.Sprintf("no partition at the %s entities/s target", rate(r.Run.PartitionTarget)))
	}
	if u := unitsVerdict(r); u != "" {
		parts = append(parts, u)
	}
	if r.Totals.Throttled > 0 {
		parts = append(parts, fmt.Sprintf("%s of requests throttled", pct(r.Totals.Throttled, r.Totals.Requests)))
		if len(r.Partitions) > 0 {
			hot := r.Partitions[0]
			for _, p := range r.Partitions {
				if p.Throttled > hot.Throttled {
					hot = p
				}
			}
			if hot.Throttled > 0 {
				parts = append(parts, fmt.Sprintf("most in %s (%s)", displayKey(hot.PartitionKey), num(hot.Throttled)))
			}
		}
	} else {
		parts = append(parts, "no throttling")
	}
	if r.Totals.Errors > 0 {
		parts = append(parts, fmt.Sprintf("%s errors", num(r.Totals.Errors)))
	}
	parts = append(parts, failedVerdict(r)...)
	if r.Totals.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped", num(r.Totals.Dropped)))
	}
	return strings.Join(parts, "; ")
}

// succeeded counts the 2xx answers of a status map.
func succeeded(status map[string]int64) int64 {
	var n int64
	for k, v := range status {
		if strings.HasPrefix(k, "2") {
			n += v
		}
	}
	return n
}
