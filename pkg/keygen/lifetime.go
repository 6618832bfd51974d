package keygen

import (
	"math"
	"time"
)

// LifetimeSpec gives an id field keys that are born and retire (a parcel
// scanned a few times over three days, an order created, updated and
// closed): Count keys are live at once, each key receives Entities
// entities on average and lives Span of event time. A spec gives two of
// Count, Span and Entities; the third follows from the population's
// interval (an entity per interval of event time):
//
//	Span = Count × Entities × interval
type LifetimeSpec struct {
	Span     time.Duration
	Entities float64
}

// Lifetime is a compiled LifetimeSpec: Live keys at once, each receiving
// PerKey entities on average.
//
// Its law: key numbers grow with their birth, one key born every PerKey
// entities. Entity i takes one of the live keys [Oldest(i), Oldest(i) +
// Live) with equal probability, Oldest(i) = ⌊i / PerKey⌋; so key n
// receives the entities whose ⌊i / PerKey⌋ lies in [n - Live + 1, n]
// (Window entities, each with probability 1/Live: a binomial count of
// mean PerKey), and none after: it has retired. The keys live at entity 0
// were born before it, so the stream starts in its steady state.
type Lifetime struct {
	Live   int64
	PerKey float64
}

// Oldest is the oldest key live when entity i is written.
func (l Lifetime) Oldest(i int64) int64 {
	return int64(math.Floor(float64(max(i, 0)) / l.PerKey))
}

// Window is how many entities a key's life spans: Live × PerKey.
func (l Lifetime) Window() float64 { return float64(l.Live) * l.PerKey }

// Span is the event time a key lives when an entity is written every
// interval.
func (l Lifetime) Span(interval time.Duration) time.Duration {
	return time.Duration(l.Window() * float64(interval))
}

// Retired reports whether key n takes no entity at or after entity i
// (every entity it ever gets is older than i).
func (l Lifetime) Retired(n, i int64) bool { return n < l.Oldest(i) }

// compileLifetime derives Live and PerKey from the two of count, span and
// entities the spec gives, at an entity per interval.
func (f *field) compileLifetime(iv time.Duration) error {
	s := f.spec
	ls := s.Lifetime
	if s.Distribution != "" && s.Distribution != "uniform" {
		return f.badMember("distribution", "a key with a lifetime takes the entities written while it lives evenly with the other live keys: remove distribution %q (to favour recent keys in reads, use the request distribution latest(S))", s.Distribution)
	}
	given := 0
	for _, g := range []bool{s.Count > 0, ls.Span > 0, ls.Entities > 0} {
		if g {
			given++
		}
	}
	if given != 2 {
		return f.badMember("lifetime", "a lifetime takes two of count (keys live at once), lifetime.span (the event time a key lives) and lifetime.entities (the entities a key receives on average); the third follows from population.interval. Like lifetime: {span: 72h, entities: 10}")
	}
	if iv <= 0 {
		return f.badMember("lifetime", "a key lives a span of event time, which needs population.interval > 0 (event time moving with the entities)")
	}
	if ls.Entities != 0 && !(ls.Entities >= 1) {
		return f.badMember("lifetime.entities", "lifetime.entities is %v: a key receives at least 1 entity on average", ls.Entities)
	}
	l := Lifetime{Live: s.Count, PerKey: ls.Entities}
	switch {
	case s.Count == 0:
		w := float64(ls.Span) / float64(iv)
		l.Live = int64(math.Round(w / ls.Entities))
		if l.Live < 1 {
			return f.badMember("lifetime", "a key living %s receives only %.3g entities at an entity every %s, fewer than lifetime.entities (%v): lengthen the span or lower entities", ls.Span, w, iv, ls.Entities)
		}
	case ls.Entities == 0:
		l.PerKey = float64(ls.Span) / float64(iv) / float64(s.Count)
		if l.PerKey < 1 {
			return f.badMember("lifetime", "%d keys live at once over %s receive %.3g entities each at an entity every %s: a key needs at least 1; lower count or lengthen the span", s.Count, ls.Span, l.PerKey, iv)
		}
	}
	if l.Window() > 1<<62 {
		return f.badMember("lifetime", "a key's life spans %.3g entities, more than a population holds: lower count or entities", l.Window())
	}
	f.life = &l
	return nil
}

// Lifetime is field name's lifetime; false when the field has none (its
// values live for the whole population) or there is no such field.
func (p *Population) Lifetime(name string) (Lifetime, bool) {
	k, ok := p.byName[name]
	if !ok || p.fields[k].life == nil {
		return Lifetime{}, false
	}
	return *p.fields[k].life, true
}
