package question

import (
	"context"
	"math"
	"slices"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// MarginSD is how many standard deviations above its mean a bucket's
// share of a fan-out's answer is asked for (Share).
const MarginSD = 3

// Share is the rows a fan-out asks each of b hash buckets for when the
// question wants the first n rows in RowKey order: a new entity falls in
// each bucket with chance 1/b, so the n rows of the answer split over
// the buckets as a binomial(n, 1/b) count each, of mean n/b and variance
// n(1/b)(1-1/b). Each bucket is asked for ⌈n/b⌉ plus MarginSD standard
// deviations (rounded up), at most n: a bucket holds more of the answer
// than that rarely, and only then is it asked again (Execute's second
// round). One bucket, or no limit, is asked for n.
func Share(n int, b int64) int {
	if n <= 0 || b <= 1 {
		return n
	}
	p := 1 / float64(b)
	sd := math.Sqrt(float64(n) * p * (1 - p))
	s := int((int64(n)+b-1)/b) + int(math.Ceil(MarginSD*sd))
	return min(s, n)
}

// share is the rows the plan asks of each bucket of a group, or 0 when
// it asks each for the whole answer: a fan-out over hash buckets for the
// first Limit rows in RowKey order asks each for its Share, and so does
// an index read whose index table spreads the rows over hash buckets
// (its index rows merged and cut as a fan-out's rows are, before the
// point reads of the main rows).
func (p *Plan) share() int {
	q, a := p.Question, p.acc
	if (p.Kind != FanOut && p.Kind != Index) || !q.Ordered() || q.Limit <= 0 || !a.sorted || a.fanOut() <= 1 {
		return 0
	}
	if s := Share(q.Limit, a.fanOut()); s < q.Limit {
		return s
	}
	return 0
}

// ShareTop is the $top the plan asks each hash bucket of a fan-out, or
// of an index table in hash buckets, for in its first round (Share), or 0
// when it asks each for the whole answer.
func (p *Plan) ShareTop() int { return p.share() }

// readShares reads one group of a fan-out by shares: each bucket asked
// for the plan's share at once, then, at once again, each bucket whose
// share came back full and whose last row could still be in the answer
// asked for the rows after it that could be (at most Limit less have,
// the rows older groups gave, less the rows ranked up to its last row).
// A bucket's rows past its last one rank after it, so the second round
// makes the answer exact.
func (p *Plan) readShares(ctx context.Context, src Source, picked *keygen.Entity, group []string, span Span, hasWin bool, have int) ([]Row, error) {
	top := p.share()
	qs := make([]Query, len(group))
	for i, pk := range group {
		qs[i] = p.query(picked, pk, false, span, hasWin)
		qs[i].Top = top
	}
	got, err := queryGroup(ctx, src, qs)
	if err != nil {
		return slices.Concat(got...), err
	}
	again := p.again(got, qs, have)
	if len(again) == 0 {
		return slices.Concat(got...), nil
	}
	more, err := queryGroup(ctx, src, again)
	return slices.Concat(append(got, more...)...), err
}

// again are the second round's queries of a share plan's group: for
// each bucket whose answer filled its $top, the rows after its last row,
// as many as could still be in the answer.
func (p *Plan) again(got [][]Row, qs []Query, have int) []Query {
	q := p.Question
	merged := q.cut(slices.Concat(got...)) // cut sorts a copy: Concat allocates
	if p.acc.dedupe {
		merged = q.cut(dedupe(merged))
	}
	var out []Query
	for i, rows := range got {
		if len(rows) < qs[i].Top || len(rows) == 0 {
			continue // the bucket gave all it holds
		}
		last := rows[len(rows)-1]
		rank := slices.IndexFunc(merged, func(r Row) bool { return sameRow(r, last) }) + 1
		if rank == 0 {
			continue // cut from the answer: its later rows rank after it
		}
		if need := q.Limit - have - rank; need > 0 {
			next := qs[i]
			next.RKAfter, next.Top = last.RK, need
			out = append(out, next)
		}
	}
	return out
}

// sameRow reports whether x and y are one row of the answer.
func sameRow(x, y Row) bool {
	return x.Seq == y.Seq && x.Ticks == y.Ticks && x.MainPK == y.MainPK && x.MainRK == y.MainRK
}

// queryGroup sends queries at once through a Parallel source, else one
// after another; the rows are per query, in the order asked.
func queryGroup(ctx context.Context, src Source, qs []Query) ([][]Row, error) {
	if par, ok := src.(Parallel); ok && len(qs) > 1 {
		return par.QueryAll(ctx, qs)
	}
	out := make([][]Row, len(qs))
	for i, qq := range qs {
		rows, err := src.Query(ctx, qq)
		out[i] = rows
		if err != nil {
			return out[:i+1], err
		}
	}
	return out, nil
}
