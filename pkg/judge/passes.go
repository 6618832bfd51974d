package judge

import (
	"math"
	"time"
)

// A question asked at different moments of a time bucket reads more or
// fewer of a partition's rows at once: a window of the last minute over
// minute buckets reads all of the previous bucket just after a minute
// turns, half of each at its middle. What a pass costs the partition
// grows faster than its rows (only the rows past its bucket are owed, and
// a pass past PassLimit is refused part way), so each hit keeps, beside
// its reads' totals, the most rows one read visits (hit.most) and the
// rows each read visits past the bucket (hit.over), read by read (the
// most at three standard deviations over the read's mean: mostRows), never
// those of the mean read: two partitions of one bucket index read at one
// moment, one for most of its rows and one for few, are not two passes of
// half.

// edgeOffset is how far inside its bucket an edge moment lies.
const edgeOffset = time.Millisecond

// edges are the moments at the ends of the current bucket, where a pass
// reads the most of one bucket: judged for the largest pass only (their
// reads are not in the mean). None when the moments do not spread over
// the bucket's phase, or the question asks no window.
func (qj *qjudge) edgeMoments() []time.Time {
	l := qj.lay.unit
	if !qj.s.AnyPhase || l <= 0 || qj.q.WindowLength() <= 0 || len(qj.nows) < 2 {
		return nil
	}
	base := qj.lay.cal.Truncate(qj.s.Last)
	return []time.Time{base.Add(edgeOffset), base.Add(l - edgeOffset)}
}

// mostRows is the most rows a read whose mean is v visits: v and three
// standard deviations of a Poisson count of mean v (a hash bucket's share
// of a minute's entities varies from partition to partition and bucket
// to bucket: a read that fits on average is refused on the partitions
// above it).
func mostRows(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return v + 3*math.Sqrt(v)
}
