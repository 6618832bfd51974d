package metrics

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/outcome"
)

var tooMany = outcome.New(429, "TooManyRequests")

func charged(rec *Recorder, op Op, part string, o outcome.Outcome, n int, ru float64, at int) {
	rec.Request(Request{Op: op, Partition: part, Outcome: o, Entities: n, At: sec(at/1000, at%1000), Charged: true, Charge: ru})
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// Request units charged are counted for the run, each operation, each
// partition and each second, refusals included; a partition's peak RU/s
// is its busiest second's charges, exact across workers; requests without
// a charge leave every RU figure zero (and out of JSON).
func TestRequestUnitsCounted(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	a, b := reg.NewRecorder(), reg.NewRecorder()
	charged(a, Insert, "P", ok201, 1, 4.95, 100)
	charged(b, Insert, "P", ok201, 1, 4.95, 200)
	charged(b, PointRead, "P", ok200, 1, 1, 900)
	charged(a, Insert, "P", tooMany, 0, 0, 950) // a refusal: charged nothing, counted as charged
	reg.Tick(sec(1, 1))
	charged(a, PointRead, "P", ok200, 1, 1, 1500)
	charged(b, PointRead, "Q", ok200, 1, 1.04, 1600)
	insert(a, "R", 1, sec(1, 700)) // no charge sent
	s := reg.Finish(sec(2, 0))
	if tot := s.Totals; tot.Charged != 6 || !near(tot.RequestUnits, 4.95+4.95+1+1+1.04) {
		t.Errorf("totals: %d charged, %v RU", tot.Charged, tot.RequestUnits)
	}
	if in := s.Ops[Insert]; in.Charged != 3 || !near(in.RequestUnits, 9.9) {
		t.Errorf("insert: %d charged, %v RU", in.Charged, in.RequestUnits)
	}
	p := find(t, s, "P")
	if p.Charged != 5 || !near(p.RequestUnits, 11.9) || !near(p.PeakUnits, 10.9) || !near(p.ThrottledPeakUnits, 10.9) || !p.PeakExact {
		t.Errorf("P: %+v", p)
	}
	if r := find(t, s, "R"); r.Charged != 0 || r.RequestUnits != 0 || r.PeakUnits != 0 {
		t.Errorf("R, never charged: %+v", r)
	}
	if s.Intervals[0].Charged != 4 || !near(s.Intervals[1].RequestUnits, 2.04) {
		t.Errorf("intervals %+v", s.Intervals)
	}
	b1, _ := json.Marshal(find(t, s, "R").Counts)
	b2, _ := json.Marshal(p.Counts)
	if string(b1) == string(b2) || json.Valid(b1) && containsKey(b1, "request_units") || !containsKey(b2, "request_units") {
		t.Errorf("JSON without charges %s, with %s", b1, b2)
	}
}

func containsKey(b []byte, key string) bool {
	var m map[string]any
	json.Unmarshal(b, &m)
	_, ok := m[key]
	return ok
}

// A charged partition is judged by its RU/s against PartitionUnits: over
// its share when its peak second charged more, or when it was throttled in
// a second that charged at least 95% of it; an uncharged one by entities.
func TestOverTargetByRequestUnits(t *testing.T) {
	reg := NewRegistry(Options{Start: t0, PartitionUnits: 100})
	rec := reg.NewRecorder()
	for i := 0; i < 21; i++ { // 21 × 4.95 = 103.95 RU in second 0: over 100
		charged(rec, Insert, "over", ok201, 1, 4.95, 10+i)
	}
	for i := 0; i < 19; i++ { // 94.05 RU and a 429 in second 0: not 95% of 100
		charged(rec, Insert, "under", ok201, 1, 4.95, 10+i)
	}
	charged(rec, Insert, "under", tooMany, 0, 0, 50)
	for i := 0; i < 20; i++ { // 99 RU and a 429: over 95%
		charged(rec, Insert, "hot", ok201, 1, 4.95, 10+i)
	}
	charged(rec, Insert, "hot", tooMany, 0, 0, 50)
	for i := 0; i < 3000; i++ { // entities over 2,000, no charge: by entities
		insert(rec, "entities", 1, sec(0, i%1000))
	}
	s := reg.Finish(sec(1, 0))
	for key, want := range map[string]bool{"over": true, "under": false, "hot": true, "entities": true} {
		if got := find(t, s, key).OverTarget; got != want {
			t.Errorf("%s: over target %v, want %v (%+v)", key, got, want, find(t, s, key))
		}
	}
}
