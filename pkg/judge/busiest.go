package judge

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// BusiestOver is the law of the busiest partition's mean entities/s over
// a window of d, as a client counts them: the largest of every
// partition's compound Poisson count (mean Σ rate·e·t, variance
// Σ rate·e²·t, t the share of the window its time bucket is current),
// divided by d. What a fan-out reads of a block of partitions at once is
// one count common to the block (the block's largest is that count plus
// the largest of its partitions' own). Requests spanning partitions are
// no one partition's; a new partition per entity takes its rows once.
// Each table's partitions count for the share of the window its time
// bucket is current (shares; 1 for a table it does not name).
func (f *Figures) BusiestOver(d time.Duration, shares Shares) (mean, sd float64) {
	l := f.loads
	secs := d.Seconds()
	m, s := maxOf(l.counts(secs, 1, shares))
	if rows := l.newRows; rows > m {
		m, s = rows, 0
	}
	return m / secs, s / secs
}

// PeakOver is the expected most entities one partition serves in one
// second of a window of d: the largest of d's seconds of every
// partition (at least oneSecond, the busiest partition's in a second).
func (f *Figures) PeakOver(d time.Duration, oneSecond float64) float64 {
	m, _ := maxOf(f.loads.counts(1, math.Max(d.Seconds(), 1), nil))
	return math.Max(m, oneSecond)
}

// Shares are, by table ("" the main table, else an index table's name),
// the largest share of a window that one time bucket of its
// PartitionKey is current for: under a minute bucket, a window of 120 s
// lets each partition take its writes for 60 s of it.
type Shares map[string]float64

// Of is table t's share (1 when s does not name it).
func (s Shares) Of(t string) float64 {
	if v, ok := s[t]; ok {
		return v
	}
	return 1
}

// BusiestTable is the table of the partition charged the most ("" the
// main table).
func (f *Figures) BusiestTable() string {
	if k, _, ok := f.loads.busiest(); ok {
		return f.loads.lays[k.lay].table
	}
	return ""
}

// counts are the laws of the partitions' counts over secs seconds (each
// table's share of them), each taken reps times (independent windows): a
// partition whose load has no
// part read with others is one count; a block of partitions read
// together by fan-outs is one count per block, the common part's plus
// the largest of the block's own parts (its mean and variance the sums
// of theirs).
func (l *loads) counts(secs, reps float64, shares Shares) []count {
	var cs []count
	for _, k := range l.keys() {
		p := l.load(k)
		if p.counted <= 0 {
			continue
		}
		t := secs * shares.Of(l.lays[k.lay].table)
		n := l.mult(k)
		if p.block <= 1 || p.joint <= 0 || n < p.block || k.group < 0 {
			cs = append(cs, count{mean: p.counted * t, scale: p.sq / p.counted, n: n * reps})
			continue
		}
		own, ownSq := math.Max(p.counted-p.joint, 0), math.Max(p.sq-p.jointSq, 0)
		var om, os float64
		if own > 0 {
			om, os = maxOf([]count{{mean: own * t, scale: ownSq / own, n: p.block}})
		}
		mean := p.joint*t + om
		variance := p.jointSq*t + os*os
		cs = append(cs, count{mean: mean, scale: variance / mean, n: n / p.block * reps})
	}
	return cs
}

// TimeBucket is the event time one partition of template t spans: its
// finest time bucket (0 when it has none).
func (in *Input) TimeBucket(t *keygen.Template) time.Duration {
	var out time.Duration
	for _, p := range t.Parts() {
		if p.Kind == keygen.PartLiteral {
			continue
		}
		if s := in.sourceOf(p); s.kind == srcBucket && (out == 0 || s.res < out) {
			out = s.res
		}
	}
	return out
}

// TimeBucketed reports whether piece p of a template is a time bucket
// coarser than the population's interval (every entity of the moment
// shares it).
func (in *Input) TimeBucketed(p keygen.Part) bool {
	return p.Kind != keygen.PartLiteral && in.sourceOf(p).kind == srcBucket
}

// Within is the entities of a table of size s whose event time lies in
// d.
func (s Size) Within(d time.Duration) float64 { return s.within(d) }

// InsertRate is the new entities the application writes a second at the
// peak (a batch at its asked size).
func (in *Input) InsertRate() float64 { return in.insertRate() }
