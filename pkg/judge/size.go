package judge

import (
	"math"
	"time"
)

// Size is a table the judge judges at: how many entities it holds, the
// event time they span and how fast event time moves, and where the
// newest entity's time is (which decides how full the current time
// bucket is).
type Size struct {
	// Name is "seeded", "horizon" or "depth".
	Name string
	// Entities is the entities the table holds.
	Entities float64
	// Span is the event time they span (0 when event time does not move).
	Span time.Duration
	// Last is the newest entity's event time; over the window the figures
	// are for (a proof's run) it moves on by Drift. AnyPhase is set when
	// it is anywhere in its time bucket (the table at the horizon).
	Last     time.Time
	Drift    time.Duration
	AnyPhase bool
}

// at is the table at moment now of the window the figures are for (a
// proof's run, over which the newest entity's time moves from Last by
// Drift): Span and Entities are the table's at the window's middle; at
// another moment it has grown or shrunk by the event time between, its
// first entity staying where the seed put it, so its oldest rows keep
// their place against the time buckets' bounds (a proof deletes
// nothing: DepthSize). A table at any phase (the horizon) and one whose
// event time does not move are the same at every moment.
func (s Size) at(now time.Time) Size {
	if s.AnyPhase || s.Drift <= 0 || s.Span <= 0 {
		return s
	}
	d := now.Sub(s.Last.Add(s.Drift / 2))
	per := s.perSec()
	s.Span = max(s.Span+d, 1)
	s.Entities = math.Max(s.Entities+per*d.Seconds(), 1)
	return s
}

// perSec is the entities per second of event time (+Inf when event time
// does not move).
func (s Size) perSec() float64 {
	if s.Span <= 0 {
		return math.Inf(1)
	}
	return s.Entities / s.Span.Seconds()
}

// within is the entities of the table whose event time lies in d: all of
// them when d covers the span.
func (s Size) within(d time.Duration) float64 {
	if s.Span <= 0 || d >= s.Span {
		return s.Entities
	}
	return s.Entities * float64(d) / float64(s.Span)
}

// SeededSize is the table the seed phase leaves: the seeded entities,
// an entity per interval of event time.
func (in *Input) SeededSize() Size { return in.tableOf("seeded", float64(in.Seeded)) }

// DepthSize is the table a proof judges: n entities seeded, then written
// to at the peak over a warm-up and a measured run of d, the figures
// being the run's mean (the table at the middle of the run; the newest
// entity's time moving over the run). The proof deletes nothing: its
// table holds every entity written, whatever the retention.
func (in *Input) DepthSize(n int64, warmup, d time.Duration) Size {
	w := in.insertRate()
	iv := in.Pop.Spec().Interval
	s := in.written("depth", float64(n)+w*(warmup+d/2).Seconds())
	s.Last = in.Pop.Spec().Start.Add(time.Duration((float64(n) + w*warmup.Seconds() - 1) * float64(iv)))
	s.Drift = time.Duration(w * d.Seconds() * float64(iv))
	return s
}

// tableOf is the table of the first n entities of the population (the
// last retention of them, when one is set).
func (in *Input) tableOf(name string, n float64) Size {
	s := in.written(name, n)
	if r := in.Opts.Retention; r > 0 && s.Span > r {
		s.Entities *= float64(r) / float64(s.Span)
		s.Span = r
	}
	return s
}

// written is the table of the first n entities of the population, all
// of them kept.
func (in *Input) written(name string, n float64) Size {
	iv := in.Pop.Spec().Interval
	last := in.Pop.Spec().Start.Add(time.Duration(math.Max(n-1, 0) * float64(iv)))
	return Size{Name: name, Entities: n, Span: time.Duration(n * float64(iv)), Last: last}
}

// HorizonSize is the table after the horizon of event time at the
// workload's write rate (every second of it writes a second's entities),
// or after the retention when shorter; a table that is not written to
// stays as seeded.
func (in *Input) HorizonSize() Size {
	w := in.insertRate()
	life := in.Opts.Horizon
	if r := in.Opts.Retention; r > 0 && r < life {
		life = r
	}
	if !(w > 0) || w*life.Seconds() < float64(in.Seeded) {
		s := in.SeededSize()
		s.Name, s.AnyPhase = "horizon", w > 0
		return s
	}
	start := in.Pop.Spec().Start
	return Size{Name: "horizon", Entities: w * life.Seconds(), Span: life, Last: start.Add(in.Opts.Horizon), AnyPhase: true}
}
