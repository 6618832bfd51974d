package judge

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// MaxParallel is how many requests a question has in flight at once
// (an application's fan-out of partitions, or its point reads after an
// index, goes out in waves of at most this many): what its rounds count.
const MaxParallel = 64

// ptype is a kind of partition an ask reads in each time bucket: mult of
// them, each holding share of the entities and match of those with the
// asked values, in group key of the layout; mass is the probability of
// the ask on each of them (for their load).
type ptype struct {
	key         int32
	mult        float64
	share       float64
	match       float64
	mass        float64
	perQuestion bool    // every question of the ask reads every partition of it (a table scan)
	pv          float64 // the ask's: the chance an entity has the values asked
	// rng is the share of the entities in a partition's RowKey range:
	// share, or, when the RowKey's prefix pins known values, those of
	// them with the values (match, less the filters' part).
	rng float64
	// empty is set for the hash buckets no value of an enumerated field
	// renders to (emptyBuckets): asked all the same, they hold nothing.
	empty bool
}

// ranged sets t's RowKey range share for ask a (ptype.rng).
func (qj *qjudge) ranged(t ptype, a ask) ptype {
	t.rng = t.share
	if qj.rkPins && a.pvFilter > 0 {
		t.rng = t.match / a.pvFilter
	}
	return t
}

// ptypes are the partitions ask a reads: the one its known values lead
// to (its hash buckets and classes, when the plan asks them all), or
// every partition of the table.
func (qj *qjudge) ptypes(a ask) []ptype {
	lay := qj.lay
	if lay.unique {
		// A partition per entity: a scan reads every one of them, a key
		// computed from what is known reads the entity's own.
		n := math.Max(qj.s.Entities, 1)
		if qj.acc.AnyPK {
			return []ptype{qj.ranged(ptype{key: -1, mult: n, share: 1 / n, match: a.pv / n, mass: a.weight, perQuestion: true, pv: a.pv}, a)}
		}
		return []ptype{qj.ranged(ptype{key: -1, mult: 1, share: 1 / n, match: a.pv / n, mass: a.weight, pv: a.pv}, a)}
	}
	if qj.acc.AnyPK {
		return qj.scanTypes(a)
	}
	var out []ptype
	comp := append([]int32(nil), a.comp...)
	idx := make([]int, len(qj.classFields))
	for {
		match := a.pv
		for n, k := range qj.classFields {
			comp[k] = int32(idx[n])
			match *= lay.fields[k].class.share[idx[n]]
		}
		// A partition no entity is written to is asked all the same (and
		// answers nothing).
		t := ptype{key: -1, mult: 1, mass: a.perSkeleton / lay.hashes, pv: a.pv}
		if g := lay.group(comp); g >= 0 {
			t.key, t.share, t.match = g, lay.groups[g].share/lay.hashes, match/lay.hashes
		}
		if qj.enumHash {
			t.mult, t.mass = lay.hashes, a.perSkeleton
		}
		out = append(out, qj.ranged(t, a))
		n := 0
		for ; n < len(idx); n++ {
			if idx[n]++; idx[n] < len(lay.fields[qj.classFields[n]].class.share) {
				break
			}
			idx[n] = 0
		}
		if n == len(idx) {
			return qj.emptyBuckets(out, a)
		}
	}
}

// emptyBuckets adds to the partitions ts of ask a the hash buckets the
// plan asks that no value of its enumerated fields renders to: a hash
// of a field of few values (hash(status) % 8, status one of 3 values)
// fills at most as many buckets as it has values, but an application
// that does not know the value asks every bucket, as question.Plan's
// walk does, each an empty answer for a request.
func (qj *qjudge) emptyBuckets(ts []ptype, a ask) []ptype {
	all, filled := 1.0, 1.0
	for _, k := range qj.classFields {
		c := qj.lay.fields[k].class
		for _, p := range c.pieces {
			all *= float64(p.Buckets)
		}
		filled *= float64(len(c.share))
	}
	if all <= filled {
		return ts
	}
	t := ptype{key: -1, mult: all - filled, mass: a.perSkeleton / qj.lay.hashes, pv: a.pv, empty: true}
	if qj.enumHash {
		t.mult *= qj.lay.hashes
	}
	return append(ts, t)
}

