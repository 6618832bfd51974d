package metrics

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// A question's requests count in the totals, under the question operation
// and under the question, their request units with them (once each, by
// the same rule); its completion carries its own figures; a warm-up
// question counts nowhere.
func TestQuestionFigures(t *testing.T) {
	t0 := time.Unix(1000, 0)
	reg := NewRegistry(Options{Start: t0, Questions: []string{"newest", "orders"}})
	rec := reg.NewRecorder()
	ok, busy := outcome.New(200, ""), outcome.New(503, "ServerBusy")
	at := t0.Add(100 * time.Millisecond)
	for k, o := range []outcome.Outcome{ok, busy, ok} {
		rec.Request(Request{Op: Question, Partition: "p" + string(rune('0'+k)), Outcome: o, Entities: 10, Page: true, At: at, Start: t0, Question: 2,
			Charged: true, Charge: []float64{2.5, 0, 5}[k]})
	}
	rec.QuestionDone(1, CrossPartition, t0, at, true, QuestionFigures{Partitions: 3, Visited: 40, VisitedByService: 2, Returned: 20})
	rec.Request(Request{Op: Insert, Partition: "i", Outcome: outcome.New(201, ""), Entities: 1, At: at, Charged: true, Charge: 1})
	rec.Request(Request{Op: Question, Partition: "w", Outcome: ok, Entities: 1, At: at, Start: t0.Add(-time.Second), Question: 1, Charged: true, Charge: 9})
	rec.QuestionDone(0, "w", t0.Add(-time.Second), at, true, QuestionFigures{Partitions: 1, Visited: 1})
	rec.QuestionDropped(0, at)
	s := reg.Finish(t0.Add(time.Second))
	q := s.Questions["orders"]
	if q.Requests != 3 || q.Throttled != 1 || q.Entities != 20 || q.Ops != 1 || q.Partitions != 3 || q.Visited != 40 || q.Charged != 3 || q.RequestUnits != 7.5 || q.Status["503 ServerBusy"] != 1 {
		t.Errorf("orders: %+v %+v", q.Counts, q.QuestionFigures)
	}
	if n := s.Questions["newest"]; n.Ops != 0 || n.Requests != 0 || n.Dropped != 1 || n.Visited != 0 {
		t.Errorf("newest: a warm-up question counted: %+v %+v", n.Counts, n.QuestionFigures)
	}
	if op := s.Ops[Question]; op.Requests != 3 || op.Ops != 1 || op.Dropped != 1 || op.RequestUnits != 7.5 || s.Totals.Requests != 4 ||
		s.Totals.RequestUnits != 8.5 || s.Totals.Charged != 4 {
		t.Errorf("question operation %+v, totals %+v", op.Counts, s.Totals.Counts)
	}
	b, err := json.Marshal(s.Questions)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]QuestionStats
	if err := json.Unmarshal(b, &back); err != nil || back["orders"].QuestionFigures != q.QuestionFigures || back["orders"].Counts != q.Counts ||
		back["orders"].Latency.TotalCount() != 1 {
		t.Errorf("JSON round trip: %v %+v", err, back["orders"])
	}
	if n := strings.Count(string(b), `"request_units"`); n != 1 {
		t.Errorf("request_units %d times in %s", n, b)
	}
}
