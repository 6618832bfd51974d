package judge

import (
	"context"
	"math"
	"testing"
	"time"
)

// twoDevices write 900 readings a second each, kept 30 days: under hour
// buckets each device's expired hour is deleted whole, under the device
// alone a daily sweep deletes its old readings beside its live load.
const twoDevices = `
name: two-devices
seed: 4
population:
  entities: 20k
  interval: 555556ns
  fields:
    device: {kind: choice, values: [d1, d2]}
schemes:
  - {name: device-hour, partition_key: "{device}_{time:yyyy-MM-dd-HH}", row_key: "{inverted_ticks}"}
  - {name: device, partition_key: "{device}", row_key: "{inverted_ticks}"}
workload:
  rate: 1800
  mix:
    - {op: insert, weight: 1}
`

// Deleting a partition whole charges no partition a share of its target
// (nothing else loads an expired partition, and how fast it goes is the
// operator's to choose): device-hour's expired hours, read and deleted at
// twice the 900 a second they were written, over the 1,400 of a
// partition's target the headroom leaves, are no deletion_load finding,
// and its deletion's requests still count at the account. A sweep of the
// device's own partition, which keeps taking its writes, is one.
func TestDeletingWholePartitionsChargesNoPartition(t *testing.T) {
	in := prepare(t, "two-devices", []byte(twoDevices))
	in.Opts.Retention = 30 * 24 * time.Hour
	has := map[string]bool{}
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		d := p.Deletion
		if d == nil || d.AccountRequestsPerSec <= 0 {
			t.Fatalf("%s: deletion %+v", s.Name, d)
		}
		if s.Name == "device-hour" && (d.Tables[0].How != "partitions" || math.Abs(d.BusiestEntitiesPerSec-1800) > 18) {
			t.Errorf("device-hour deletes %+v; want whole hours at 1,800 entities/s", d)
		}
		for _, f := range Problems(in.Findings(p, Limits{Headroom: 0.7, MaxThrottled: 0.01})) {
			has[s.Name] = has[s.Name] || f.Kind == DeletionLoad
		}
	}
	if has["device-hour"] || !has["device"] {
		t.Errorf("deletion_load findings %v; want the sweep's (device) alone", has)
	}
}
