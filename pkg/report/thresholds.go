package report

import (
	"github.com/tablestress/tablestress/pkg/threshold"
)

var _ threshold.Source = (*Report)(nil)

// ThresholdValue implements threshold.Source: the observed value of a metric
// for the totals (op "") or one operation.
func (r *Report) ThresholdValue(metric, op string) (float64, bool) {
	s, ok := r.Totals, true
	if op != "" {
		s, ok = r.Operations[op]
	}
	rateOf := func(n, d int64) float64 {
		if d == 0 {
			return 0
		}
		return 100 * float64(n) / float64(d)
	}
	switch metric {
	case "p50":
		return s.Latency.P50, ok
	case "p90":
		return s.Latency.P90, ok
	case "p99":
		return s.Latency.P99, ok
	case "p999":
		return s.Latency.P999, ok
	case "max":
		return s.Latency.Max, ok
	case "throttle_rate":
		return rateOf(s.Throttled, s.Requests), ok
	case "error_rate":
		return rateOf(s.Errors, s.Requests), ok
	case "failed_rate":
		return rateOf(s.Failed, s.Ops), ok
	case "ops":
		return float64(s.Ops), ok
	case "requests":
		return float64(s.Requests), ok
	case "entities":
		return float64(s.Entities), ok
	case "ops_per_sec":
		return s.OpsPerSec, ok
	case "entities_per_sec":
		return s.EntitiesPerSec, ok
	case "throttled":
		return float64(s.Throttled), ok
	case "errors":
		return float64(s.Errors), ok
	case "failed":
		return float64(s.Failed), ok
	case "dropped":
		return float64(s.Dropped), ok
	case "retries":
		return float64(s.Retries), ok
	case "max_partition_peak":
		peak := 0.0
		for _, p := range r.Partitions {
			if p.PartitionKey != "*" && p.PeakEntitiesPerSec > peak {
				peak = p.PeakEntitiesPerSec
			}
		}
		return peak, true
	case "partitions_over_target":
		n := 0
		for _, p := range r.Partitions {
			if p.OverTarget {
				n++
			}
		}
		return float64(n), true
	case "partitions":
		return float64(len(r.Partitions)), true
	}
	return 0, false
}

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
		obs, ok := t.Eval(r)
		r.Thresholds = append(r.Thresholds, Threshold{Expr: t.Expr, OK: ok, Observed: obs, Unit: t.Unit()})
		all = all && ok
	}
	return all, nil
}
