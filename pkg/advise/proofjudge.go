package advise

import (
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// crossPartition is how reports name requests spanning partitions.
const crossPartition = "*"

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
// mean is further than the tolerance from the prediction (or, predicted
// under CoolBelow, when it is over HotAbove), or when the
// client dropped more than 1% of the operations (the peak was not
// offered, so nothing was proved), or when a question's requests or rows
// visited per question are further than its tolerance from the
// prediction at the proof's depth and a request (a row) or more from it
// (MinOffRequests, MinOffRows). The other schemes are measured for
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
				pq.Requests, pq.RowsVisited, pq.P99Ms, pq.Asked, pq.Failed = mq.RequestsPerQuestion, mq.RowsVisitedPerQuestion, mq.Latency.P99, mq.Ops, mq.Failed
				pq.visitedFrom, pq.Unfinished, pq.unfinishedRequests = mq.RowsVisitedFrom, mq.Unfinished, mq.Sums.UnfinishedRequests
			}
		}
		judgeUnfinished(r, time.Duration(p.DurationS*float64(time.Second)))
		if r.Role == "recommended" {
			p.excess(r, rep)
			p.Failures = append(p.Failures, p.verdict(r)...)
			if r.Predicted.BusiestEntitiesPerSec < p.CoolBelow {
				p.Notes = append(p.Notes, fmt.Sprintf("the busiest partition is predicted at %s entities/s, under %s of its target: it was checked to stay under %s entities/s, not against the prediction",
					textfit.Rate(r.Predicted.BusiestEntitiesPerSec), pct(CoolShare), textfit.Rate(p.HotAbove)))
			}
			p.Notes = append(p.Notes, questionNotes(r)...)
		}
	}
	p.Notes = append(p.Notes, unfinishedNotes(p)...)
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
	if m.ThrottledShare > MaxThrottled+r.excess {
		over := pct(MaxThrottled)
		if r.excess > 0 {
			over += " and the " + pct(r.excess) + " its questions asked more often than their rate owe"
		}
		out = append(out, fmt.Sprintf("the recommendation %s was throttled: %s of its requests, over %s", r.Scheme, pct(m.ThrottledShare), over))
	}
	for _, q := range r.Questions {
		if q.Asked > 0 && float64(q.Failed)/float64(q.Asked) > MaxFailed {
			out = append(out, fmt.Sprintf("the recommendation's question %s failed %s of the %s times it was asked (after retries), over %s",
				q.Name, textfit.Int(q.Failed), textfit.Int(q.Asked), pct(MaxFailed)))
		}
	}
	if pr.BusiestEntitiesPerSec < p.CoolBelow {
		if m.BusiestEntitiesPerSec > p.HotAbove {
			out = append(out, fmt.Sprintf("the recommendation's busiest partition, %q, took %s entities/s, over the %s a partition should take; the prediction was %s",
				m.BusiestPartition, textfit.Rate(m.BusiestEntitiesPerSec), textfit.Rate(p.HotAbove), textfit.Rate(pr.BusiestEntitiesPerSec)))
		}
	} else if off := math.Abs(m.BusiestEntitiesPerSec-pr.BusiestEntitiesPerSec) / math.Max(pr.BusiestEntitiesPerSec, 1e-9); off > p.Tolerance {
		out = append(out, fmt.Sprintf("the recommendation's busiest partition, %q, took %s entities/s; the prediction was %s ± %s: %s off, over the %s allowed",
			m.BusiestPartition, textfit.Rate(m.BusiestEntitiesPerSec), textfit.Rate(pr.BusiestEntitiesPerSec), textfit.Rate(pr.BusiestSD), pct(off), pct(p.Tolerance)))
	}
	for _, q := range r.Questions {
		if !q.Checked || q.Asked == 0 || q.NotChecked != "" {
			continue
		}
		if off := relOff(q.Requests, q.PredictedRequests); off > q.Tolerance && math.Abs(q.Requests-q.PredictedRequests) >= MinOffRequests {
			out = append(out, fmt.Sprintf("%s took %s requests a question; the prediction at %s entities was %s: %s off, over the %s allowed and a request or more",
				q.Name, textfit.Float(textfit.Round2(q.Requests)), textfit.Int(p.Entities), textfit.Float(textfit.Round2(q.PredictedRequests)), pct(off), pct(q.Tolerance)))
		}
		if !visitedCounted(q) {
			continue
		}
		if off := relOff(q.RowsVisited, q.PredictedRowsVisited); off > q.Tolerance && math.Abs(q.RowsVisited-q.PredictedRowsVisited) >= MinOffRows {
			out = append(out, fmt.Sprintf("%s visited %s rows a question; the prediction at %s entities was %s: %s off, over the %s allowed and a row or more",
				q.Name, textfit.Float(textfit.Round2(q.RowsVisited)), textfit.Int(p.Entities), textfit.Float(textfit.Round2(q.PredictedRowsVisited)), pct(off), pct(q.Tolerance)))
		}
	}
	return out
}

// excess sets r's excess from the run's report: for each question asked
// more often than its predicted rate over the measured duration, the
// requests its passes are predicted to have the partitions refuse each
// time, beyond those the rate accounts for, as a share of the run's
// requests; and notes it. A rare question asked once in a short run
// otherwise weighs in the throttled share many times its rate.
func (p *Proof) excess(r *ProofRun, rep *report.Report) {
	if rep.Totals.Requests <= 0 {
		return
	}
	extra := 0.0
	for _, q := range r.Questions {
		more := float64(q.Asked) - q.PredictedPerSecond*p.DurationS
		if more <= 0 || q.PredictedRefused <= 0 {
			continue
		}
		extra += more * q.PredictedRefused
		p.Notes = append(p.Notes, fmt.Sprintf("%s was asked %s times in the run, %s more than its rate says; the prediction puts %s refused requests on each: %s of the requests, allowed besides the %s",
			q.Name, textfit.Int(q.Asked), textfit.Float(textfit.Round2(more)), textfit.Rate(q.PredictedRefused), pct(more*q.PredictedRefused/float64(rep.Totals.Requests)), pct(MaxThrottled)))
	}
	r.excess = extra / float64(rep.Totals.Requests)
}

// relOff is how far measured is from predicted, as a share of the
// prediction.
func relOff(measured, predicted float64) float64 {
	return math.Abs(measured-predicted) / math.Max(predicted, 1e-9)
}

// visitedCounted says whether the run counted q's rows visited: the
// service counted them (or q read points, which visit the rows they
// read), or it answered no query page (none visited).
func visitedCounted(q ProofQuestion) bool {
	switch q.visitedFrom {
	case "service", "point reads", "":
		return true
	}
	return false
}

// questionNotes say which of the recommendation's questions the run did
// not check, and why.
func questionNotes(r *ProofRun) []string {
	var out []string
	for _, q := range r.Questions {
		switch {
		case !q.Checked:
			out = append(out, fmt.Sprintf("%s is predicted to be asked fewer than once in the run: its costs were not checked", q.Name))
		case q.Asked == 0 && q.Unfinished > 0:
			// unfinishedNotes says why
		case q.Asked == 0:
			out = append(out, fmt.Sprintf("%s was not asked in the run: its costs were not checked", q.Name))
		case !visitedCounted(q):
			out = append(out, fmt.Sprintf("the service does not count the rows it visits (%s's figure is its rows returned): %s's rows visited were not checked", q.Name, q.Name))
		}
	}
	return out
}

// pct writes a share as a percentage with three significant digits.
func pct(f float64) string { return textfit.Float(math.Round(f*1000)/10) + "%" }
