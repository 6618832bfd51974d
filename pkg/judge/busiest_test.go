package judge

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// A tenant spread over 15 hash buckets, its newest 100 asked of all 15 at
// once (tenant-log): the busiest bucket's count over a window is the
// fan-out's reads, common to the 15, plus the largest of their own
// writes. BusiestOver agrees with 5,000 draws of that process (mean
// within four standard errors, sd within 10%); taking the reads as drawn
// apart for each bucket puts the mean 95 entities/s too high (1,472) and
// its sd half the sampled one.
func TestBusiestOverFanOutIsCommonToItsBuckets(t *testing.T) {
	const (
		hashes = 15
		secs   = 10.0
		rows   = 100.0 // each question's rows from every bucket
	)
	// contoso: 960 writes/s a bucket, 4 questions/s; fabrikam: 180 and
	// 0.75.
	tenants := []struct{ writes, questions float64 }{{960, 4}, {180, 0.75}}
	lay := &layout{hashes: hashes, groups: []group{{mult: 1, share: 0.8}, {mult: 1, share: 0.15}}}
	l := newLoads([]*layout{lay}, Size{}, 2000, 2000)
	for g, tn := range tenants {
		k := pkey{0, int32(g), 0}
		l.add(k, tn.writes, 1, 1, 0)
		l.addTotals(k, tn.questions*rows, tn.questions*rows, tn.questions*rows*rows, 0)
		l.addJoint(k, tn.questions*rows, tn.questions*rows*rows, hashes)
	}
	f := &Figures{loads: l}
	mean, sd := f.BusiestOver(time.Duration(secs*float64(time.Second)), nil)

	const draws = 5000
	st := keygen.NewStream(36, 1)
	var sum, sq float64
	for range draws {
		top := 0.0
		for _, tn := range tenants {
			read := rows * poisson(&st, tn.questions*secs)
			for range hashes {
				top = math.Max(top, read+poisson(&st, tn.writes*secs))
			}
		}
		top /= secs
		sum += top
		sq += top * top
	}
	m := sum / draws
	s := math.Sqrt(sq/draws - m*m)
	if se := s / math.Sqrt(draws); math.Abs(mean-m) > 4*se {
		t.Errorf("busiest over %vs: predicted %.1f entities/s, sampled %.1f ± %.2f", secs, mean, m, se)
	}
	if math.Abs(sd-s) > 0.1*s {
		t.Errorf("busiest's sd: predicted %.1f, sampled %.1f", sd, s)
	}
	t.Logf("busiest over %vs: predicted %.1f ± %.1f, sampled %.1f ± %.1f", secs, mean, sd, m, s)
}

// The judge marks tenant-log's fan-out as common to the buckets it reads:
// on contoso's partitions (480 writes and 24 questions a second each: 80%
// of 9,000 events and of 30 questions) the 360 entities/s its newest 100
// count there (each bucket asked for its
// share, question.Share(100, 15) = 15 rows, and asked again rarely) are
// read by every question from all 15 buckets at once; the point reads by
// event id, each of one bucket, are the partition's own.
func TestJudgeMarksTheFanOutCommon(t *testing.T) {
	in := readyInput(t, "tenant-log")
	sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "tenant-hash15-rows",
		PartitionKey: "{tenant}_{hash(event) % 15:02}", RowKey: "T_{inverted_ticks}", Rows: []string{"ID_{event}"}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := in.JudgeAt(context.Background(), sch, in.DepthSize(1_000_000, 2*time.Second, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	_, p, ok := f.loads.busiest()
	if !ok {
		t.Fatal("no busiest partition")
	}
	want := 0.8 * 30 * float64(question.Share(100, 15))
	if p.block != 15 || math.Abs(p.joint/want-1) > 0.02 || p.joint >= p.counted {
		t.Errorf("busiest partition: %.1f of %.1f entities/s read in blocks of %v, want %.0f in blocks of 15", p.joint, p.counted, p.block, want)
	}
}
