package judge

import (
	"context"
	"math"
	"testing"
)

// dashboard are 30,000 users posting 100 times a second in all (each
// about once every five minutes), asked of their last minute two ways:
// up to now (the default, as a dashboard asks) and up to the picked
// post (anchor: picked), and the posts of the current minute.
const dashboard = `
name: dashboard
seed: 8
population:
  entities: 60000
  start: 2025-03-01T00:00:30Z
  interval: 10ms
  fields:
    user: {kind: id, count: 30000}
questions:
  - {name: last-minute, known: [user], want: all, window: 1m}
  - {name: around-post, known: [user], want: all, window: 1m, anchor: picked}
  - {name: this-minute, want: all, window: minute}
schemes:
  - {name: by-user, partition_key: "{user}", row_key: "{inverted_ticks}"}
  - {name: by-minute, partition_key: "{time:yyyy-MM-dd-HH-mm}", row_key: "{inverted_ticks}"}
workload:
  rate: 110
  mix:
    - {op: insert, weight: 100}
    - {question: last-minute, weight: 5}
    - {question: around-post, weight: 5}
`

// A window ends now unless the question anchors it at the picked entity:
// a user's last minute holds 6,000 ÷ 30,000 = 0.2 posts, and the picked
// post only when it is that recent (one in ten); the minute up to the
// picked post holds the post and 0.2 others; the current minute holds
// what the table has of it (the seeded table ends 30 s into one: 3,000
// posts). The judge gives what the exact model of the seeded table gives
// for both, under a key by user and by minute.
func TestWindowsEndNow(t *testing.T) {
	in := prepare(t, "dashboard", []byte(dashboard))
	checkAgainstModel(t, "dashboard", in)
	p, err := in.Judge(context.Background(), in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	q := p.Seeded.Questions
	for k, want := range []float64{0.2 + 0.1, 1.2, 3000} {
		if math.Abs(q[k].RowsPerQuestion-want) > 0.05*want {
			t.Errorf("%s returns %.3f rows on the seeded table; want %v", q[k].Name, q[k].RowsPerQuestion, want)
		}
	}
}

// depots are 50 depots scanning 1,000 parcels a second in all, asked of a
// depot's last 10 minutes (up to now) and of the 10 minutes up to a
// picked scan (anchor: picked), under minute partitions.
const depots = `
name: depots
population:
  entities: 100k
  interval: 1ms
  fields:
    depot: {kind: id, count: 50, prefix: D, width: 2}
questions:
  - {name: last-10m, known: [depot], want: all, window: 10m}
  - {name: before-scan, known: [depot], want: all, window: 10m, anchor: picked}
schemes:
  - {name: depot-minute, partition_key: "{depot}_{time:yyyy-MM-dd-HH-mm}", row_key: "{inverted_ticks}"}
workload:
  rate: 1002/s
  mix:
    - {op: insert, weight: 1000}
    - {question: last-10m, weight: 1}
    - {question: before-scan, weight: 1}
`

// At the horizon a 10-minute window holds a depot's 10 minutes, 12,000
// scans, whether it ends now or at a scan picked anywhere in the year
// (and then the scan besides): its first and last minute buckets, cut by
// the window, are judged apart from the whole ones between.
func TestWindowOverMinuteBuckets(t *testing.T) {
	in := prepare(t, "depots", []byte(depots))
	p, err := in.Judge(context.Background(), in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{12000, 12001} {
		if q := p.Questions[k]; math.Abs(q.RowsPerQuestion-want) > 0.01*want {
			t.Errorf("%s returns %.0f rows at the horizon; want %v", q.Name, q.RowsPerQuestion, want)
		}
	}
}
