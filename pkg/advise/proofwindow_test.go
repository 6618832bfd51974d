package advise

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// A proof window whose event time crosses a time bucket boundary splits
// each partition's writes between two buckets: the skewed devices in
// minute buckets, seeded up to 08:00:54, warmed up to :56 and measured for
// 8 s, put half the window in each minute, and the busiest partition is
// predicted at about half its rate; seeded from 08:00:00 the window stays
// in one minute.
func TestProofWindowCrossesABucket(t *testing.T) {
	a := adviseOn(t, "iot-skewed")
	rc := a.Recommended.Candidate
	if got := a.Input.windowShare(rc, a.Input.Seeded, 2*time.Second, 8*time.Second); got != 1 {
		t.Errorf("from 08:00:00 the window is in one minute for %v of it", got)
	}
	_, src := load(t, "iot-skewed")
	shifted := strings.Replace(string(src), "start: 2025-03-01T08:00:00Z", "start: 2025-03-01T08:00:50Z", 1)
	sc, errs := scenario.Parse("shifted.yaml", []byte(shifted))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, err := Prepare(sc, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	c := &Candidate{Spec: rc.Spec, Scheme: rc.Scheme, Prediction: judgeSpec(t, in, rc.Spec)}
	share := in.windowShare(c, in.Seeded, 2*time.Second, 8*time.Second)
	if math.Abs(share-0.5) > 0.01 {
		t.Fatalf("the window crosses 08:01:00 half way: share %v", share)
	}
	f, err := in.JudgeAt(context.Background(), c.Scheme, in.DepthSize(in.Seeded, 2*time.Second, 8*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := f.BusiestOver(8*time.Second, 1)
	half, _ := f.BusiestOver(8*time.Second, share)
	if r := half / whole; r < 0.48 || r > 0.55 {
		t.Errorf("busiest %v entities/s over a window split in two, %v over one: want about half", half, whole)
	}
}
