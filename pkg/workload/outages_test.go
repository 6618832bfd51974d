package workload

import (
	"reflect"
	"testing"
	"time"
)

// The outage tracker fed verdicts a second apart, from a window that
// starts at from: each row lists the verdicts (down or up, with the last
// answer's time) and the outages it must report at the end (10 s).
func TestOutageTrackerPeriods(t *testing.T) {
	from := time.Unix(1000, 0)
	s := func(d float64) time.Time { return from.Add(time.Duration(d * float64(time.Second))) }
	type v struct {
		at         float64 // seconds after from
		down       bool
		lastAnswer float64
	}
	for _, tc := range []struct {
		name     string
		verdicts []v
		want     []Outage
	}{
		{"never down", []v{{1, false, 0.9}, {2, false, 1.9}}, nil},
		// down from the last answer (1.25 s) to the first verdict up (6 s)
		{"one outage", []v{{1, false, 0.9}, {2, true, 1.25}, {3, true, 1.25}, {6, false, 5.5}},
			[]Outage{{Start: 1250 * time.Millisecond, End: 6 * time.Second, Cause: "c"}}},
		// still down at the end: closed there
		{"open at the end", []v{{2, true, 1.5}}, []Outage{{Start: 1500 * time.Millisecond, End: 10 * time.Second, Cause: "c"}}},
		// a late answer (4 s) ended the first outage at 5 s, but the
		// silence since that answer is the same outage: one, from 1 s
		{"a late answer does not split an outage", []v{{2, true, 1}, {5, false, 4}, {7, true, 4}, {8, false, 7.5}},
			[]Outage{{Start: time.Second, End: 8 * time.Second, Cause: "c"}}},
		// an answer after the first outage ended starts a second one
		{"two outages", []v{{2, true, 1}, {3, false, 2.5}, {6, true, 4}, {7, false, 6.5}},
			[]Outage{{Start: time.Second, End: 3 * time.Second, Cause: "c"}, {Start: 4 * time.Second, End: 7 * time.Second, Cause: "c"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := outageTracker{from: from}
			for _, x := range tc.verdicts {
				cause := ""
				if x.down {
					cause = "c"
				}
				o.verdict(s(x.at), x.down, cause, s(x.lastAnswer))
			}
			if got := o.finish(s(10)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("outages %+v, want %+v", got, tc.want)
			}
		})
	}
}
