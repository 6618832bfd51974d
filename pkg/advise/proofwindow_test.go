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
	if got := a.Input.windowShares(rc, a.Input.Seeded, 2*time.Second, 8*time.Second).Of(""); got != 1 {
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
	shares := in.windowShares(c, in.Seeded, 2*time.Second, 8*time.Second)
	if share := shares.Of(""); math.Abs(share-0.5) > 0.01 {
		t.Fatalf("the window crosses 08:01:00 half way: share %v", share)
	}
	f, err := in.JudgeAt(context.Background(), c.Scheme, in.DepthSize(in.Seeded, 2*time.Second, 8*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := f.BusiestOver(8*time.Second, nil)
	half, _ := f.BusiestOver(8*time.Second, shares)
	if r := half / whole; r < 0.48 || r > 0.55 {
		t.Errorf("busiest %v entities/s over a window split in two, %v over one: want about half", half, whole)
	}
}

// An index table's time bucket turns within a proof's window as the main
// table's does: order-screen's recommendation keeps its orders under
// {order} and writes an index row to ByTimeCopy under a minute bucket, so
// over 120 s each index partition takes its rows for at most 60 s of it,
// and the busiest (an index partition) is predicted at about half its
// rate while current.
func TestProofWindowCrossesAnIndexBucket(t *testing.T) {
	a := adviseOn(t, "order-screen")
	rc := a.Recommended.Candidate
	if len(rc.Scheme.Indexes) != 1 {
		t.Fatalf("recommended %s: want one index table", rc.Spec.Name)
	}
	ix := rc.Scheme.Indexes[0].Name
	shares := a.Input.windowShares(rc, 1_000_000, 2*time.Second, 120*time.Second)
	if main, idx := shares.Of(""), shares.Of(ix); main != 1 || idx < 0.49 || idx > 0.51 {
		t.Fatalf("over 120 s: main table current for %v of the window, %s for %v; want 1 and 0.5", main, ix, idx)
	}
	f, err := a.Input.JudgeAt(context.Background(), rc.Scheme, a.Input.DepthSize(1_000_000, 2*time.Second, 120*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if f.BusiestTable() != ix {
		t.Fatalf("busiest table %q, want %s", f.BusiestTable(), ix)
	}
	whole, _ := f.BusiestOver(120*time.Second, nil)
	half, _ := f.BusiestOver(120*time.Second, shares)
	if r := half / whole; r < 0.48 || r > 0.55 {
		t.Errorf("busiest %v entities/s with the index's minute turning, %v without: want about half", half, whole)
	}
}