// scanTypes are the partitions a scan reads: every partition of the
// table, its groups alike to three significant digits taken together
// (their load is put on each group by scanLoads).
func (qj *qjudge) scanTypes(a ask) []ptype {
	lay := qj.lay
	if qj.scanKinds == nil {
		qj.scanKinds = map[uint64]int{}
		for g, gr := range lay.groups {
			share := gr.share / lay.hashes
			key := math.Float64bits(share) &^ (1<<48 - 1) // alike to about 6%
			k, ok := qj.scanKinds[key]
			if !ok {
				k = len(qj.scan)
				qj.scanKinds[key] = k
				qj.scan = append(qj.scan, ptype{key: -1, share: share, perQuestion: true})
			}
			qj.scan[k].mult += lay.partitionsPerGroup(g)
		}
		if g := lay.generations(qj.s); lay.unit <= 0 && g > 0 {
			// The retired keys' partitions too, each a life's rows.
			for k := range qj.scan {
				qj.scan[k].mult *= 1 + g
				qj.scan[k].share /= 1 + g
			}
		}
	}
	out := make([]ptype, len(qj.scan))
	for k, t := range qj.scan {
		t.match, t.mass, t.pv = t.share*a.pv, a.weight, a.pv
		out[k] = qj.ranged(t, a)
	}
	return out
}

// eval is an ask's cost at one moment and picked age: its figures, and
// per partition kind and time bucket how often it is read (hit.w) and
// what one read visits and counts there.
type eval struct {
	partitions, requests, rounds, visited, returned, gets float64
	hits                                                  []hit
	at                                                    map[int]int // hits by partition kind and bucket, when many
	// spare is an emptied map for at, kept from an eval used before.
	spare map[int]int
	// squares are the figures' mean squares, for an eval merged over
	// moments and ages (their spread from question to question).
	squares [6]float64
	// cap is what a partition's bucket holds, for the rows a pass owes
	// (hit.over).
	cap float64
}

// hit is how a kind of partition (t) in a time bucket (b) is read by an
// ask: w reads, wv rows visited and wc rows counted over them, wcc the sum
// of the counts' squares (the load's variance). In an eval merged over
// moments (evalMemo), most is the most rows one read visits at any moment
// and over the rows its reads visit beyond a partition's bucket, summed
// over reads as w is (passes.go).
type hit struct {
	t                          int
	b                          int32
	w, wv, wc, wcc, most, over float64
}

// addWeighted adds hit h, share of the time, to e's hits.
func (e *eval) addWeighted(h hit, share float64) {
	m := e.addTotals(h.t, h.b, share*h.w, share*h.wv, share*h.wc, share*h.wcc)
	m.most, m.over = math.Max(m.most, h.most), m.over+share*h.over
}

// addHit adds w reads visiting v rows and counting c each, merged with
// the hit of the same partition kind and bucket.
func (e *eval) addHit(t int, b int32, w, v, c float64) {
	h := e.addTotals(t, b, w, w*v, w*c, w*c*c)
	if w > 0 {
		h.most, h.over = math.Max(h.most, mostRows(v)), h.over+w*math.Max(v-e.cap, 0)
	}
}

// addTotals adds reads to the hit of partition kind t in bucket b, and
// returns it.
func (e *eval) addTotals(t int, b int32, w, wv, wc, wcc float64) *hit {
	h := e.hitOf(t, b)
	h.w, h.wv, h.wc, h.wcc = h.w+w, h.wv+wv, h.wc+wc, h.wcc+wcc
	return h
}

