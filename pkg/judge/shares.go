package judge

import (
	"math"
)

// A fan-out by shares (question.Share) asks each of its hash buckets for
// a share s of the answer's n rows, then asks again a bucket whose share
// came back full and whose last row may still be in the answer. A bucket
// holding x of the answer's rows, x a binomial(n, p) count (p its share of
// the matching rows: 1/B for B alike buckets), is asked again when x > s,
// and when x = s unless its last row is the answer's last (chance s/n);
// its s-th row ranks s(n+1)/(x+1) in the answer on average (the s-th of
// x places drawn from n), so the second round asks for n − s(n+1)/(x+1)
// rows after it on average. When the group holds fewer
// rows than the answer wants (n its every row), the second round returns
// the x − s rows after the share.

// second is a bucket's second round: the chance it is asked again and the
// rows it then returns, on average over its binomial count.
type second struct{ prob, rows float64 }

// secondKey names secondRound's arguments.
type secondKey struct {
	n, s  int
	p     uint64
	whole bool
}

// secondRound is a bucket's second round of a share plan: n the rows of
// the answer in the group, p the bucket's share of them, s its $top;
// whole is set when the group holds at least the rows the answer wants
// (its rows past the share are there to read). Remembered by its
// arguments.
func (qj *qjudge) secondRound(n int, p float64, s int, whole bool) second {
	k := secondKey{n, s, math.Float64bits(p), whole}
	if v, ok := qj.seconds[k]; ok {
		return v
	}
	v := secondRound(n, p, s, whole)
	if qj.seconds == nil {
		qj.seconds = map[secondKey]second{}
	}
	qj.seconds[k] = v
	return v
}

func secondRound(n int, p float64, s int, whole bool) second {
	var out second
	if n <= s || s <= 0 || p <= 0 {
		return out
	}
	p = math.Min(p, 1)
	for x := s; x <= n; x++ {
		pr := binomialPMF(n, x, p)
		if float64(x) > float64(n)*p && pr < 1e-12 {
			break
		}
		asked := 1.0
		if x == s && whole {
			asked = 1 - float64(s)/float64(n)
		}
		rows := float64(x - s)
		if whole {
			rows = math.Max(float64(n)-float64(s)*float64(n+1)/float64(x+1), 0)
		}
		out.prob += pr * asked
		out.rows += pr * rows // n − rank is 0 when its last row is the answer's last
	}
	return out
}

// binomialPMF is P(X = x) for X ~ binomial(n, p).
func binomialPMF(n, x int, p float64) float64 {
	if p >= 1 {
		if x == n {
			return 1
		}
		return 0
	}
	l := lgamma(n+1) - lgamma(x+1) - lgamma(n-x+1) + float64(x)*math.Log(p) + float64(n-x)*math.Log1p(-p)
	return math.Exp(l)
}

// addSeconds adds the second rounds of a share plan to one time bucket's
// cost c: mes are the entities of the answer each kind of partition of ts
// holds, want the rows the answer still wants from the bucket. A
// partition's second round visits its rows at the first round's ratio of
// rows visited to rows returned, and the group waits a round more when
// any of its partitions is asked again.
func (qj *qjudge) addSeconds(c *bucketCost, ts []ptype, mes []float64, want float64) {
	if !qj.shares || c.avail <= 0 || want < 1 {
		return
	}
	whole := c.avail >= want
	n := int(math.Round(math.Min(want, c.avail)))
	none := 1.0
	for k, t := range ts {
		if mes[k] <= 0 {
			continue
		}
		sr := qj.secondRound(n, mes[k]/c.avail, qj.top, whole)
		ratio := 1.0
		if c.per[k][1] > 0 {
			ratio = c.per[k][0] / c.per[k][1]
		}
		c.per[k][0] += sr.rows * ratio
		c.per[k][1] += sr.rows
		c.reqs += t.mult * sr.prob
		c.visited += t.mult * sr.rows * ratio
		none *= math.Pow(1-sr.prob, t.mult)
	}
	c.rounds += 1 - none
}
