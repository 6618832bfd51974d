package question

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// Bounds are the event times the data spans: the first entity's and the
// newest one's ("now" to the application). Walks over time-bucket
// partitions go no further.
type Bounds struct{ First, Last time.Time }

// BoundsOf are the bounds of a population whose entities [0, n) exist.
func BoundsOf(pop *keygen.Population, n int64) Bounds {
	s := pop.Spec()
	return Bounds{First: s.Start, Last: s.Start.Add(time.Duration(max(n-1, 0)) * s.Interval)}
}

// MaxWalk bounds the time buckets one question walks through.
const MaxWalk = 100_000

// ErrWalk is returned when a question would walk more than MaxWalk
// time buckets.
var ErrWalk = errors.New("question: too many time buckets to walk")

// Execute runs the plan for the picked entity (whose known values the
// application holds) through src and returns the answer: ordered newest
// or oldest first and cut to the limit for Newest and Oldest, in no
// particular order for All. It stops at the first error of src.
func (p *Plan) Execute(ctx context.Context, src Source, picked *keygen.Entity, b Bounds) ([]Row, error) {
	q, a := p.Question, p.acc
	if p.Kind == Point {
		row, ok, err := src.Get(ctx, q.render(a.pk.parts, picked, picked.Time, nil), q.render(a.rk.parts, picked, picked.Time, nil))
		if err != nil || !ok {
			return nil, err
		}
		return []Row{row}, nil
	}
	span := Span{keygen.Ticks(b.First), keygen.Ticks(b.Last)}
	win, hasWin := q.WindowOf(picked.Time, b.Last)
	if hasWin {
		span = Span{max(span.Lo, win.Lo), min(span.Hi, win.Hi)}
		if span.Lo > span.Hi {
			return nil, nil
		}
	}
	var out []Row
	var err error
	read := func(pk string, any bool) bool {
		var rows []Row
		rows, err = src.Query(ctx, p.query(picked, pk, any, span, hasWin))
		out = append(out, rows...)
		return err == nil
	}
	if a.anyPK {
		read("", true)
	} else {
		werr := p.walk(picked, span, func(group []string) bool {
			var rows []Row
			rows, err = p.readGroup(ctx, src, picked, group, span, hasWin, len(out))
			out = append(out, rows...)
			if err != nil {
				return false
			}
			if q.Ordered() && q.Limit > 0 {
				if a.dedupe {
					out = dedupe(out)
				}
				out = q.cut(out)
				return len(out) < q.Limit // older buckets hold only older rows
			}
			return true
		})
		if err == nil { // a request's error stops the walk, which then returns nil
			err = werr
		}
	}
	if err != nil {
		return nil, err
	}
	if a.dedupe {
		out = dedupe(out)
	}
	if q.Ordered() {
		out = q.cut(out)
	}
	if a.fetches {
		return p.fetch(ctx, src, out)
	}
	return out, nil
}