// hitOf is the hit of partition kind t in bucket b, added (no reads) if
// e has none.
func (e *eval) hitOf(t int, b int32) *hit {
	if e.at != nil {
		if k, ok := e.at[t*(recent+1)+int(b)]; ok {
			return &e.hits[k]
		}
	} else {
		for i := range e.hits {
			if h := &e.hits[i]; h.t == t && h.b == b {
				return h
			}
		}
	}
	e.hits = append(e.hits, hit{t: t, b: b})
	if e.at == nil && len(e.hits) > 16 {
		if e.at, e.spare = e.spare, nil; e.at == nil {
			e.at = make(map[int]int, 64)
		}
		for i, h := range e.hits {
			e.at[h.t*(recent+1)+int(h.b)] = i
		}
	} else if e.at != nil {
		e.at[t*(recent+1)+int(b)] = len(e.hits) - 1
	}
	return &e.hits[len(e.hits)-1]
}

// figures are the eval's figures in QuestionCost's order.
func (e *eval) figures() [6]float64 {
	return [6]float64{e.partitions, e.requests, e.rounds, e.visited, e.returned, e.gets}
}

// memoKey names an ask for evalMemo: the ages exactly, and its rows'
// laws to about two significant digits (the leading bits of each figure:
// asks that differ by less read alike); lists of more than two kinds of
// partition are named by a string of all their figures.
type memoKey struct {
	ages     string
	pv       uint64
	pvFilter uint64
	kinds    [6]uint64
	more     string
}

// approx is a figure's sign, exponent and seven leading bits of mantissa.
func approx(f float64) uint64 { return math.Float64bits(f) &^ (1<<45 - 1) }

// evalMemo is the ask's reads averaged over the moments it is judged at
// and the ages its entity is picked at, remembered for asks alike
// (memoKey).
func (qj *qjudge) evalMemo(a ask, ts []ptype, ages []float64) *eval {
	k := memoKey{pv: approx(a.pv), pvFilter: approx(a.pvFilter)}
	b := make([]byte, 0, 8*len(ages)+1)
	if qj.diffuseAsk {
		b = append(b, 'd') // its picked entity's age is the law's, not the ages'
	}
	for _, age := range ages {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(age))
	}
	k.ages = string(b)
	if !qj.acc.AnyPK { // a scan of the table reads every partition, whatever is asked
		if len(ts) <= 2 {
			for i, t := range ts {
				k.kinds[3*i], k.kinds[3*i+1], k.kinds[3*i+2] = approx(t.share), approx(t.match), approx(t.mult)
			}
		} else {
			m := make([]byte, 0, 24*len(ts))
			for _, t := range ts {
				m = binary.LittleEndian.AppendUint64(m, approx(t.share))
				m = binary.LittleEndian.AppendUint64(m, approx(t.match))
				m = binary.LittleEndian.AppendUint64(m, approx(t.mult))
			}
			k.more = string(m)
		}
	}
	if e, ok := qj.memo[k]; ok {
		return e
	}
	all := &eval{cap: qj.l.cap}
	us := qj.births()
	share := 1 / float64(len(qj.nows)*len(ages)*len(us))
	for _, now := range qj.nows {
		for _, age := range ages {
			for _, u := range us {
				e := qj.eval(ts, qj.s.at(now), now, age, u)
				all.merge(e, share)
			}
		}
	}
	for _, now := range qj.edges {
		for _, age := range ages {
			for _, u := range us {
				e := qj.eval(ts, qj.s.at(now), now, age, u)
				for _, h := range e.hits {
					m := all.hitOf(h.t, h.b)
					m.most = math.Max(m.most, h.most)
				}
			}
		}
	}
	qj.memo[k] = all
	return all
}

// merge adds eval e, share of the moments and picks judged, to all.
func (all *eval) merge(e *eval, share float64) {
	for _, h := range e.hits {
		all.addWeighted(h, share)
	}
	v := e.figures()
	all.partitions += share * v[0]
	all.requests += share * v[1]
	all.rounds += share * v[2]
	all.visited += share * v[3]
	all.returned += share * v[4]
	all.gets += share * v[5]
	for i := range v {
		all.squares[i] += share * v[i] * v[i]
	}
}

