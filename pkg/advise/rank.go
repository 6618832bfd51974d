package advise

import (
	"math"
	"sort"
)

// costTie is how close two question costs are to count as equal: within
// 1%, below what the model's service times can tell apart.
const costTie = 0.01

// rank orders candidates best first: those that can be recommended,
// then those that serve the load but outgrow the partition bound, then
// those that cannot serve it. Among the first, the cheaper questions (the
// weighted mean service time of a question), then partitions that stay
// under the size bound over the horizon, then the main table answering
// more of the questions asked itself (the primary query pattern keys it),
// then fewer requests to the account (deleting old data's included), then
// fewer entities read and written at the account (the rows the questions
// visit), then fewer index tables (each written apart from its entity, in
// no entity group transaction with it), then the cooler busiest
// partition, then the name. Among the
// others, the nearest to its limits first (how far over: the largest
// ratio of a figure to its limit), then fewer problems.
func (in *Input) rank(cs []*Candidate) {
	sort.SliceStable(cs, func(a, b int) bool {
		x, y := cs[a], cs[b]
		if tx, ty := tier(x), tier(y); tx != ty {
			return tx < ty
		}
		if len(x.Problems) > 0 && !tie(x.Over, y.Over) {
			return x.Over < y.Over // the nearest to serving the load first
		}
		if len(x.Problems) != len(y.Problems) && len(x.Problems) > 0 {
			return len(x.Problems) < len(y.Problems)
		}
		px, py := x.Prediction, y.Prediction
		if !tie(px.QuestionMs, py.QuestionMs) {
			return px.QuestionMs < py.QuestionMs
		}
		if bx, by := in.bounded(px), in.bounded(py); bx != by {
			return bx
		}
		if mx, my := in.mainShare(px), in.mainShare(py); !tie(mx, my) {
			return mx > my // the primary query pattern keys the main table (Azure Storage "Design for querying")
		}
		if ax, ay := accountRequests(px), accountRequests(py); !tie(ax, ay) {
			return ax < ay // the workload's and deleting old data's requests
		}
		if ex, ey := px.AccountEntitiesPerSec, py.AccountEntitiesPerSec; !tie(ex, ey) {
			return ex < ey // the rows the service reads and writes: a question that visits only the rows of what it knows
		}
		if nx, ny := len(x.Spec.Indexes), len(y.Spec.Indexes); nx != ny {
			return nx < ny // an index table is written apart from its entity, in no transaction with it
		}
		if !tie(px.BusiestEntitiesPerSec, py.BusiestEntitiesPerSec) {
			return px.BusiestEntitiesPerSec < py.BusiestEntitiesPerSec
		}
		return x.Spec.Name < y.Spec.Name
	})
}

// tier is 0 for a candidate that can be recommended, 1 for one that
// serves the load but whose partitions outgrow the bound while another's
// stay under it, 2 for one that cannot serve the load.
func tier(c *Candidate) int {
	switch {
	case len(c.Problems) == 0:
		return 0
	case c.outgrown:
		return 1
	}
	return 2
}

// mainShare is the share of the questions asked (by weight in the mix)
// that the main table answers itself, without an index table.
func (in *Input) mainShare(p *Prediction) float64 {
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

// tie reports whether a and b are within costTie of each other.
func tie(a, b float64) bool {
	return math.Abs(a-b) <= costTie*math.Max(math.Abs(a), math.Abs(b))
}

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
