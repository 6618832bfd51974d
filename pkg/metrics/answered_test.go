package metrics

import (
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// The entities of an answered operation count as answered, for the
// operation, the second, the question and the totals; those a failed
// operation's successful requests served (a scan's first pages) count in
// entities, as its partition served them, but not as answered; a question
// the end cut short and a warm-up operation credit nothing, and two
// operations in flight on one recorder at once keep their entities apart.
func TestAnsweredEntities(t *testing.T) {
	t0 := time.Unix(1000, 0)
	reg := NewRegistry(Options{Start: t0, Questions: []string{"q"}})
	rec := reg.NewRecorder()
	ok, busy := outcome.New(200, ""), outcome.New(503, "ServerBusy")
	at := t0.Add(300 * time.Millisecond)
	page := func(op Op, start time.Time, o outcome.Outcome, n int, question int) {
		rec.Request(Request{Op: op, Partition: "p", Outcome: o, Entities: n, Page: true, At: at, Start: start, Question: question})
	}
	a, b := t0.Add(10*time.Millisecond), t0.Add(20*time.Millisecond) // two scans in flight at once
	page(PartitionScan, a, ok, 1000, 0)
	page(PartitionScan, b, ok, 700, 0)
	page(PartitionScan, a, ok, 400, 0)
	page(PartitionScan, b, busy, 0, 0)
	rec.Done(PartitionScan, "p", b, at, false) // b: 700 served, then refused: failed
	rec.Done(PartitionScan, "p", a, at, true)  // a: 1,400 answered
	c, d := t0.Add(30*time.Millisecond), t0.Add(40*time.Millisecond)
	page(Question, c, ok, 50, 1)
	rec.QuestionDone(0, "p", c, at, true, QuestionFigures{Partitions: 1})
	page(Question, d, ok, 60, 1)
	rec.QuestionCutShort(0, d, at, 1, 0) // cut short: no answer
	w := t0.Add(-time.Second)            // a warm-up scan
	page(PartitionScan, w, ok, 9, 0)
	rec.Done(PartitionScan, "p", w, at, true)
	s := reg.Finish(t0.Add(time.Second))
	scan := s.Ops[PartitionScan]
	if scan.Entities != 2100 || scan.AnsweredEntities != 1400 || scan.Ops != 2 || scan.Failed != 1 {
		t.Errorf("scans: %+v, want 2,100 entities of which 1,400 answered", scan.Counts)
	}
	if q := s.Questions["q"]; q.Entities != 110 || q.AnsweredEntities != 50 || s.Ops[Question].AnsweredEntities != 50 {
		t.Errorf("question: %+v, want 110 entities of which 50 answered", q.Counts)
	}
	if s.Totals.AnsweredEntities != 1450 || s.Totals.Entities != 2210 {
		t.Errorf("totals: %+v, want 2,210 entities of which 1,450 answered", s.Totals.Counts)
	}
	if iv := s.Intervals[0]; iv.AnsweredEntities != 1450 {
		t.Errorf("second 0: %+v, want 1,450 answered", iv.Counts)
	}
	if p := s.Partitions[0]; p.AnsweredEntities != 0 || p.Entities != 2210 {
		t.Errorf("partition: %+v: its entities are what it served, answered or not", p.Counts)
	}
	if len(rec.serving) != 0 || rec.lastServed != 0 {
		t.Errorf("entities still held for %d operations (and %d) after every one ended", len(rec.serving), rec.lastServed)
	}
}
