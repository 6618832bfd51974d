package report

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/threshold"
)

var _ threshold.Source = (*Report)(nil)

// ThresholdValue implements threshold.Source: the observed value of a metric
// for the totals (op "") or one operation, or what the run did not observe
// for it to have a value: a latency or failed_rate needs a completed
// operation, a request share a request, a count a measured window with
// anything in it, a partition peak a partition.
func (r *Report) ThresholdValue(metric, op string) (float64, string) {
	s, ran := r.Totals, true
	of := "" // "point_read " for one operation
	if name, ok := strings.CutPrefix(op, "question:"); ok {
		var q Question
		q, ran = r.Questions[name]
		s, of = q.Stats, "question "+name+" "
		ran = ran && !q.Counts.IsZero()
	} else if op != "" {
		s, ran = r.Operations[op]
		of = op + " "
	}
	measured := r.DurationS > 0 && !r.Totals.Counts.IsZero()
	noOps := fmt.Sprintf("no %soperation completed in the measured %s", of, secondsText(r.DurationS))
	noRequests := fmt.Sprintf("no %srequest was sent in the measured %s", of, secondsText(r.DurationS))
	if !measured {
		return 0, fmt.Sprintf("the run measured nothing (%s, %s operations)", secondsText(r.DurationS), num(r.Totals.Ops))
	}
	nothing := ""
	if !ran {
		nothing = fmt.Sprintf("no %soperation ran in the measured %s", of, secondsText(r.DurationS))
		noOps, noRequests = nothing, nothing
	}
	needOps := func(v float64) (float64, string) {
		if s.Ops == 0 {
			return v, noOps
		}
		return v, ""
	}
	needRequests := func(n int64) (float64, string) {
		if s.Requests == 0 {
			return 0, noRequests
		}
		return 100 * float64(n) / float64(s.Requests), ""
	}
	count := func(v float64) (float64, string) { return v, nothing }
	switch metric {
	case "p50":
		return needOps(s.Latency.P50)
	case "p90":
		return needOps(s.Latency.P90)
	case "p99":
		return needOps(s.Latency.P99)
	case "p999":
		return needOps(s.Latency.P999)
	case "max":
		return needOps(s.Latency.Max)
	case "throttle_rate":
		return needRequests(s.Throttled)
	case "error_rate":
		return needRequests(s.Errors)
	case "failed_rate":
		if s.Ops == 0 {
			return 0, noOps
		}
		return 100 * float64(s.Failed) / float64(s.Ops), ""
	case "ops":
		return count(float64(s.Ops))
	case "requests":
		return count(float64(s.Requests))
	case "entities":
		return count(float64(s.Entities))
	case "ops_per_sec":
		return count(s.OpsPerSec)
	case "entities_per_sec":
		return count(s.EntitiesPerSec)
	case "throttled":
		return count(float64(s.Throttled))
	case "errors":
		return count(float64(s.Errors))
	case "failed":
		return count(float64(s.Failed))
	case "dropped":
		return count(float64(s.Dropped))
	case "retries":
		return count(float64(s.Retries))
	case "max_partition_peak":
		peak, any := 0.0, false
		for _, p := range r.Partitions {
			if p.PartitionKey != "*" && p.Requests > 0 {
				peak, any = max(peak, p.PeakEntitiesPerSec), true
			}
		}
		if !any {
			return 0, "no request addressed a single partition in the measured " + secondsText(r.DurationS)
		}
		return peak, ""
	case "partitions_over_target":
		return count(float64(len(HotPartitions(r))))
	case "partitions":
		return count(float64(len(r.Partitions)))
	}
	return 0, "unknown metric " + metric
}

func secondsText(s float64) string { return fmt.Sprintf("%.1f s", s) }

// EvaluateThresholds fills r.Thresholds from the expressions and reports
// whether all passed. Expressions were validated with the scenario.
func (r *Report) EvaluateThresholds(exprs []string) (bool, error) {
	r.Thresholds = r.Thresholds[:0]
	all := true
	for _, e := range exprs {
		t, err := threshold.Parse(e, nil)
		if err != nil {
			return false, err
		}
		res := t.Eval(r)
		r.Thresholds = append(r.Thresholds, Threshold{Expr: t.Expr, OK: res.OK, Observed: res.Observed, Unit: t.Unit(), Missing: res.Missing})
		all = all && res.OK
	}
	return all, nil
}
