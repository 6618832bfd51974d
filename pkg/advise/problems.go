package advise

import (
	"math"

	"github.com/tablestress/tablestress/pkg/judge"
)

// limits are what the advice holds a prediction to: the headroom, the
// refusals the proof allows (MaxThrottled) and the options' bounds.
func (in *Input) limits() judge.Limits {
	return judge.Limits{Headroom: in.Opts.Headroom, MaxThrottled: MaxThrottled, MaxQuestionRequests: in.Opts.MaxQuestionRequests,
		MaxQuestionRows: in.Opts.MaxQuestionRows, MaxPartitionRows: float64(in.Opts.MaxPartitionRows)}
}

// findings are the judge's findings of a prediction at the horizon
// against the advice's limits: every decision below reads them.
func (in *Input) findings(p *Prediction) []judge.Finding { return in.Findings(p, in.limits()) }

// finding is the prediction's finding of kind k (the zero Finding when
// the model judges none of that kind).
func (in *Input) finding(p *Prediction, k judge.Kind) judge.Finding {
	for _, f := range in.findings(p) {
		if f.Kind == k {
			return f
		}
	}
	return judge.Finding{}
}

// over reports whether the prediction's finding of kind k is over its
// limit.
func (in *Input) over(p *Prediction, k judge.Kind) bool { return in.finding(p, k).Over() }

// hot reports whether a prediction's partitions are hot: its busiest
// partition over the headroom share of its target (Azure's entities/s per
// partition, or under Cosmos DB a logical partition's request units), a
// query's pass (or a question's on one server) overrunning what one pass
// reads, or passes running partitions into debt that refuses more than
// MaxThrottled of the requests.
func (in *Input) hot(p *Prediction) bool {
	for _, f := range in.findings(p) {
		if f.Hot() && f.Over() {
			return true
		}
	}
	return false
}

// hotPartition is the partition that makes a prediction hot: the
// busiest when it is over the headroom, else the one a query's pass
// overruns, else the one refusing the most requests in debt.
func (in *Input) hotPartition(p *Prediction) string {
	fs := in.findings(p)
	for _, k := range []judge.Kind{judge.HotPartition, judge.PassBurst, judge.Throttled} {
		for _, f := range fs {
			if f.Kind == k && f.Over() {
				return f.Partition
			}
		}
	}
	return p.BusiestPartition
}

// strain is how far a prediction's partitions are from hot: the largest
// Ratio of its hot findings (1 at the limit).
func (in *Input) strain(p *Prediction) float64 {
	s := 0.0
	for _, f := range in.findings(p) {
		if f.Hot() {
			s = math.Max(s, f.Ratio())
		}
	}
	return s
}

// strainWords says what makes a prediction hot other than its busiest
// partition: a pass too big to serve, or refusals while partitions pay
// passes off.
func (in *Input) strainWords(p *Prediction) string {
	if f := in.finding(p, judge.PassBurst); f.Over() {
		return in.Brief(f)
	}
	return in.Brief(in.finding(p, judge.Throttled))
}

// accountRequests are the requests/s a prediction asks of the account at
// the horizon: the workload's and, with a retention, its deletion's.
func accountRequests(p *Prediction) float64 {
	r := p.AccountRequestsPerSec
	if p.Deletion != nil {
		r += p.Deletion.AccountRequestsPerSec
	}
	return r
}

// problems are the findings that keep a judged candidate from being
// recommended, in the judge's order, and set how far over its limits it
// is (Candidate.Over: the largest Ratio among them). The largest
// partition's rows are not among them: a partition past the bound ranks
// below only while another scheme stays under it (outgrown).
func (in *Input) problems(c *Candidate) []judge.Finding {
	var out []judge.Finding
	c.Over = 0
	for _, f := range in.findings(c.Prediction) {
		if f.Kind != judge.PartitionRows && f.Over() {
			out = append(out, f)
			c.Over = math.Max(c.Over, f.Ratio())
		}
	}
	return out
}

// words are the findings in words, as the judge writes them.
func (in *Input) words(fs []judge.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, in.Words(f))
	}
	return out
}
