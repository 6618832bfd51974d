package advise

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// Question picks: a question whose known values form at most maxGroups
// groups is asked once for each (weighed by the probability its request
// distribution picks an entity of the group); otherwise it is asked for
// questionSamples picked entities, or scanSamples when its plan scans
// (which visits every row of the partitions it reads, whatever is picked).
const (
	maxGroups       = 64
	questionSamples = 64
	scanSamples     = 8
)

// ask is one way of asking a question: for entity, with weight.
type ask struct {
	entity int64
	weight float64
}

// questions asks every question on a model of the seeded table and puts
// each on the partitions its plan reads, at the rate the mix asks it.
func (j *judging) questions() error {
	if len(j.in.Questions) == 0 {
		return nil
	}
	m := question.NewModel(j.in.Pop, j.scheme, j.in.Seeded)
	weights := j.in.questionWeights()
	total := 0.0
	for k, q := range j.in.Questions {
		rate, dist := j.questionRate(k)
		qc, err := j.question(m, q, rate, dist)
		if err != nil {
			return err
		}
		j.p.Questions = append(j.p.Questions, qc)
		j.p.QuestionMs += weights[k] * qc.Ms
		total += weights[k]
	}
	j.p.QuestionMs /= total
	return nil
}

// questionRate is the rate the mix asks question k and the distribution it
// picks entities with (its first entry's own, else the workload's).
func (j *judging) questionRate(k int) (float64, keygen.Distribution) {
	rate := 0.0
	var dist keygen.Distribution
	for _, o := range j.in.Mix {
		if o.Question == k {
			rate += o.Rate
			if dist == nil {
				dist = o.Dist
			}
		}
	}
	if dist == nil {
		dist, _ = keygen.ParseDistribution(string(j.in.Scenario.Workload.Distribution))
	}
	return rate, dist
}

// serviceMs is the modelled service time of one question of cost qc, the
// data grown f times over the horizon (f <= 1: it does not grow): its
// rounds of requests one after another (a fan-out's group and an index's
// point reads go out at once, as a run sends them) and, of its rows
// visited, the share on that path.
func (j *judging) serviceMs(qc QuestionCost, f float64) float64 {
	lat := j.in.Opts.Model.Latency
	rounds := qc.rounds * math.Max(f, 1)
	onPath := 1.0
	if qc.RequestsPerQuestion > 0 {
		onPath = qc.rounds / qc.RequestsPerQuestion
	}
	return rounds*ms(lat.Read) + qc.RowsVisitedPerQuestion*onPath*ms(lat.Entity)
}

// question asks q for every group (or sample) and returns its cost.
func (j *judging) question(m *question.Model, q *question.Question, rate float64, dist keygen.Distribution) (QuestionCost, error) {
	plan := question.Derive(q, j.scheme)
	qc := QuestionCost{Name: q.Name, Plan: string(plan.Kind), Label: plan.Label(), Why: plan.Why}
	b := question.BoundsOf(j.in.Pop, j.in.Seeded)
	var e keygen.Entity
	readRU := model.ReadUnits(j.item.bytes)
	for _, a := range j.asks(q, plan, dist) {
		j.in.Pop.Entity(a.entity, &e)
		load, cost, err := m.AskLoad(context.Background(), plan, &e, b)
		if err != nil {
			return qc, err
		}
		returned := 0
		for part, pl := range load {
			returned += pl.Returned
			ru := model.QueryUnits(0, pl.Visited, pl.Returned, j.item.bytes)
			j.l.add(part, rate*a.weight, float64(pl.Visited), float64(pl.Returned), ru)
		}
		pagesN := cost.Requests - cost.Gets
		ru := model.QueryUnits(pagesN, cost.Visited-cost.Gets, returned-cost.Gets, j.item.bytes) + float64(cost.Gets)*readRU
		qc.PartitionsPerQuestion += a.weight * float64(cost.Partitions)
		qc.RequestsPerQuestion += a.weight * float64(cost.Requests)
		qc.rounds += a.weight * float64(cost.Rounds)
		qc.RowsVisitedPerQuestion += a.weight * float64(cost.Visited)
		qc.RowsPerQuestion += a.weight * float64(cost.Returned)
		qc.RequestUnitsPerQuestion += a.weight * ru
		j.l.account(rate*a.weight*float64(cost.Requests), float64(cost.Visited)/float64(max(cost.Requests, 1)), ru/float64(max(cost.Requests, 1)))
	}
	if f := j.growth(q); f > 1 {
		qc.PartitionsAfterHorizon = qc.PartitionsPerQuestion * f
		qc.RequestsAfterHorizon = qc.RequestsPerQuestion * f
	}
	qc.Ms = j.serviceMs(qc, j.growth(q))
	if !j.in.Cosmos() {
		qc.RequestUnitsPerQuestion = 0
	}
	return qc, nil
}

