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
// divided by d. Requests spanning partitions are no one partition's; a
// new partition per entity takes its rows once.
func (f *Figures) BusiestOver(d time.Duration, share float64) (mean, sd float64) {
	l := f.loads
	secs := d.Seconds()
	t := secs * share
	var cs []count
	for _, k := range l.keys() {
		p := l.load(k)
		if p.counted <= 0 {
			continue
		}
		cs = append(cs, count{mean: p.counted * t, scale: p.sq / p.counted, n: l.mult(k)})
	}
	m, s := maxOf(cs)
	if rows := l.newRows; rows > m {
		m, s = rows, 0
	}
	return m / secs, s / secs
}

// PeakOver is the expected most entities one partition serves in one
// second of a window of d: the largest of d's seconds of every
// partition (at least oneSecond, the busiest partition's in a second).
func (f *Figures) PeakOver(d time.Duration, oneSecond float64) float64 {
	l := f.loads
	var cs []count
	for _, k := range l.keys() {
		if p := l.load(k); p.counted > 0 {
			cs = append(cs, count{mean: p.counted, scale: p.sq / p.counted, n: l.mult(k) * math.Max(d.Seconds(), 1)})
		}
	}
	m, _ := maxOf(cs)
	return math.Max(m, oneSecond)
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
