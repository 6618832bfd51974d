package judge

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// An operation on a picked entity reads the rows its partition holds in
// the current time bucket, however young the table: at 50,000 entities
// (17 seconds of event time, an hour bucket barely begun) each device's
// bucket holds 2,500 rows, so each range query of 20 rows reads 20, as at
// 1,000,000 entities; the busiest partition's load is the same at both
// depths, its writes and reads alike.
func TestPicksOnAYoungBucket(t *testing.T) {
	in := readyInput(t, "iot-telemetry")
	sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "device-hour", PartitionKey: "{device}_{time:yyyy-MM-dd-HH}", RowKey: "{inverted_ticks}"})
	if err != nil {
		t.Fatal(err)
	}
	var busiest []float64
	for _, n := range []int64{50_000, 1_000_000} {
		f, err := in.JudgeAt(context.Background(), sch, in.DepthSize(n, 2*time.Second, 3*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		busiest = append(busiest, f.BusiestEntitiesPerSec)
	}
	// 20 devices: 3,000 writes/s, 270 ranges of 20 rows, 180 point
	// reads, 4 newest 50 and 4 point questions a second.
	want := (3000.0 + 270*20 + 180 + 4*50 + 4) / 20 * 3500 / 3458
	for k, b := range busiest {
		if math.Abs(b/want-1) > 0.01 {
			t.Errorf("busiest partition at depth %d: %v entities/s, want %v", k, b, want)
		}
	}
}
