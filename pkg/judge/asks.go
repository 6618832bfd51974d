package judge

import (
	"math"
	"slices"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// maxAsks bounds the ways a question is asked (combinations of its known
// fields' bins); beyond it the bins of the fields its table is not keyed
// by are coarser.
const maxAsks = 1 << 18

// ask is one way of asking a question: a combination of its known
// fields' bins (or one favoured entity's values).
type ask struct {
	// weight is the probability of asking it, pv the probability that an
	// entity has one given combination of its values (the keys' rate),
	// pvFilter that of its values the plan filters on (question.Access's
	// Filter: pinned by neither key).
	weight, pv, pvFilter float64
	// comp is the table's components it fixes, per layout field (-1: it
	// does not know the field).
	comp []int32
	// perSkeleton is the probability of asking it for one partition (one
	// combination of the layout's fields it fixes by value).
	perSkeleton float64
	// age is a favoured entity's age fraction (-1 for the law's).
	age float64
	// reps are one value (its index) of each known field's bin, by
	// field name: where the main rows an index points at are (nil for a
	// plan that fetches none).
	reps map[string]int
}

// askField is one known field with a finite set of values: its law, the
// ask law, its layout field (or -1) and its bins.
type askField struct {
	law      *fieldLaw
	lawIdx   int
	lf       int
	bins     []askBin
	filtered bool // the plan filters on it (pinned by neither key)
}

// askBin is a bin of a known field as a question asks it: n values, each
// with probability pw under the population's law and pa under the ask
// law, in the layout component comp (-1 when the layout is not keyed by
// the field); identity is set when each of its values has a partition of
// its own.
type askBin struct {
	n, pw, pa float64
	comp      int32
	identity  bool
	rep       int
}

// asks are the ways question q is asked for the plan reading lay: every
// combination of its known fields' bins, weighed by the ask laws (a
// pick's, else the population's: the picked entity's value), and each
// entity the distribution favours with its own values.
func (qj *qjudge) asks(pl posLaw) []ask {
	fields := qj.askFields(binPrecision)
	for prec := binPrecision - 1; prec >= 1 && combos(fields) > maxAsks; prec-- {
		fields = qj.askFields(prec)
	}
	out := make([]ask, 0, int(math.Min(combos(fields), maxAsks)))
	diffuse := pl.diffuse
	if len(qj.q.Picks()) > 0 {
		diffuse = 1 // a pick draws its values by its own law
	}
	idx := make([]int, len(fields))
	for {
		a := ask{weight: diffuse, pv: 1, pvFilter: 1, comp: qj.noComp(), perSkeleton: diffuse, age: -1, reps: qj.newReps()}
		for k, f := range fields {
			b := f.bins[idx[k]]
			if a.reps != nil {
				a.reps[f.law.name] = b.rep
			}
			a.weight *= b.n * b.pa
			a.perSkeleton *= b.pa
			if !b.identity {
				a.perSkeleton *= b.n
			}
			a.pv *= b.pw
			if f.filtered {
				a.pvFilter *= b.pw
			}
			if f.lf >= 0 {
				a.comp[f.lf] = b.comp
			}
		}
		if a.weight > 0 {
			out = append(out, a)
		}
		k := 0
		for ; k < len(idx); k++ {
			if idx[k]++; idx[k] < len(fields[k].bins) {
				break
			}
			idx[k] = 0
		}
		if k == len(idx) {
			break
		}
	}
	if len(qj.q.Picks()) == 0 {
		out = append(out, qj.favouredAsks(pl, fields)...)
	}
	return out
}

func combos(fields []askField) float64 {
	n := 1.0
	for _, f := range fields {
		n *= float64(len(f.bins))
	}
	return n
}

// newReps is an ask's empty reps when the plan fetches main rows (the
// only reader of them: mainComp), else nil.
func (qj *qjudge) newReps() map[string]int {
	if !qj.acc.Fetches {
		return nil
	}
	return map[string]int{}
}

// noComp is a component per layout field, none fixed (cut from a block
// shared by the question's asks: allocating each alone was most of the
// judge's garbage).
func (qj *qjudge) noComp() []int32 {
	n := len(qj.lay.fields)
	if len(qj.comps) < n {
		qj.comps = make([]int32, 1024*n)
	}
	c := qj.comps[:n:n]
	qj.comps = qj.comps[n:]
	for k := range c {
		c[k] = -1
	}
	return c
}

// askFields bins the question's known fields with a finite set of
// values: a field the layout is keyed by as the layout bins it (by value,
// or split by class), any other at prec significant digits.
func (qj *qjudge) askFields(prec int) []askField {
	var out []askField
	for _, name := range qj.q.Fields() {
		l := qj.j.in.law(name)
		if l == nil {
			continue
		}
		f := askField{law: l, lf: -1, filtered: slices.Contains(qj.acc.Filter, name)}
		for _, p := range qj.q.Picks() {
			if p.Field == name {
				f.lawIdx = l.lawIndex(p.Dist.String())
			}
		}
		for k, lf := range qj.lay.fields {
			if lf.name == name {
				f.lf = k
			}
		}
		switch {
		case f.lf >= 0 && qj.lay.fields[f.lf].class != nil:
			f.bins = qj.classBins(l, f.lawIdx, qj.lay.fields[f.lf].class)
		case f.lf >= 0:
			for c, b := range qj.lay.binned[f.lf].bins {
				f.bins = append(f.bins, askBin{n: b.n, pw: b.pw, pa: b.pa[f.lawIdx], comp: int32(c), identity: true, rep: b.rep})
			}
		default:
			for _, b := range qj.j.in.binsAt(l, prec).bins {
				f.bins = append(f.bins, askBin{n: b.n, pw: b.pw, pa: b.pa[f.lawIdx], comp: -1, rep: b.rep})
			}
		}
		out = append(out, f)
	}
	return out
}

// classBins bins a field the layout hashes: by value bin and class (an
// entry standing for many values evenly over the classes it spreads
// over).
func (qj *qjudge) classBins(l *fieldLaw, lawIdx int, c *classMap) []askBin {
	b := qj.j.in.binsAt(l, binPrecision)
	index := map[[2]int32]int{}
	var out []askBin
	add := func(v int, class int32, n float64) {
		key := [2]int32{b.binOf[v], class}
		k, ok := index[key]
		if !ok {
			k = len(out)
			index[key] = k
			bin := b.bins[key[0]]
			out = append(out, askBin{pw: bin.pw, pa: bin.pa[lawIdx], comp: key[1], rep: v})
		}
		out[k].n += n
	}
	for v := range l.support.Values {
		if cs := c.spread[v]; cs != nil {
			for _, class := range cs {
				add(v, class, l.support.Count(v)/float64(len(cs)))
			}
			continue
		}
		add(v, c.of[v], 1)
	}
	return out
}

// favouredAsks are the asks of the entities pl favours, each with its own
// values and age.
func (qj *qjudge) favouredAsks(pl posLaw, fields []askField) []ask {
	var out []ask
	var e keygen.Entity
	for _, at := range pl.atoms {
		qj.j.in.Pop.Entity(at.index, &e)
		a := ask{weight: at.p, pv: 1, pvFilter: 1, comp: qj.noComp(), perSkeleton: at.p, age: at.age, reps: qj.newReps()}
		for _, f := range fields {
			v, _ := qj.j.in.Pop.Value(&e, f.law.name)
			vi := qj.j.in.valueIndex(f.law, v)
			if vi < 0 {
				a.weight = 0
				break
			}
			a.pv *= f.law.support.Probs[vi]
			if f.filtered {
				a.pvFilter *= f.law.support.Probs[vi]
			}
			if a.reps != nil {
				a.reps[f.law.name] = vi
			}
			if f.lf >= 0 {
				a.comp[f.lf] = qj.lay.compOfValue(qj.j.in, f.lf, vi, v)
			}
		}
		if a.weight > 0 {
			out = append(out, a)
		}
	}
	return out
}

// single reports whether the question's known values pick out one entity
// (an identifying field, or the event time): its answer is that entity,
// at the picked entity's time.
func single(q *question.Question) bool {
	if q.KnowsTime() && q.Population().Spec().Interval > 0 {
		return true
	}
	for _, f := range q.Fields() {
		switch q.Population().FieldKind(f) {
		case "sequence", "guid", "slug":
			return true
		}
	}
	return false
}

// ageQuantiles are the age fractions at which the diffuse picks of pl are
// judged: the midpoints of k equally likely slices.
func ageQuantiles(pl posLaw, k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		target := (float64(i) + 0.5) / float64(k)
		lo, hi := 0.0, 1.0
		for n := 0; n < 50; n++ {
			mid := (lo + hi) / 2
			if pl.cdf(mid) < target {
				lo = mid
			} else {
				hi = mid
			}
		}
		out[i] = math.Min(hi, 1)
	}
	return out
}
