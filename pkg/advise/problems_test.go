package advise

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/judge"
)

// A candidate's problems are the judge's findings over the advice's
// limits: a busiest partition at 75% of the partition target is a
// problem under the default headroom of 70%, and none under 80%; the
// largest partition's rows, past the bound, are not among them (outgrown
// ranks it below instead), and Over is the largest finding's Ratio.
func TestProblemsHoldTheHeadroom(t *testing.T) {
	in := adviseOn(t, "iot-telemetry").Input
	t75 := 0.75 * in.PartitionTarget()
	p := &Prediction{Figures: judge.Figures{Size: "horizon", BusiestPartition: "dev-1", BusiestEntitiesPerSec: t75,
		LargestPartition: "dev-1", LargestPartitionRows: 2 * float64(in.Opts.MaxPartitionRows)}}
	c := &Candidate{Prediction: p}
	fs := in.problems(c)
	if len(fs) != 1 || fs[0].Kind != judge.HotPartition || fs[0].Partition != "dev-1" || c.Over != 0.75/in.Opts.Headroom {
		t.Errorf("at headroom %v: problems %+v, over %v; want the busiest partition alone, %v over", in.Opts.Headroom, fs, c.Over, 0.75/in.Opts.Headroom)
	}
	if !in.hot(p) || in.hotPartition(p) != "dev-1" {
		t.Errorf("at headroom %v: hot %v on %q; want dev-1 hot", in.Opts.Headroom, in.hot(p), in.hotPartition(p))
	}
	roomy := *in
	roomy.Opts.Headroom = 0.8
	if fs := roomy.problems(c); len(fs) != 0 || c.Over != 0 || roomy.hot(p) {
		t.Errorf("at headroom 0.8: problems %+v, over %v, hot %v; want none", fs, c.Over, roomy.hot(p))
	}
}
