package advise

import (
	"math"
	"strings"
	"testing"
	"time"
)

// With a retention, every candidate pays for deleting its old data, in
// its ranking and its why: the IoT devices in hour buckets drop each
// expired hour's partitions (a range read of a page per 1,000 rows and a
// transaction per 100 deletes, over the hour); the devices' own
// partitions are swept daily by a filter visiting every row, and the
// old readings deleted one by one, which charges a device's partition
// over the headroom.
func TestDeletionCost(t *testing.T) {
	opts := Defaults()
	opts.Retention = 30 * 24 * time.Hour
	a := adviseWith(t, "iot-telemetry", opts)
	hour := candidate(t, a, "device-hour")
	d := hour.Prediction.Deletion
	if d == nil || len(d.Tables) != 1 || d.Tables[0].How != "partitions" {
		t.Fatalf("device-hour deletion %+v", d)
	}
	w := a.Input.InsertRate()
	rows := w / 20 * 3600 // a device's hour
	want := 20 * (math.Ceil(rows/1000) + math.Ceil(rows/100)) / 3600
	if math.Abs(d.AccountRequestsPerSec-want) > 1e-9*want {
		t.Errorf("device-hour deletes with %v requests/s, want %v", d.AccountRequestsPerSec, want)
	}
	dev := candidate(t, a, "device")
	sweep := dev.Prediction.Deletion
	if sweep == nil || sweep.Tables[0].How != "sweep" || sweep.AccountRequestsPerSec < w || !hasProblem(a.Input, dev, "deleting data older than 30d would take") {
		t.Errorf("device: deletion %+v, problems %v", sweep, dev.Problems)
	}
	r := a.Recommended
	if r == nil || r.Name != "device-hour" || !strings.Contains(strings.Join(r.Why, "\n"), "with data kept 30d, deleting data older than 30d: main drops a time bucket's partitions every hour") ||
		!strings.Contains(strings.Join(r.Costs, "\n"), "deleting data older than 30d") {
		t.Errorf("recommended %+v", r)
	}
	if got := accountRequests(hour.Prediction); got != hour.Prediction.AccountRequestsPerSec+d.AccountRequestsPerSec {
		t.Errorf("the account's requests in the ranking %v leave out deleting", got)
	}
}
