package judge

import (
	"encoding/binary"
	"math"
)

// A fan-out by shares (question.Share), or an index read over hash
// buckets, asks each of its buckets for a share s of the answer's n rows,
// then asks again, at once, each bucket whose share came back full and
// whose last row ranks below n among the rows the first round brought
// (question.Plan's again), for the n − rank rows after it.
//
// When the group holds at least the rows the answer wants, that rank is
// s plus, over the other buckets, the rows each brought that are newer
// than the bucket's last (mergedRound): a bucket whose share came back
// full may hold more rows newer than it than the first round brought, so
// a bucket is asked again whenever the rows brought leave it below n,
// even when its last row is not in the answer. When the group holds
// fewer rows than the answer wants (n its every row), every full bucket
// is asked again, for the x − s rows after its share, x a binomial(n, p)
// count (shortRound).

// second is a bucket's second round: the chance it is asked again and the
// rows it then returns, on average.
type second struct{ prob, rows float64 }

// bucketKind is a kind of hash bucket of a group: mult alike buckets,
// each holding p of the group's rows of the answer.
type bucketKind struct{ mult, p float64 }

// secondKey names secondRound's arguments.
type secondKey struct {
	n, s, i int
	whole   bool
	kinds   string
}

// secondRound is the second round of a bucket of kind i of a share
// plan's group (kinds are the group's buckets that hold rows of the
// answer): n the rows of the answer in the group, s each bucket's $top;
// whole is set when the group holds at least the rows the answer wants.
// Remembered by its arguments.
func (qj *qjudge) secondRound(n, s int, kinds []bucketKind, i int, whole bool) second {
	b := make([]byte, 0, 16*len(kinds))
	for _, k := range kinds {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(k.mult))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(k.p))
	}
	key := secondKey{n, s, i, whole, string(b)}
	if v, ok := qj.seconds[key]; ok {
		return v
	}
	v := shortRound(n, kinds[i].p, s)
	if whole {
		v = mergedRound(n, s, kinds, i)
	}
	if qj.seconds == nil {
		qj.seconds = map[secondKey]second{}
	}
	qj.seconds[key] = v
	return v
}

// shortRound is the second round of a bucket of share p of a group that
// holds n rows, fewer than the answer wants: asked again whenever its x
// of them, a binomial(n, p) count, fill its share s, for the x − s rows
// after it.
func shortRound(n int, p float64, s int) second {
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
		out.prob += pr
		out.rows += pr * float64(x-s)
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
	kinds, of := qj.kinds[:0], qj.kindOf[:0]
	for k, t := range ts {
		of = append(of, len(kinds))
		if mes[k] > 0 {
			kinds = append(kinds, bucketKind{t.mult, mes[k] / c.avail})
		}
	}
	qj.kinds, qj.kindOf = kinds, of
	none := 1.0
	for k, t := range ts {
		if mes[k] <= 0 {
			continue
		}
		sr := qj.secondRound(n, qj.top, kinds, of[k], whole)
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