// eval is the cost of reading partitions ts at moment now, when the
// table is s, for an entity picked at age fraction age (its key with a
// lifetime born u of a life before it: lifetime.go).
// The eval is qj's scratch one, valid until the next call.
func (qj *qjudge) eval(ts []ptype, s Size, now time.Time, age, u float64) *eval {
	e := qj.scratch.reset(qj.l.cap)
	qj.scratch = e
	switch {
	case qj.plan.Kind == question.Point:
		e.partitions, e.requests, e.rounds, e.visited, e.returned, e.gets = 1, 1, 1, 1, 1, 1
		e.addHit(0, qj.pickedBucket(s, now, age, u), 1, 1, 1)
		return e
	case qj.acc.RKPoint && qj.x > 0 && qj.acc.TimeUnit == keygen.NoUnit && len(qj.acc.Hashed) == 0:
		// An index row by its keys, its partition computed; one whose
		// PartitionKey holds a time bucket or hash bucket the question
		// does not know is looked for in each of them (read).
		e.partitions, e.requests, e.rounds, e.visited, e.returned = 1, 1, 1, 1, 1
		e.addHit(0, qj.pickedBucket(s, now, age, u), 1, 1, 1)
	default:
		qj.read(e, ts, s, now, age, u)
	}
	if qj.acc.Fetches && e.returned > 0 {
		e.requests += e.returned
		e.gets += e.returned
		e.rounds += math.Max(math.Min(1, e.returned), e.returned/MaxParallel)
		e.visited += e.returned
		e.partitions += qj.j.distinctMain(e.returned)
	}
	return e
}

// reset empties e for reuse (a new one when e is nil), keeping its
// memory, and returns it.
func (e *eval) reset(cap float64) *eval {
	if e == nil {
		return &eval{cap: cap}
	}
	hits, spare := e.hits[:0], e.spare
	if e.at != nil {
		spare = e.at
		clear(spare)
	}
	*e = eval{cap: cap, hits: hits, spare: spare}
	return e
}

// pickedBucket is the time bucket of the layout holding the picked
// entity's time in table s at moment now (of a layout keyed by its key
// with a lifetime, born u of a life before it: whether it is live).
func (qj *qjudge) pickedBucket(s Size, now time.Time, age, u float64) int32 {
	if qj.lay.unit <= 0 && qj.keyed {
		_, _, live := qj.keyLife(s.Span, time.Duration(age*float64(s.Span)), u)
		return lifeBucket(live)
	}
	if qj.lay.unit <= 0 {
		return 0
	}
	b, _, _ := bucketAt(time.Duration(age*float64(s.Span)), phaseOf(now, qj.lay.cal, qj.lay.unit), qj.lay.unit)
	return min(b, recent)
}

// read is the cost of the plan's queries: each time bucket's partitions
// read at once, bucket after bucket, a walk stopping once it has the
// question's limit (the chance of reaching each bucket a Poisson law of
// the rows before it).
func (qj *qjudge) read(e *eval, ts []ptype, s Size, now time.Time, age, u float64) {
	segs := qj.segments(s, now, age, u)
	totalMult, holding := 0.0, 0.0
	for _, t := range ts {
		totalMult += t.mult
		if !t.empty {
			holding += t.mult
		}
	}
	found, all := 0.0, 0.0
	for _, g := range segs {
		want := float64(qj.q.Limit)
		if qj.walks() {
			want -= found
		}
		c := qj.bucketCost(ts, s, g, totalMult, holding, want)
		all += g.n * c.avail
		// How many of the segment's buckets are read: all of them, or for
		// a walk each with the chance the rows before it are fewer than
		// the limit.
		w := g.n
		if qj.walks() {
			w = qj.reached(found, c.avail, g.n)
			found += g.n * c.avail
		}
		e.partitions += w * c.parts
		e.requests += w * c.reqs
		e.rounds += w * c.rounds
		e.visited += w * c.visited
		e.returned += w * c.ents
		for k, t := range c.per {
			e.addHit(k, g.b, w, t[0], t[1])
		}
		if qj.walks() && poissonBelow(qj.q.Limit, found) < 1e-9 {
			break
		}
	}
	if qj.ordered {
		e.returned = minPoisson(qj.q.Limit, all)
	}
}

