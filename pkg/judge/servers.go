package judge

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
)

// A question that reads many partitions at once charges their partition
// servers as well as the partitions (the service model's: partitions
// placed on Servers servers by hash, each serving ServerTarget entities a
// second, a model assumption where Azure publishes no figure; a query
// page is admitted while its server owes at most a second past its full
// bucket, and any other request only while it owes nothing). The judge
// spreads a question's rows visited evenly over the servers of its
// partitions: a server's share past its bucket is owed, and while it is
// paid off the server refuses every request that reaches it; the
// heaviest server (three standard deviations of a Poisson count of its
// partitions over the mean) bounds what one question can read at once.

// serverCap is what a partition server's bucket holds: the model's burst
// of its target, at least an entity group transaction's 100.
func (in *Input) serverCap() float64 {
	b := in.Opts.Model.Burst
	if b <= 0 {
		b = 100 * time.Millisecond
	}
	return math.Max(in.Opts.Model.ServerTarget*b.Seconds(), 100)
}

// ServerPassLimit is the most rows one question can visit at once on one
// partition server: as PassLimit, of the server's target and bucket.
func (in *Input) ServerPassLimit() float64 {
	return math.Floor((in.Opts.Model.ServerTarget+in.serverCap())/azure.PageRows)*azure.PageRows + azure.PageRows
}

// servers puts the questions' passes on the partition servers: the
// heaviest server's rows of one question (Figures.ServerPassRows, and
// its question), and the requests refused while the servers pay off
// what each question's rows past their buckets leave them owing, added
// to the throttled share and each question's refused requests. Not
// under Cosmos DB, whose physical partitions the model charges request
// units instead.
func (j *judging) servers(f *Figures) {
	m := j.in.Opts.Model
	if j.in.Cosmos() || m.Servers < 1 || !(m.ServerTarget > 0) || !(f.AccountRequestsPerSec > 0) {
		return
	}
	s := float64(m.Servers)
	refused := 0.0
	for x := range f.Questions {
		q := &f.Questions[x]
		p, v := q.PartitionsPerQuestion, q.RowsVisitedPerQuestion
		if !(q.PerSec > 0) || !(p > 1) || !(v > 0) {
			continue
		}
		per := p / s // partitions a server holds, on average
		heaviest := v / p * math.Max(1, per+3*math.Sqrt(per))
		q.ServerPassRows = heaviest
		if heaviest > f.ServerPassRows {
			f.ServerPassRows, f.ServerPassOf = heaviest, q.Name
		}
		n := math.Min(p, s)
		owed := math.Max(v/n-j.in.serverCap(), 0) / m.ServerTarget // seconds each server refuses
		r := n * f.AccountRequestsPerSec / s * math.Min(owed, 1/q.PerSec)
		q.RefusedPerQuestion += r
		refused += q.PerSec * r
	}
	refused += j.alonePasses(f, s)
	if refused > 0 {
		f.ServerThrottledShare = math.Min(refused/f.AccountRequestsPerSec, 1)
		f.ThrottledShare = math.Min(f.ThrottledShare+f.ServerThrottledShare, 1)
	}
}

// alonePasses are the requests a second the s partition servers refuse
// while the passes that read one partition at a time (a partition scan,
// a range query, a question's read of one partition) run their buckets
// into debt: each server takes its share of those passes as they come,
// at random moments, and of the account's other entities (debtShares);
// what the partitions refused never reached a server. Each question's
// share, by the rows its passes visit, is added to its refused requests.
func (j *judging) alonePasses(f *Figures, s float64) float64 {
	l, m := f.loads, j.in.Opts.Model
	if l == nil || len(l.serverPasses) == 0 {
		return 0
	}
	cs := make([]passClass, len(l.serverPasses))
	passRows, first := 0.0, 0.0
	for i, c := range l.serverPasses {
		cs[i] = passClass{what: c.what, rate: c.rate / s, over: c.over / s, rows: c.rows / s}
		passRows, first = passRows+c.rows, first+c.rate
	}
	other := math.Max(l.charged()-passRows, 0) / s
	small, query := debtShares(cs, other/m.ServerTarget, j.in.serverCap(), m.ServerTarget)
	reqs := f.AccountRequestsPerSec * (1 - f.ThrottledShare)
	first = math.Min(first, reqs)
	refused := small*(reqs-first) + query*first
	for x := range f.Questions {
		q := &f.Questions[x]
		for _, c := range l.serverPasses {
			if c.what == q.Name && q.PerSec > 0 {
				q.RefusedPerQuestion += refused * c.rows / passRows / q.PerSec
			}
		}
	}
	return refused
}
