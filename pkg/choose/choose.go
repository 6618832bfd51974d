// Package choose is the one rule by which tablestress picks a key scheme
// among several: the limits a scheme must keep to be picked, and the order
// that ranks schemes best first. advise reads it over the judge's
// predictions of its candidates; compare reads it over what each scheme's
// run measured. Neither writes a ranking of its own.
package choose

import (
	"math"
	"strings"
)

// The limits a scheme keeps to be picked, which advise's proof checks a
// recommendation against: at most 1% of its requests throttled, at most
// 1% of the times each question is asked failing after its retries, and
// at most 1% of the operations offered dropped (the load was then not
// offered, so the run shows nothing of it).
const (
	MaxThrottled = 0.01
	MaxFailed    = 0.01
	MaxDropped   = 0.01
)

// Tie is how close two costs of a prediction are to count as equal:
// within 1%, below what the service model's times tell apart. The order
// then goes on to its next figure.
const Tie = 0.01

// NearTie is how close two measured figures are to be told apart by no
// single run: within 15%, the tolerance advise's proof allows a measured
// figure off its prediction. The rule still orders by them; a decision
// made by so little says it is a near-tie.
const NearTie = 0.15

// Figures are what the rule reads of one scheme.
type Figures struct {
	Name string
	// Problems counts what keeps the scheme from being picked (0: it can
	// be); Over is how far over its limits it is, the largest ratio of a
	// figure to its limit.
	Problems int
	Over     float64
	// Outgrown is set when its one problem is that its partitions
	// outgrow the size bound over the horizon while another scheme's stay
	// under it: it serves the load.
	Outgrown bool
	// QuestionMs is what a question costs, weighted by how often each is
	// asked (advise: the modelled service time; compare: the measured
	// median latency of the answered questions).
	QuestionMs float64
	// Bounded is set when every partition stays under the size bound
	// over the horizon (or nothing says otherwise).
	Bounded bool
	// MainShare is the share of the questions asked that the main table
	// answers itself, without an index table.
	MainShare float64
	// AccountRequests and AccountEntities are the requests/s and the
	// rows/s the account serves; Indexes counts the index tables; Busiest
	// is the busiest partition's entities/s.
	AccountRequests float64
	AccountEntities float64
	Indexes         int
	Busiest         float64
}

// Tier is 0 for a scheme that can be picked, 1 for one that serves the
// load but whose partitions outgrow the bound while another's stay under
// it, 2 for one that cannot serve the load.
func Tier(f Figures) int {
	switch {
	case f.Problems == 0:
		return 0
	case f.Outgrown:
		return 1
	}
	return 2
}

// Criteria name, in order, what the rule compares two schemes by.
const (
	ByTier            = "tier"
	ByOver            = "how far over its limits"
	ByProblems        = "how many problems"
	ByQuestionCost    = "question cost"
	ByBound           = "partition size bound"
	ByMainTable       = "questions the main table answers"
	ByAccountRequests = "requests to the account"
	ByAccountEntities = "rows the account serves"
	ByIndexes         = "index tables"
	ByBusiest         = "busiest partition"
	ByName            = "name"
)

// Decide compares x and y by the rule and returns the criterion that
// decided, and whether x ranks first. The order: those that can be picked,
// then those that serve the load but outgrow the partition bound, then
// those that cannot serve it. Among the first, the cheaper questions, then
// partitions that stay under the size bound over the horizon, then the
// main table answering more of the questions itself (the primary query
// pattern keys it), then fewer requests to the account, then fewer rows
// the account serves (a question that visits only the rows of what it
// knows), then fewer index tables (each written apart from its entity, in
// no entity group transaction with it), then the cooler busiest
// partition, then the name. Among the others, the nearest to its limits
// first (how far over), then fewer problems.
func Decide(x, y Figures) (criterion string, first bool) {
	if tx, ty := Tier(x), Tier(y); tx != ty {
		return ByTier, tx < ty
	}
	if x.Problems > 0 && !Tied(x.Over, y.Over) {
		return ByOver, x.Over < y.Over // the nearest to serving the load first
	}
	if x.Problems != y.Problems && x.Problems > 0 {
		return ByProblems, x.Problems < y.Problems
	}
	for _, c := range []struct {
		name   string
		differ bool
		first  bool
	}{
		{ByQuestionCost, !Tied(x.QuestionMs, y.QuestionMs), x.QuestionMs < y.QuestionMs},
		{ByBound, x.Bounded != y.Bounded, x.Bounded},
		{ByMainTable, !Tied(x.MainShare, y.MainShare), x.MainShare > y.MainShare},
		{ByAccountRequests, !Tied(x.AccountRequests, y.AccountRequests), x.AccountRequests < y.AccountRequests},
		{ByAccountEntities, !Tied(x.AccountEntities, y.AccountEntities), x.AccountEntities < y.AccountEntities},
		{ByIndexes, x.Indexes != y.Indexes, x.Indexes < y.Indexes},
		{ByBusiest, !Tied(x.Busiest, y.Busiest), x.Busiest < y.Busiest},
	} {
		if c.differ {
			return c.name, c.first
		}
	}
	return ByName, strings.Compare(x.Name, y.Name) < 0
}

// Less reports whether x ranks before y (Decide's order).
func Less(x, y Figures) bool {
	_, first := Decide(x, y)
	return first
}

// Tied reports whether a and b are within Tie of each other.
func Tied(a, b float64) bool { return within(a, b, Tie) }

// Near reports whether two measured figures are within NearTie of each
// other: no single run tells them apart.
func Near(a, b float64) bool { return within(a, b, NearTie) }

func within(a, b, share float64) bool {
	return math.Abs(a-b) <= share*math.Max(math.Abs(a), math.Abs(b))
}