// growth is how many times more time buckets question q asks after the
// horizon than on the seeded table: a question that knows neither the
// event time nor a window, and is not a walk for the newest or oldest N,
// asks every time bucket of its partitions, and the data spans more of
// them as it grows (1 when it does not).
func (j *judging) growth(q *question.Question) float64 {
	if q.KnowsTime() || q.Spec.Window != "" || (q.Ordered() && q.Limit > 0) {
		return 1
	}
	bucket := j.in.bucketLen(j.scheme.PK)
	iv := j.in.Pop.Spec().Interval
	if bucket >= j.in.Opts.Horizon || iv <= 0 {
		return 1
	}
	seeded := math.Max(1, math.Ceil(float64(iv)*float64(j.in.Seeded)/float64(bucket)))
	return math.Max(1, math.Ceil(float64(j.in.Opts.Horizon)/float64(bucket))/seeded)
}

// asks are the entities q is asked for, with weights summing to 1.
func (j *judging) asks(q *question.Question, plan *question.Plan, dist keygen.Distribution) []ask {
	probs := j.pickProbs(dist)
	if g := j.groups(q, probs, moving(dist) && j.newEntities() > 0); g != nil {
		return g
	}
	st := keygen.NewStream(j.in.Scenario.Seed, keygen.NameHash(q.Name))
	n := questionSamples
	if plan.Kind == question.Scan {
		n = scanSamples
	}
	out := make([]ask, n)
	for k := range out {
		out[k] = ask{entity: dist.Pick(&st, j.in.Seeded), weight: 1.0 / float64(n)}
	}
	return out
}

// groups are the groups of seeded entities sharing q's known values, each
// asked for its likeliest entity (the newest when expected) and weighed by
// the probability of picking one of its entities: as seeded, or when
// expected (a distribution that moves as the run inserts), the probability
// of its values under the population's law. nil when the event time or an
// unbounded field is known, or there are more than maxGroups.
func (j *judging) groups(q *question.Question, probs []float64, expected bool) []ask {
	if q.KnowsTime() {
		return nil
	}
	for _, f := range q.Fields() {
		if _, ok := j.in.Pop.Support(f); !ok {
			return nil
		}
	}
	index := map[string]int{}
	var out []ask
	var key strings.Builder
	for k, p := range probs {
		i := int64(k) * j.seeded.stride
		key.Reset()
		for _, f := range q.Fields() {
			v, _ := j.in.Pop.FieldValue(f, i)
			key.WriteString(strconv.FormatInt(v.Num, 10) + "\x00" + v.Str + "\x00")
		}
		g, ok := index[key.String()]
		if !ok {
			if len(out) == maxGroups {
				return nil
			}
			g = len(out)
			index[key.String()] = g
			out = append(out, ask{entity: i})
		}
		rep := probs[out[g].entity/j.seeded.stride]
		if expected || p > rep || (p == rep && i > out[g].entity) {
			out[g].entity = i
		}
		out[g].weight += p
	}
	if expected {
		for g := range out {
			out[g].weight = j.lawOf(q.Fields(), out[g].entity)
		}
	}
	return out
}

// lawOf is the probability that an entity has entity i's values of the
// fields (drawn independently, each by its support).
func (j *judging) lawOf(fields []string, i int64) float64 {
	p := 1.0
	for _, f := range fields {
		v, _ := j.in.Pop.FieldValue(f, i)
		s, _ := j.in.Pop.Support(f)
		for k, sv := range s.Values {
			if sv == v {
				p *= s.Probs[k]
			}
		}
	}
	return p
}