// walks reports whether the plan reads time buckets one after another,
// newest (or oldest) first, stopping once it has the limit, as
// question.Plan's walk does. A table scan is one query over every
// partition, which the service answers in key order, not by time: it
// visits every time bucket whatever the limit.
func (qj *qjudge) walks() bool { return qj.ordered && !qj.acc.AnyPK }

// reached is how many of n alike buckets, each holding m of the rows a
// walk wants on average, it reads after finding found: Σ P(found + i·m <
// limit) over i, added up bucket by bucket for a short run and by its
// integral for a long one.
func (qj *qjudge) reached(found, m, n float64) float64 {
	k := qj.q.Limit
	if n <= 8 || m <= 0 || m > math.Sqrt(float64(k))/2 {
		if m <= 0 {
			return n * poissonBelow(k, found)
		}
		sum := 0.0
		for i := 0.0; i < n; i++ {
			p := poissonBelow(k, found+i*m)
			sum += p
			if p < 1e-9 {
				break
			}
		}
		return sum
	}
	// Σ_i Q(k, x_i) ≈ (1/m)∫ Q(k, x) dx, and ∫_0^X Q(k, x) dx = E[min(k, Poisson(X))].
	lo, hi := math.Max(found-m/2, 0), found+(n-0.5)*m
	return math.Max(0, (minPoisson(k, hi)-minPoisson(k, lo))/m)
}

// bucketCost is one time bucket's reads: its partitions' totals, and per
// partition kind what one partition's read visits and counts.
type bucketCost struct {
	parts, reqs, rounds, visited, ents float64
	// avail are the matching entities the bucket holds (ents, those its
	// queries return, stop at a $top).
	avail float64
	per   [][2]float64
}

// bucketCost is the cost of one time bucket g of the partitions ts
// (totalMult of them, holding of them not empty: the picked entity is in
// one of those), of which want rows of the answer are still wanted (a
// share plan's second rounds ask for them: addSeconds).
func (qj *qjudge) bucketCost(ts []ptype, s Size, g seg, totalMult, holding, want float64) bucketCost {
	c := bucketCost{per: qj.per[:0]}
	qj.mes = qj.mes[:0]
	longest := 0.0
	for _, t := range ts {
		r := s.within(g.dRange) * t.rng * qj.rowsFactor
		me := s.within(g.dMatch) * t.match
		// The picked entity has the values it is asked for: the matches
		// are it and, of the others, those the law gives.
		own := 0.0
		if g.own > 0 && holding > 0 && qj.byEntity && !t.empty {
			own = g.own / (holding * math.Max(g.n, 1)) // in one of the segment's g.n buckets
		}
		if qj.isSingle {
			me = own
		} else {
			me += own * (1 - t.pv)
		}
		r += own * qj.rowsFactor * (1 - t.rng)
		if qj.acc.RKPoint { // the RowKey computed: a partition's query reads its one row, if there
			r, me = own*qj.rowsFactor, own
		}
		m := me * qj.rowsFactor
		reqs, visited, rows, ents := qj.query(r, m, me)
		exists := t.mult
		if t.perQuestion { // a table scan reads the partitions that exist
			held := qj.held(r)
			exists *= held
			reqs *= held
		}
		c.parts += exists
		c.reqs += t.mult * reqs
		c.visited += t.mult * visited
		c.ents += t.mult * ents
		c.avail += t.mult * me
		longest = math.Max(longest, reqs)
		c.per = append(c.per, [2]float64{visited, rows})
		qj.mes = append(qj.mes, me)
	}
	c.rounds = math.Max(longest, c.reqs/MaxParallel)
	if totalMult <= 1 || qj.acc.AnyPK {
		// One partition's pages, or a table scan's: one query whose every
		// page waits for the continuation the one before returns.
		c.rounds = c.reqs
	}
	qj.addSeconds(&c, ts, qj.mes, want)
	qj.per = c.per // reused by the next bucket's (read uses c.per before)
	return c
}

