package judge

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// qjudge is one question judged under one scheme at one size.
type qjudge struct {
	j    *judging
	l    *loads
	s    Size
	q    *question.Question
	plan *question.Plan
	acc  question.Access
	x    int // the layout the plan reads
	lay  *layout
	rate float64
	// rowsFactor is the rows of an entity in the query's RowKey range.
	rowsFactor float64
	// top is each query's $top (0: none); ordered is set for a walk that
	// stops once it has the question's limit.
	top     int
	ordered bool
	// shares is set for a fan-out by shares (or an index read over hash
	// buckets): top is each bucket's share, and a bucket may be asked
	// again (shares.go); seconds remembers secondRound's answers; mes,
	// kinds and kindOf are bucketCost's and addSeconds' scratch.
	shares  bool
	seconds map[secondKey]second
	mes     []float64
	kinds   []bucketKind
	kindOf  []int
	// enumHash is set when the plan asks every hash bucket of the values
	// new for every entity; classFields are the layout's fields it
	// enumerates by class.
	enumHash    bool
	classFields []int
	isSingle    bool
	// byEntity is set when the question's values are a picked entity's
	// (no pick of its own): that entity is among the matches.
	byEntity bool
	// life is the life of a key the question knows (lifetime.go), of
	// field lifeField; keyed is set when the plan reads that key's own
	// partition.
	life      time.Duration
	lifeField string
	keyed     bool
	// pl is the law the question's entities are picked by, diffuseAsk set
	// while an ask of its diffuse part is judged (not a favoured entity's).
	pl         posLaw
	diffuseAsk bool
	// rkPins is set when the RowKey's computed prefix pins known values
	// the PartitionKey does not (question.Access): a range holds the
	// entities with them only; rangeKeyed when those include the key
	// with a lifetime, whose rows the range holds.
	rkPins, rangeKeyed bool
	nows               []time.Time
	edges              []time.Time // edge moments: for the largest pass only (passes.go)
	memo               map[memoKey]*eval
	fetch              fetches
	// scan are a table scan's kinds of partition (scanKinds finds them by
	// share).
	scan      []ptype
	scanKinds map[uint64]int
	// scratch, per and segs are memory reused from one eval to the next
	// (cost.go, segments.go).
	scratch  *eval
	per      [][2]float64
	segs     []seg
	poisson  map[poissonKey]float64 // minPoisson's, by its arguments
	comps    []int32                // the block noComp cuts asks' comps from
	scanFill *[recent + 1]float64   // fills(lay, s), for scanLoads
}

// questions asks every question at size s and puts each on the
// partitions its plan reads, at the rate the mix asks it.
func (j *judging) questions(ctx context.Context, l *loads, s Size, f *Figures) error {
	if len(j.in.Questions) == 0 {
		return nil
	}
	weights := j.in.QuestionWeights()
	total := 0.0
	for k, q := range j.in.Questions {
		if err := ctx.Err(); err != nil {
			return err
		}
		rate, dist := j.in.questionRate(k)
		qc, err := j.question(ctx, l, s, q, rate, dist)
		if err != nil {
			return err
		}
		f.Questions = append(f.Questions, qc)
		f.QuestionMs += weights[k] * qc.Ms
		total += weights[k]
	}
	f.QuestionMs /= total
	return nil
}

