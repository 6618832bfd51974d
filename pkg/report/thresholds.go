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
	if !(r.DurationS > 0) || r.Totals.Counts.IsZero() {
		return 0, fmt.Sprintf("the run measured nothing (%s, %s operations)", secondsText(r.DurationS), num(r.Totals.Ops))
	}
	switch metric {
	case "max_partition_peak":
		return r.maxPartitionPeak()
	case "partitions_over_target":
		return float64(len(HotPartitions(r))), ""
	case "partitions":
		return float64(r.PartitionCount()), ""
	}
	sc := r.thresholdScope(op)
	if v, missing, ok := sc.latency(metric); ok {
		return v, missing
	}
	if v, missing, ok := sc.share(metric); ok {
		return v, missing
	}
	if v, ok := sc.count(metric); ok {
		return v, sc.nothing
	}
	return 0, "unknown metric " + metric
}

// thresholdScope is what a threshold on the totals, one operation or one
// question reads, and what to say when it observed nothing.
type thresholdScope struct {
	s Stats
	// noOps and noRequests say that no operation completed, no request
	// was sent; noneAnswered that every one that completed failed;
	// nothing, that the operation or question never ran ("" when it did).
	noOps, noRequests, noneAnswered, nothing string
}

// thresholdScope is op's scope: the totals (op ""), an operation, or a
// question ("question:NAME").
func (r *Report) thresholdScope(op string) thresholdScope {
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
	sc := thresholdScope{s: s,
		noOps:        fmt.Sprintf("no %soperation completed in the measured %s", of, secondsText(r.DurationS)),
		noRequests:   fmt.Sprintf("no %srequest was sent in the measured %s", of, secondsText(r.DurationS)),
		noneAnswered: fmt.Sprintf("no %soperation was answered in the measured %s: all %s that completed failed", of, secondsText(r.DurationS), num(s.Ops))}
	if !ran {
		sc.nothing = fmt.Sprintf("no %soperation ran in the measured %s", of, secondsText(r.DurationS))
		sc.noOps, sc.noRequests = sc.nothing, sc.nothing
	}
	return sc
}

// latency is a latency metric in ms, which needs an answered operation:
// one that failed has no latency (it would otherwise pass a bound at 0).
func (sc thresholdScope) latency(metric string) (float64, string, bool) {
	l := sc.s.Latency
	v, ok := map[string]float64{"p50": l.P50, "p90": l.P90, "p99": l.P99, "p999": l.P999, "max": l.Max}[metric]
	switch {
	case ok && sc.s.Ops == 0:
		return v, sc.noOps, true
	case ok && sc.s.Answered() == 0:
		return v, sc.noneAnswered, true
	}
	return v, "", ok
}

// share is a rate metric in percent: of the requests (throttle_rate,
// error_rate) or of the operations (failed_rate).
func (sc thresholdScope) share(metric string) (float64, string, bool) {
	s := sc.s
	switch metric {
	case "throttle_rate", "error_rate":
		if s.Requests == 0 {
			return 0, sc.noRequests, true
		}
		n := s.Throttled
		if metric == "error_rate" {
			n = s.Errors
		}
		return 100 * float64(n) / float64(s.Requests), "", true
	case "failed_rate":
		if s.Ops == 0 {
			return 0, sc.noOps, true
		}
		return 100 * float64(s.Failed) / float64(s.Ops), "", true
	}
	return 0, "", false
}

// count is a counted metric of the scope.
func (sc thresholdScope) count(metric string) (float64, bool) {
	s := sc.s
	v, ok := map[string]float64{"ops": float64(s.Ops), "requests": float64(s.Requests), "entities": float64(s.Entities),
		"ops_per_sec": s.OpsPerSec, "entities_per_sec": s.EntitiesPerSec, "throttled": float64(s.Throttled),
		"errors": float64(s.Errors), "failed": float64(s.Failed), "dropped": float64(s.Dropped), "retries": float64(s.Retries)}[metric]
	return v, ok
}

// maxPartitionPeak is the busiest single partition's peak entities/s.
func (r *Report) maxPartitionPeak() (float64, string) {
	p, ok := r.PeakPartition()
	if !ok {
		return 0, "no request addressed a single partition in the measured " + secondsText(r.DurationS)
	}
	return p.PeakEntitiesPerSec, ""
}

// PeakPartition is the partition with the highest peak entities/s (the
// first in report order of those sharing it), which max_partition_peak
// judges; false when no request addressed a single partition.
func (r *Report) PeakPartition() (Partition, bool) {
	var best Partition
	found := false
	for _, p := range r.Partitions {
		if p.PartitionKey != "*" && p.Requests > 0 && (!found || p.PeakEntitiesPerSec > best.PeakEntitiesPerSec) {
			best, found = p, true
		}
	}
	return best, found
}

func secondsText(s float64) string { return fixed(s, 1) + " s" }

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
		th := Threshold{Expr: t.Expr, OK: res.OK, Observed: res.Observed, Unit: t.Unit(), Missing: res.Missing}
		if p, ok := r.PeakPartition(); ok && t.Metric == "max_partition_peak" {
			th.Partition = p.PartitionKey
		}
		r.Thresholds = append(r.Thresholds, th)
		all = all && res.OK
	}
	return all, nil
}