// held is the chance that a partition a table scan crosses holds any of
// the r rows it holds on average in the query's range: its page ends at
// the partition's boundary (question.Model's paging), so a partition
// holding none costs no request. Keys drawn from few values fill a
// partition as a Poisson count does (1 - e^-r per entity's rows); a
// PartitionKey of its own per entity (a sequence, a guid) holds its one
// entity or nothing, so the chance is the mean itself, at most 1.
func (qj *qjudge) held(r float64) float64 {
	x := r / qj.rowsFactor
	if qj.lay.unique {
		return math.Min(1, x)
	}
	return 1 - math.Exp(-x)
}

// query is one partition's query over a range holding r rows (m of them
// matching, me entities): its requests, rows visited, rows returned and
// entities found. With a $top it stops at the page that reaches it
// (visiting the rows up to the top-th match).
func (qj *qjudge) query(r, m, me float64) (reqs, visited, rows, ents float64) {
	if qj.top > 0 {
		rows = qj.minPoisson(qj.top, m)
		visited = r
		if m > 0 {
			visited = math.Min(r, rows*r/m)
		}
		ents = qj.minPoisson(qj.top, me)
		page := math.Min(float64(qj.top), azure.PageRows)
		return math.Max(1, math.Ceil(math.Max(rows/page, visited/question.PageVisits)-1e-9)), visited, rows, ents
	}
	return pages(m, r), r, m, me
}

// attribute puts an ask's reads (merged over the moments and ages it is
// judged at) on the partitions they visit.
func (qj *qjudge) attribute(a ask, ts []ptype, e *eval) {
	l := qj.l
	for _, h := range e.hits {
		t := ts[h.t]
		if t.key < 0 {
			continue
		}
		k := pkey{int32(qj.x), t.key, h.b}
		f := qj.rate * t.mass
		if h.b == recent {
			f /= math.Max(qj.lay.buckets(qj.s)-recent, 1)
		}
		l.addTotals(k, f*h.wv, f*h.wc, f*h.wcc, 0)
		l.charge(k, f*h.wv, qj.q.Name)
		if qj.enumHash && t.mult > 1 {
			// One question reads all t.mult hash buckets of its values.
			l.addJoint(k, f*h.wc, f*h.wcc, t.mult)
		}
		if h.w > 0 {
			l.reads(k, f*h.w)
			l.passes(k, h.most, h.wv/h.w, f*h.over, f*h.w, qj.q.Name, e.partitions <= 1)
		}
	}
	if qj.acc.Fetches && e.returned > 0 {
		qj.fetch[compKey(qj.j.mainComp(qj.q, a))] += qj.rate * a.weight * e.returned
	}
}

// minPoisson is minPoisson(k, mean), remembered: a question's queries
// ask it again and again of the same rows.
func (qj *qjudge) minPoisson(k int, mean float64) float64 {
	key := poissonKey{k, math.Float64bits(mean)}
	if v, ok := qj.poisson[key]; ok {
		return v
	}
	v := minPoisson(k, mean)
	if qj.poisson == nil {
		qj.poisson = map[poissonKey]float64{}
	}
	qj.poisson[key] = v
	return v
}

// poissonKey names minPoisson's arguments exactly.
type poissonKey struct {
	k    int
	mean uint64
}