// question judges q asked at rate with entities picked by dist.
func (j *judging) question(ctx context.Context, l *loads, s Size, q *question.Question, rate float64, dist keygen.Distribution) (QuestionCost, error) {
	plan := question.Derive(q, j.scheme)
	qj := &qjudge{j: j, l: l, s: s, q: q, plan: plan, acc: plan.Access(), rate: rate, memo: map[memoKey]*eval{}, isSingle: single(q), fetch: fetches{}}
	for k, ix := range j.scheme.Indexes {
		if ix.Name == qj.acc.Table {
			qj.x = k + 1
		}
	}
	qj.lay = j.lays[qj.x]
	qj.byEntity = len(q.Picks()) == 0
	qj.setupLife()
	qj.setup()
	qc := QuestionCost{Name: q.Name, Plan: string(plan.Kind), Label: plan.Label(), Why: plan.Why, PerSec: rate}
	pl := j.in.positions(dist, s, j.newEntities())
	qj.pl = pl
	sum, sq, err := qj.sums(ctx, qj.asks(pl), qj.ages(pl))
	if err != nil {
		return qc, err
	}
	j.spreadFetches(l, qj.fetch)
	qc.PartitionsPerQuestion, qc.RequestsPerQuestion, qc.RoundsPerQuestion = sum[0], sum[1], sum[2]
	qc.RowsVisitedPerQuestion, qc.RowsPerQuestion = sum[3], sum[4]
	qc.RequestsSD = math.Sqrt(math.Max(sq[1]-sum[1]*sum[1], 0))
	qc.RowsVisitedSD = math.Sqrt(math.Max(sq[3]-sum[3]*sum[3], 0))
	gets := sum[5]
	ru := model.QueryUnits(int(math.Round(qc.RequestsPerQuestion-gets)), int(math.Round(math.Max(qc.RowsVisitedPerQuestion-gets, 0))),
		int(math.Round(math.Max(qc.RowsPerQuestion-gets, 0))), j.item.bytes) +
		gets*model.ReadUnits(j.item.bytes)
	if j.in.Cosmos() {
		qc.RequestUnitsPerQuestion = ru
	}
	if qc.RequestsPerQuestion > 0 {
		l.account(rate*qc.RequestsPerQuestion, qc.RowsVisitedPerQuestion/qc.RequestsPerQuestion, ru/qc.RequestsPerQuestion)
	}
	qc.Ms = j.serviceMs(qc)
	return qc, nil
}

// sums are the weighted means of an ask's figures (eval.figures) and of
// their squares over the asks, each asked at the ages (or its own), with
// each ask's load attributed to the partitions it reads as it goes. It
// stops early when ctx is done.
func (qj *qjudge) sums(ctx context.Context, asks []ask, ages []float64) (sum, sq [6]float64, err error) {
	wsum := 0.0
	for n, a := range asks {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return sum, sq, err
			}
		}
		ts := qj.ptypes(a)
		if len(ts) == 0 {
			continue
		}
		as := ages
		if a.age >= 0 {
			as = []float64{a.age}
		}
		qj.diffuseAsk = a.age < 0
		all := qj.evalMemo(a, ts, as)
		v, v2 := all.figures(), all.squares
		for k := range v {
			sum[k] += a.weight * v[k]
			sq[k] += a.weight * v2[k]
		}
		wsum += a.weight
		qj.attribute(a, ts, all)
		if qj.acc.AnyPK && !qj.lay.unique {
			qj.scanLoads(a)
		}
	}
	if wsum > 0 {
		for k := range sum {
			sum[k] /= wsum
			sq[k] /= wsum
		}
	}
	return sum, sq, nil
}

// scanLoads puts a table scan's reads on every partition of the table:
// each asked, a question visits each partition's rows and returns those
// with the asked values.
func (qj *qjudge) scanLoads(a ask) {
	lay, s := qj.lay, qj.s
	if qj.scanFill == nil {
		f := fills(lay, s) // the same for every ask
		qj.scanFill = &f
	}
	fill := qj.scanFill
	for g := range lay.groups {
		full := lay.fullRows(g, s) / lay.rows * qj.rowsFactor
		for b := range int32(recent + 1) {
			if rows := full * fill[b]; rows > 0 {
				qj.l.add(pkey{int32(qj.x), int32(g), b}, qj.rate*a.weight, rows, rows*a.pv, 0)
				qj.l.charge(pkey{int32(qj.x), int32(g), b}, qj.rate*a.weight*rows, qj.q.Name)
				qj.l.pass(pkey{int32(qj.x), int32(g), b}, rows, qj.rate*a.weight, qj.q.Name)
			}
		}
	}
}

