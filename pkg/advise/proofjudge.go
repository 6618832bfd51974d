package advise

import (
	"fmt"
	"math"

	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// measured reads a run's report as the proof's figures: the busiest
// partition (the first of the report's, busiest first, that is one
// partition's) and its mean entities/s over the measured window, the
// most any partition served in a second, and the throttled and dropped
// shares.
func measured(r *report.Report) ProofFigures {
	f := ProofFigures{}
	for _, p := range r.Partitions {
		if p.PartitionKey == crossPartition {
			continue
		}
		if f.BusiestPartition == "" {
			f.BusiestPartition, f.BusiestEntitiesPerSec = p.PartitionKey, p.EntitiesPerSec
		}
		f.PeakEntitiesPerSec = math.Max(f.PeakEntitiesPerSec, p.PeakEntitiesPerSec)
	}
	if r.Totals.Requests > 0 {
		f.ThrottledShare = float64(r.Totals.Throttled) / float64(r.Totals.Requests)
	}
	if n := r.Totals.Offered(); n > 0 {
		f.DroppedShare = float64(r.Totals.Dropped) / float64(n)
	}
	if r.Client != nil && r.Client.Limit != nil {
		f.ClientLimit = r.Client.Limit.Sentence()
	}
	return f
}

// Judge reads the proof run's reports (by scheme name) into the proof and
// gives its verdict: the recommendation fails when more than MaxThrottled
// of its requests were throttled, when its busiest partition's measured
// mean is further than the tolerance from the prediction, or when the
// client dropped more than 1% of the operations (the peak was not
// offered, so nothing was proved). The other schemes are measured for
// comparison only.
func (p *Proof) Judge(reps map[string]*report.Report) {
	p.Run, p.Failures = true, []string{}
	for k := range p.Schemes {
		r := &p.Schemes[k]
		rep := reps[r.Scheme]
		if rep == nil {
			if r.Role == "recommended" {
				p.Failures = append(p.Failures, fmt.Sprintf("the recommendation %s was not run", r.Scheme))
			}
			continue
		}
		m := measured(rep)
		r.Measured = &m
		for q := range r.Questions {
			if mq, ok := rep.Questions[r.Questions[q].Name]; ok {
				pq := &r.Questions[q]
				pq.Requests, pq.P99Ms, pq.Asked, pq.Failed = mq.RequestsPerQuestion, mq.Latency.P99, mq.Ops, mq.Failed
			}
		}
		if r.Role == "recommended" {
			p.Failures = append(p.Failures, p.verdict(r)...)
		}
	}
	p.OK = len(p.Failures) == 0
}

// verdict is what the recommendation's run says against its prediction.
func (p *Proof) verdict(r *ProofRun) []string {
	var out []string
	m, pr := r.Measured, r.Predicted
	switch {
	case m.DroppedShare > 0.01 && m.ClientLimit != "":
		out = append(out, fmt.Sprintf("the client dropped %s of the operations, so the run proves nothing: %s", pct(m.DroppedShare), m.ClientLimit))
	case m.DroppedShare > 0.01:
		out = append(out, fmt.Sprintf("the client dropped %s of the operations: it could not offer %s ops/s, so the run proves nothing (raise --workers, or run where the client has the CPU)",
			pct(m.DroppedShare), textfit.Rate(p.Rate)))
	}
	if m.ThrottledShare > MaxThrottled {
		out = append(out, fmt.Sprintf("the recommendation %s was throttled: %s of its requests, over %s", r.Scheme, pct(m.ThrottledShare), pct(MaxThrottled)))
	}
	for _, q := range r.Questions {
		if q.Asked > 0 && float64(q.Failed)/float64(q.Asked) > MaxThrottled {
			out = append(out, fmt.Sprintf("the recommendation's question %s failed %s of the %s times it was asked (after retries), over %s",
				q.Name, textfit.Int(q.Failed), textfit.Int(q.Asked), pct(MaxThrottled)))
		}
	}
	if off := math.Abs(m.BusiestEntitiesPerSec-pr.BusiestEntitiesPerSec) / math.Max(pr.BusiestEntitiesPerSec, 1e-9); off > p.Tolerance {
		out = append(out, fmt.Sprintf("the recommendation's busiest partition, %q, took %s entities/s; the prediction was %s ± %s: %s off, over the %s allowed",
			m.BusiestPartition, textfit.Rate(m.BusiestEntitiesPerSec), textfit.Rate(pr.BusiestEntitiesPerSec), textfit.Rate(pr.BusiestSD), pct(off), pct(p.Tolerance)))
	}
	return out
}

// pct writes a share as a percentage with three significant digits.
func pct(f float64) string { return textfit.Float(math.Round(f*1000)/10) + "%" }
