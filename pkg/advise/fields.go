package advise

import (
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// keyFields are the fields a PartitionKey can be made of: those with a
// finite set of values that some question knows, in the order the
// questions first name them.
func (in *Input) keyFields() []string {
	var out []string
	for _, q := range in.Questions {
		for _, f := range q.Fields() {
			if _, ok := in.Support(f); ok && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// fieldless reports whether some question knows none of the key fields
// and is not asking for one entity by a field that identifies it (or there
// are no questions): it needs a PartitionKey of time buckets or hash
// buckets alone.
func (in *Input) fieldless() bool {
	keys := in.keyFields()
	if len(in.Questions) == 0 {
		return true
	}
	for _, q := range in.Questions {
		knows := q.Want == question.One && !q.KnowsTime() && in.uniqueField(q) != ""
		for _, f := range q.Fields() {
			knows = knows || slices.Contains(keys, f)
		}
		if !knows {
			return true
		}
	}
	return false
}

// identFields are the fields that tell entities apart which a question
// asking for one entity knows without the event time: a PartitionKey of
// hash buckets of one serves that question with a point read.
func (in *Input) identFields() []string {
	var out []string
	for _, q := range in.Questions {
		if q.Want == question.One && !q.KnowsTime() {
			if u := in.uniqueField(q); u != "" && !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// hashSource is what hash buckets of a PartitionKey keyed by field (""
// for none) hash: a source new for every entity, so each bucket takes an
// equal share of the writes, and one the questions asking for one entity
// know, so they still compute the bucket: a field that tells entities
// apart, else the event time's ticks, else the entity's GUID (then such a
// question asks every bucket).
func (in *Input) hashSource(field string) string {
	ticks := false
	for _, q := range in.Questions {
		if q.Want != question.One || (field != "" && !slices.Contains(q.Fields(), field)) {
			continue
		}
		if u := in.uniqueField(q); u != "" {
			return u
		}
		ticks = ticks || q.KnowsTime()
	}
	if ticks && in.Pop.Spec().Interval > 0 {
		return "ticks"
	}
	return "guid"
}

// windowUnits are the calendar windows the questions ask within.
func (in *Input) windowUnits() []keygen.Unit {
	var out []keygen.Unit
	for _, q := range in.Questions {
		if u := q.WindowUnit(); u != keygen.NoUnit && layoutOf(u) != "" && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// topShare is the largest probability of one value of field.
func (in *Input) topShare(field string) float64 {
	s, ok := in.Support(field)
	if !ok {
		return 0
	}
	return slices.Max(s.Probs)
}

// keysLife is the shortest life of the keys of fields (0 when none
// retires).
func (in *Input) keysLife(fields ...string) time.Duration {
	var life time.Duration
	for _, f := range fields {
		if d := in.Life(f); d > 0 && (life == 0 || d < life) {
			life = d
		}
	}
	return life
}

// itemBytes is about what one new entity's row weighs: its body with keys
// of a hundred bytes.
func (in *Input) itemBytes() int {
	var e keygen.Entity
	in.Pop.Entity(in.Seeded, &e)
	return len(in.Pop.AppendJSON(nil, &e, nil, nil, 0)) + 100
}

// granularity is the coarsest time bucket that keeps a partition taking
// share of the new entities under the size bounds over the horizon, or
// over life when its keys retire sooner (a partition keyed by them stops
// growing: MaxPartitionRows; under Cosmos DB also the headroom share of a
// logical partition's size), NoUnit when the horizon itself does.
func (in *Input) granularity(share float64, life time.Duration, itemBytes int) keygen.Unit {
	fits := func(d float64) bool {
		n := share * d
		ok := n <= float64(in.Opts.MaxPartitionRows)
		if in.Cosmos() {
			ok = ok && n*float64(itemBytes) <= in.Opts.Headroom*float64(in.Opts.Model.Cosmos.LogicalBytes)
		}
		return ok
	}
	h := in.HorizonSize()
	grows := h.Span // how long a partition grows
	if life > 0 {
		grows = min(grows, life)
	}
	if fits(h.Within(grows)) {
		return keygen.NoUnit
	}
	for _, t := range timeLayouts {
		if fits(h.Within(min(grows, t.unit.Mean()))) {
			return t.unit
		}
	}
	return timeLayouts[len(timeLayouts)-1].unit
}
