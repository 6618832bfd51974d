package judge

import "math"

// How long a bucket is in debt. The service model's bucket (a partition's,
// or a partition server's) is refilled at its target and holds cap; a
// query's pass is admitted while the bucket owes at most a second past
// empty and is charged every row it visits, into debt; any other request
// passes only while the bucket holds its entity. Measured in seconds of
// the target, the bucket's debt W (how long until it is full again) is the
// workload of a queue: each pass adds its rows over the target, time takes
// one second a second off it, and the other requests add theirs only while
// W is under cap/target (above it they are refused and add nothing). The
// share of the time W is over cap/target is the share of the other
// requests refused; over cap/target + 1 s, the share of the passes'
// pages refused.
//
// Passes arrive as a Poisson stream (the mix's requests are drawn at
// random moments), so W is the virtual waiting time of an M/G/1 queue
// (Kleinrock, "Queueing Systems", vol. 1, §5.11; with one size of pass,
// Erlang's M/D/1 formula), solved by level crossing: at every level x the
// rate W falls through x (its drift times its density there) equals the
// rate passes lift it across x. A pass is not free when it fits in the
// bucket (two close together overrun it), nor does the bucket wait full
// for it: what the partition's other requests and earlier passes took is
// in W when it comes.

// passClass is passes of one question or operation on one bucket: rate a
// second, over the rows a second they visit past the bucket (each pass's
// rows over cap, times its rate), mean their rows a second.
type passClass struct {
	what             string
	rate, over, rows float64
}

// size is the rows one pass of c visits, as the queue takes it: the mean,
// or, when passes overrun the bucket, cap plus the mean overrun (a pass
// asked at different moments of a time bucket reads more or fewer rows,
// and what it owes grows faster than its rows).
func (c passClass) size(cap float64) float64 {
	if !(c.rate > 0) {
		return 0
	}
	if c.over > 0 {
		return math.Max(c.rows/c.rate, cap+c.over/c.rate)
	}
	return c.rows / c.rate
}

// addClass adds passes to cs, merged with the class of the same question
// or operation.
func addClass(cs []passClass, c passClass) []passClass {
	for i := range cs {
		if cs[i].what == c.what {
			cs[i].rate, cs[i].over, cs[i].rows = cs[i].rate+c.rate, cs[i].over+c.over, cs[i].rows+c.rows
			return cs
		}
	}
	return append(cs, c)
}

// queryAhead is how far past empty (seconds of the target) a bucket may
// be for a query's page to pass: a second, the service model's.
const queryAhead = 1.0

// debtSteps bounds the level-crossing grid.
const debtSteps = 4096

// debtShares are the shares of the time a bucket of cap entities,
// refilled at target a second, owes more than its other requests may find
// (small: they are refused) and more than a query's page may find (query):
// passes cs arrive on it, its other requests take load of the target
// (their entities a second over target). Both are 1 when the passes alone
// take the whole target, or the other requests with them.
func debtShares(cs []passClass, load, cap, target float64) (small, query float64) {
	if !(target > 0) || len(cs) == 0 {
		return 0, 0
	}
	lam, size := make([]float64, 0, len(cs)), make([]float64, 0, len(cs))
	rho, top := 0.0, 0.0
	for _, c := range cs {
		if a := c.size(cap) / target; c.rate > 0 && a > 0 {
			lam, size = append(lam, c.rate), append(size, a)
			rho, top = rho+c.rate*a, math.Max(top, a)
		}
	}
	load = math.Max(load, 0)
	if len(lam) == 0 {
		return 0, 0
	}
	if rho >= 1 || load >= 1 {
		return 1, 1
	}
	c := cap / target
	if negligible(lam, size, 1-load, c) {
		return 0, 0
	}
	return levelCrossing(lam, size, 1-load, c, c+queryAhead, top)
}

// debtNegligible is the share of the time in debt below which a bucket
// is taken never to refuse: a billionth (a partition taking 20,000
// requests a second would refuse one every 14 hours).
const debtNegligible = 1e-9

// negligible reports whether the queue of debtShares is over c less than
// debtNegligible of the time, by the Cramér–Lundberg bound on the queue
// drained at drift at every level (it drains faster above c, so its W is
// no smaller): P(W > c) ≤ e^(−R·c), R the positive root of
// f(θ) = Σ lam·(e^(θ·size) − 1) − θ·drift (Asmussen, "Applied
// Probability and Queues", §XIII.5). f is convex, nought at 0, so
// e^(−R·c) is under debtNegligible exactly when f is negative at
// ln(1/debtNegligible)/c: one evaluation, where the level-crossing grid
// takes thousands (most partitions of a table take passes far smaller
// than their bucket, and are skipped here).
func negligible(lam, size []float64, drift, c float64) bool {
	if !(c > 0) {
		return false
	}
	theta := math.Log(1/debtNegligible) / c
	f := -theta * drift
	for j, l := range lam {
		f += l * math.Expm1(theta*size[j])
	}
	return f < 0
}

// levelCrossing solves the queue of debtShares on a grid: passes at rates
// lam lift W by size (seconds), W falls at drift below c and at 1 above
// it; it returns the shares of the time W is over c and over q.
func levelCrossing(lam, size []float64, drift, c, q, top float64) (float64, float64) {
	span := q + 40*top
	h := span / debtSteps
	cum := make([]float64, debtSteps+1) // ∫ density from 0 to i·h, the atom at 0 weighing 1
	// at is the cumulative at x, known up to index known.
	at := func(x float64, known int) float64 {
		if x <= 0 {
			return 0
		}
		i := int(x / h)
		if i >= known {
			return cum[known]
		}
		return cum[i] + (cum[i+1]-cum[i])*(x/h-float64(i))
	}
	var overC, overQ float64
	for i := 1; i <= debtSteps; i++ {
		x := float64(i) * h
		up := 0.0
		for j, l := range lam {
			// Passes lift W across x from the atom at 0 and from every
			// level within a pass below x.
			if x < size[j] {
				up += l
			}
			up += l * (cum[i-1] - at(x-size[j], i-1))
		}
		r := 1.0
		if x <= c {
			r = drift
		}
		d := up / r * h
		cum[i] = cum[i-1] + d
		if x > c {
			overC += d
		}
		if x > q {
			overQ += d
		}
	}
	mass := 1 + cum[debtSteps]
	return overC / mass, overQ / mass
}