// readGroup reads the partitions of one group of a walk (the hash buckets
// of one time bucket, or the one partition), after older groups gave
// have rows of the answer: at once through a Parallel source, else one
// after another; the rows are in the group's order. A share plan's
// buckets are asked for their shares (readShares).
func (p *Plan) readGroup(ctx context.Context, src Source, picked *keygen.Entity, group []string, span Span, hasWin bool, have int) ([]Row, error) {
	if p.share() > 0 && len(group) > 1 {
		return p.readShares(ctx, src, picked, group, span, hasWin, have)
	}
	var out []Row
	if par, ok := src.(Parallel); ok && len(group) > 1 {
		qs := make([]Query, len(group))
		for i, pk := range group {
			qs[i] = p.query(picked, pk, false, span, hasWin)
		}
		all, err := par.QueryAll(ctx, qs)
		for _, rows := range all {
			out = append(out, rows...)
		}
		return out, err
	}
	for _, pk := range group {
		rows, err := src.Query(ctx, p.query(picked, pk, false, span, hasWin))
		out = append(out, rows...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// cut orders rows as asked and keeps the first Limit.
func (q *Question) cut(rows []Row) []Row {
	slices.SortFunc(rows, func(x, y Row) int {
		c := compareRows(x, y)
		if q.Want == Newest {
			return -c
		}
		return c
	})
	if q.Limit > 0 && len(rows) > q.Limit {
		rows = rows[:q.Limit]
	}
	return rows
}

// compareRows orders rows oldest first: main rows by index (event time
// grows with it), index rows by event time, then by the main row's keys
// in the service's order (keyorder).
func compareRows(x, y Row) int {
	if x.Seq >= 0 && y.Seq >= 0 {
		return cmp.Compare(x.Seq, y.Seq)
	}
	if c := cmp.Compare(x.Ticks, y.Ticks); c != 0 {
		return c
	}
	if x.MainPK != y.MainPK {
		return keyorder.Compare(x.MainPK, y.MainPK)
	}
	return keyorder.Compare(x.MainRK, y.MainRK)
}

// fetch reads the main rows index rows point at, in order; a main row
// gone since its index row was read is left out.
func (p *Plan) fetch(ctx context.Context, src Source, idx []Row) ([]Row, error) {
	out := make([]Row, 0, len(idx))
	if par, ok := src.(Parallel); ok && len(idx) > 1 {
		keys := make([]Key, len(idx))
		for i, r := range idx {
			keys[i] = Key{r.MainPK, r.MainRK}
		}
		rows, found, err := par.GetAll(ctx, keys)
		if err != nil {
			return nil, err
		}
		for i, row := range rows {
			if found[i] {
				out = append(out, row)
			}
		}
		return out, nil
	}
	for _, r := range idx {
		row, ok, err := src.Get(ctx, r.MainPK, r.MainRK)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, row)
		}
	}
	return out, nil
}

// query is the query of one partition (or of the table).
func (p *Plan) query(picked *keygen.Entity, pk string, any bool, span Span, hasWin bool) Query {
	q, a := p.Question, p.acc
	qq := Query{Table: a.table, PK: pk, AnyPK: any, Equal: q.equals(a.filter, picked)}
	if a.time {
		t := keygen.Ticks(picked.Time)
		qq.Time = &Span{t, t}
	} else if hasWin {
		qq.Time = &span
	}
	if !any && a.rk.prefix > 0 {
		prefix := q.render(a.rk.parts[:a.rk.prefix], picked, picked.Time, nil)
		qq.RKFrom, qq.RKTo = prefix, succ(prefix)
	}
	if !any && hasWin && a.rk.order {
		lo, hi := Time(span.Lo), Time(span.Hi)
		if a.rk.desc {
			lo, hi = hi, lo
		}
		parts := a.rk.parts[:a.rk.prefix+1]
		qq.RKFrom, qq.RKTo = q.render(parts, picked, lo, nil), succ(q.render(parts, picked, hi, nil))
	}
	if a.sorted && q.Limit > 0 {
		qq.Top = q.Limit
	}
	return qq
}

// walk yields the partitions of the question group by group: one group
// when the time is not in the PartitionKey, else one per time bucket of
// the span, newest first for Newest and oldest first otherwise, each
// group every combination of the hash buckets. It stops when yield
// returns false.
func (p *Plan) walk(picked *keygen.Entity, span Span, yield func([]string) bool) error {
	q, pk := p.Question, p.acc.pk
	combos := bucketCombos(pk)
	group := func(at time.Time) []string {
		out := make([]string, 0, len(combos))
		for _, c := range combos {
			out = append(out, q.render(pk.parts, picked, at, c))
		}
		return out
	}
	if !pk.times {
		yield(group(picked.Time))
		return nil
	}
	lo, hi := pk.unit.Truncate(Time(span.Lo)), Time(span.Hi)
	dir, at := 1, lo
	if q.Want == Newest {
		dir, at = -1, pk.unit.Truncate(hi)
	}
	for n := 0; !at.Before(lo) && !at.After(hi); n++ {
		if n == MaxWalk {
			return ErrWalk
		}
		if !yield(group(at)) {
			return nil
		}
		at = pk.unit.Add(at, dir)
	}
	return nil
}

// bucketCombos lists every combination of the enumerated hash and modulo
// buckets (one empty combination when there are none).
func bucketCombos(pk pkShape) []map[int]int64 {
	out := []map[int]int64{{}}
	for _, k := range pk.hashes {
		var next []map[int]int64
		for _, c := range out {
			for b := int64(0); b < pk.parts[k].Buckets; b++ {
				m := map[int]int64{k: b}
				for kk, v := range c {
					m[kk] = v
				}
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

// dedupe drops the second and later rows of one entity (a scheme's
// secondary rows share its partition and carry its fields).
func dedupe(rows []Row) []Row {
	seen := make(map[int64]bool, len(rows))
	out := rows[:0]
	for _, r := range rows {
		if r.Seq >= 0 && seen[r.Seq] {
			continue
		}
		seen[r.Seq] = true
		out = append(out, r)
	}
	return out
}
