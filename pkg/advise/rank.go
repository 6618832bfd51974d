package advise

import (
	"sort"

	"github.com/tablestress/tablestress/pkg/choose"
)

// rank orders candidates best first by the rule compare reads too
// (choose.Decide): those that can be recommended, then those that serve
// the load but outgrow the partition bound, then those that cannot serve
// it; among the first by the cost of their questions (the weighted mean
// service time of a question), then the partition bound, the main table's
// share of the questions, the account's requests and rows, index tables,
// the busiest partition and the name; among the others the nearest to
// their limits first.
func (in *Input) rank(cs []*Candidate) {
	fs := make(map[*Candidate]choose.Figures, len(cs))
	for _, c := range cs {
		fs[c] = in.figures(c)
	}
	sort.SliceStable(cs, func(a, b int) bool { return choose.Less(fs[cs[a]], fs[cs[b]]) })
}

// figures are what the rule reads of a judged candidate.
func (in *Input) figures(c *Candidate) choose.Figures {
	p := c.Prediction
	return choose.Figures{Name: c.Spec.Name, Problems: len(c.Problems), Over: c.Over, Outgrown: c.outgrown,
		QuestionMs: p.QuestionMs, Bounded: in.bounded(p), MainShare: in.mainShare(p),
		AccountRequests: accountRequests(p), AccountEntities: p.AccountEntitiesPerSec, Indexes: len(c.Spec.Indexes),
		Busiest: p.BusiestEntitiesPerSec}
}

// mainShare is the share of the questions asked (by weight in the mix)
// that the main table answers itself, without an index table.
func (in *Input) mainShare(p *Prediction) float64 {
	if len(p.Questions) == 0 {
		return 1
	}
	w := in.QuestionWeights()
	total, main := 0.0, 0.0
	for k, q := range p.Questions {
		total += w[k]
		if q.Plan != "index" {
			main += w[k]
		}
	}
	if total == 0 {
		return 1
	}
	return main / total
}

// costTie is how close two question costs are to count as equal
// (choose.Tie).
const costTie = choose.Tie

// tie reports whether two costs are within costTie of each other.
func tie(a, b float64) bool { return choose.Tied(a, b) }

// bounded reports whether every partition of the scheme's tables stays
// within MaxPartitionRows over the horizon.
func (in *Input) bounded(p *Prediction) bool {
	return p.LargestPartitionRows <= float64(in.Opts.MaxPartitionRows)
}

// load is a prediction's busiest partition as a share of its target: the
// write-headroom axis of the Pareto front.
func (in *Input) load(p *Prediction) float64 {
	if in.Cosmos() {
		return p.Cosmos.BusiestPerSec / in.Opts.Model.Cosmos.LogicalRU
	}
	return p.BusiestEntitiesPerSec / in.PartitionTarget()
}

// front marks the candidates no other beats on both the busiest
// partition's load and the question cost (and equals on neither).
func (in *Input) front(cs []*Candidate) map[*Candidate]bool {
	out := map[*Candidate]bool{}
	for _, c := range cs {
		dominated := false
		for _, o := range cs {
			lo, lc := in.load(o.Prediction), in.load(c.Prediction)
			qo, qc := o.Prediction.QuestionMs, c.Prediction.QuestionMs
			if o != c && lo <= lc && qo <= qc && (lo < lc || qo < qc) {
				dominated = true
				break
			}
		}
		out[c] = !dominated
	}
	return out
}
