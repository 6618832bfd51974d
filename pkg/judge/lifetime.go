package judge

import (
	"math"
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Keys with a lifetime (keygen.Lifetime): a key is born, takes its share
// of the entities written while it lives (Live keys at once, each 1/Live),
// and retires after its life, D = Live × PerKey entities of event time.
// So, in ages (event time before the newest entity):
//
//   - a key picked through an entity of age a was born at an age b
//     uniform in [a, a + D) (the keys live when a was written were born
//     evenly over the life before it), and lives over the ages
//     (max(b - D, 0), min(b, span)]: a retired key's rows are its life's,
//     PerKey on average, a live one's the part of its life it has lived;
//   - a key picked evenly among the live keys is one picked through the
//     newest entity (a = 0);
//   - a partition keyed by the key holds its life's rows and stops
//     growing when it retires; at any moment Live of them are live (and
//     take the writes), Live × span / D have retired within the table.
//
// The judge asks such a question at lifeQuantiles births (b = a + u·D for
// u the midpoints of equal slices), its matches inside the key's life,
// and a layout keyed by the key reads the key's partition: its rows over
// the key's life. Its loads tell the live partitions (bucket 0) from the
// retired ones (bucket recent, span / D generations of Live).

// lifeQuantiles is how many births a question about a key with a
// lifetime is judged at.
const lifeQuantiles = 4

// Life is field's life in event time (0 when its keys live for the
// whole population): Window entities, an entity per interval.
func (in *Input) Life(field string) time.Duration {
	l, ok := in.Pop.Lifetime(field)
	if !ok {
		return 0
	}
	return l.Span(in.Pop.Spec().Interval)
}

// keyedLife is the life of the keys a PartitionKey's value pieces name
// (the shortest, if several), and the field: 0 and "" when none has a
// lifetime.
func (in *Input) keyedLife(parts []keygen.Part) (time.Duration, string) {
	var life time.Duration
	field := ""
	for _, p := range parts {
		if p.Kind != keygen.PartValue {
			continue
		}
		if d := in.Life(p.Source); d > 0 && (life == 0 || d < life) {
			life, field = d, p.Source
		}
	}
	return life, field
}

// generations is how many lives the table at size s spans: the retired
// keys' partitions are Live of each.
func (l *layout) generations(s Size) float64 {
	if l.life <= 0 || s.Span <= 0 {
		return 0
	}
	return float64(s.Span) / float64(l.life)
}

// lifeFills are how full a lifetime layout's live (0) and retired
// (recent) partitions are at size s, of a retired key's rows (fullRows:
// its life's, or the span's when shorter): a live key has lived an age
// uniform in [0, D), so its rows are min(age, span) of event time.
func lifeFills(l *layout, s Size) [recent + 1]float64 {
	var out [recent + 1]float64
	d, span := float64(l.life), float64(s.Span)
	if span <= 0 {
		out[0] = 1
		return out
	}
	if span >= d {
		out[0] = 0.5
	} else {
		out[0] = 1 - span/(2*d)
	}
	if l.generations(s) > 0 {
		out[recent] = 1
	}
	return out
}

// lifeShares is the share of picks of law p whose key is live (0), and
// each retired generation's (recent), at size s: an entity of age a has
// a live key with probability max(0, 1 - a/D).
func lifeShares(p posLaw, l *layout, s Size) [recent + 1]float64 {
	var out [recent + 1]float64
	span := float64(s.Span)
	if span <= 0 {
		out[0] = 1
		return out
	}
	live := func(age float64) float64 { return math.Max(0, 1-age*span/float64(l.life)) }
	in := 0.0
	for _, a := range p.atoms {
		in += a.p * live(a.age)
	}
	const k = 64
	top := math.Min(float64(l.life)/span, 1) // the ages a live key's entities have
	for i := range k {
		x0, x1 := top*float64(i)/k, top*float64(i+1)/k
		in += p.diffuse * (p.cdf(x1) - p.cdf(x0)) * live((x0+x1)/2)
	}
	out[0] = in
	if g := l.generations(s); g > 0 {
		out[recent] = math.Max(1-in, 0) / g
	}
	return out
}

// keyLife is the ages the known key lives over, (lo, hi], for an entity
// picked at age pa and a birth at u of a life: all of the table when the
// question knows no key with a lifetime; live reports whether it has not
// retired.
func (qj *qjudge) keyLife(span, pa time.Duration, u float64) (lo, hi time.Duration, live bool) {
	if qj.life <= 0 {
		return 0, span, true
	}
	b := pa + time.Duration(u*float64(qj.life))
	return max(b-qj.life, 0), min(b, span), b <= qj.life
}

// births are the birth offsets u a question is judged at: lifeQuantiles
// of them when it knows a key with a lifetime, else one (unused).
func (qj *qjudge) births() []float64 {
	if qj.life <= 0 {
		return []float64{0.5}
	}
	out := make([]float64, lifeQuantiles)
	for i := range out {
		out[i] = (float64(i) + 0.5) / lifeQuantiles
	}
	return out
}

// setupLife finds the key with a lifetime the question knows (the first
// such field), and whether the plan's layout is keyed by it.
func (qj *qjudge) setupLife() {
	for _, f := range qj.q.Fields() {
		if d := qj.j.in.Life(f); d > 0 {
			qj.life, qj.lifeField = d, f
			break
		}
	}
	qj.keyed = qj.life > 0 && qj.lay.lifeField == qj.lifeField && !qj.acc.AnyPK
	for _, f := range qj.q.Fields() {
		if !slices.Contains(qj.acc.Filter, f) && !qj.lay.keysValue(f) && !qj.acc.AnyPK {
			qj.rkPins = true
			qj.rangeKeyed = qj.rangeKeyed || f == qj.lifeField && qj.life > 0
		}
	}
	qj.rangeKeyed = qj.rangeKeyed || qj.keyed
}

// keysValue reports whether the PartitionKey names field f's value (not
// a hash or modulo of it).
func (l *layout) keysValue(f string) bool {
	for _, p := range l.parts {
		if p.Kind == keygen.PartValue && p.Source == f {
			return true
		}
	}
	return false
}

// lifeBucket is the load's bucket of a partition of a lifetime layout
// whose key is live or not: 0 the live ones, recent the retired.
func lifeBucket(live bool) int32 {
	if live {
		return 0
	}
	return recent
}

// picksLive reports whether the question picks a key with a lifetime by
// its own law: among the live keys, evenly.
func (qj *qjudge) picksLive() bool {
	for _, p := range qj.q.Picks() {
		if qj.j.in.Life(p.Field) > 0 {
			return true
		}
	}
	return false
}