// setup works out what the plan's queries are: the rows of an entity in
// their range, their $top, whether the read stops at the limit, what it
// enumerates, and the moments it is judged at.
func (qj *qjudge) setup() {
	lay, acc := qj.lay, qj.acc
	qj.rowsFactor = 1
	if qj.x == 0 {
		qj.rowsFactor = qj.j.rowsInRange(acc)
	}
	if acc.Sorted && qj.q.Limit > 0 {
		qj.top = qj.q.Limit
	}
	if s := qj.plan.ShareTop(); s > 0 {
		qj.top, qj.shares = s, true // each hash bucket asked for its share
	}
	qj.ordered = qj.q.Ordered() && qj.q.Limit > 0
	for _, h := range acc.Hashed {
		src := lay.srcs[h]
		if src.kind == srcUnique {
			qj.enumHash = true
			continue
		}
		for k, f := range lay.fields {
			if f.name == lay.parts[h].Source && !containsInt(qj.classFields, k) {
				qj.classFields = append(qj.classFields, k)
			}
		}
	}
	finer := time.Duration(0)
	if u := qj.q.WindowUnit(); u != keygen.NoUnit && (lay.unit <= 0 || u.Mean() < lay.unit) {
		finer = u.Mean()
	}
	qj.nows = nows(lay.cal, lay.unit, qj.s, finer)
	if len(qj.nows) == 8 && qj.needsAges() { // judged at 8 ages besides
		if qj.s.AnyPhase {
			qj.nows = []time.Time{qj.nows[0], qj.nows[2], qj.nows[4], qj.nows[6]}
		} else {
			// A run's moments centred on its middle, as the eight are, so
			// that the table the run grows is judged at its mean size.
			qj.nows = runMoments(qj.s, 4)
		}
	}
	qj.edges = qj.edgeMoments()
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// ages are the age fractions an ask of the law is judged at: where the
// picked entity's time matters (a window around it, the one entity it
// names, the bucket of a partition its time computes), slices of the
// pick law; else one.
func (qj *qjudge) ages(pl posLaw) []float64 {
	if qj.picksLive() {
		return []float64{0} // a live key picked evenly: the newest entity's
	}
	if qj.needsAges() {
		if pl.cdf == nil {
			pl.cdf = uniformCDF
		}
		return ageQuantiles(pl, 8)
	}
	return []float64{0.5}
}

// needsAges reports whether the picked entity's time matters to the
// plan's cost: a window around it (anchor: picked; a window ending now
// holds the picked entity with the law's chance: pickedIn), the one
// entity it names, the bucket of a partition its time computes, the
// birth of its key with a lifetime.
func (qj *qjudge) needsAges() bool {
	window := qj.q.WindowLength() > 0 && qj.q.AnchoredAt() // a window ending now is where it is, whatever the age
	return window || qj.isSingle || (qj.lay.unit > 0 && qj.acc.TimeUnit == keygen.NoUnit) || qj.life > 0
}

// rowsInRange is how many of an entity's main-table rows a query of acc
// reads: the one row template it reads when a literal prefix no other
// template starts with bounds its range, else every row.
func (j *judging) rowsInRange(acc question.Access) float64 {
	all := float64(j.scheme.RowsPerEntity())
	if acc.RKPrefix == 0 || all == 1 {
		return all
	}
	ts := append([]*keygen.Template{j.scheme.RK}, j.scheme.Rows...)
	lead := func(t *keygen.Template) string {
		if p := t.Parts(); len(p) > 0 && p[0].Kind == keygen.PartLiteral {
			return p[0].Literal
		}
		return ""
	}
	mine := lead(ts[acc.Row])
	if mine == "" {
		return all
	}
	n := 0.0
	for _, t := range ts {
		if o := lead(t); o == "" || strings.HasPrefix(o, mine) || strings.HasPrefix(mine, o) {
			n++
		}
	}
	return n
}

// serviceMs is the modelled service time of one question of cost qc: its
// rounds of requests one after another (a fan-out's group and an index's
// point reads go out at once, as a run sends them) and, of its rows
// visited, the share on that path.
func (j *judging) serviceMs(qc QuestionCost) float64 {
	lat := j.in.Opts.Model.Latency
	onPath := 1.0
	if qc.RequestsPerQuestion > 0 {
		onPath = qc.RoundsPerQuestion / qc.RequestsPerQuestion
	}
	return qc.RoundsPerQuestion*ms(lat.Read) + qc.RowsVisitedPerQuestion*onPath*ms(lat.Entity)
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
