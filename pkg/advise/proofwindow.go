package advise

import (
	"time"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// windowSamples is how finely windowShare looks for time bucket
// boundaries in a proof's window.
const windowSamples = 1000

// windowShares are, for candidate c's main table and each of its index
// tables, the largest share of a proof's measured window that one time
// bucket of the table's PartitionKey covers (judge.Shares): 1, unless the
// event time of the entities the window writes crosses a bucket
// boundary (a minute bucket, a window starting at 09:00:58, or a window
// longer than the bucket), when each partition of the current bucket
// only takes its writes for part of the window. The window writes the
// entities after the seeded ones and those of the warm-up, an entity per
// interval of event time.
func (in *Input) windowShares(c *Candidate, depth int64, warmup, d time.Duration) judge.Shares {
	out := judge.Shares{"": in.windowShare(c, c.Scheme.PK, depth, warmup, d)}
	for _, ix := range c.Scheme.Indexes {
		out[ix.Name] = in.windowShare(c, ix.PK, depth, warmup, d)
	}
	return out
}

// windowShare is the largest share of a proof's window that one time
// bucket of PartitionKey template pk covers (see windowShares).
func (in *Input) windowShare(c *Candidate, pk *keygen.Template, depth int64, warmup, d time.Duration) float64 {
	iv := in.Pop.Spec().Interval
	w := c.Prediction.WriteEntitiesPerSec / float64(c.Scheme.RowsPerEntity())
	if iv <= 0 || !(w > 0) {
		return 1
	}
	var timed []keygen.Part
	for _, p := range pk.Parts() {
		if in.TimeBucketed(p) {
			timed = append(timed, p)
		}
	}
	if len(timed) == 0 {
		return 1
	}
	first := float64(depth) + w*warmup.Seconds()
	last := first + w*d.Seconds()
	var e keygen.Entity
	render := func(i float64) string {
		in.Pop.Entity(int64(i), &e)
		var b []byte
		for _, p := range timed {
			b = append(p.Append(b, &e), 0)
		}
		return string(b)
	}
	longest, run, prev := 0, 0, render(first)
	for k := 0; k <= windowSamples; k++ {
		cur := render(first + (last-first)*float64(k)/windowSamples)
		if cur != prev {
			run, prev = 0, cur
		}
		run++
		longest = max(longest, run)
	}
	return float64(longest) / (windowSamples + 1)
}
