package judge

import (
	"context"
	"testing"
)

// Each question keeps its own largest pass: under parcel-tracking-
// dashboard's depot-day scheme a depot's whole last day and its newest
// 50 both read the depot's partitions, and the day's pass, the largest
// (Figures.BurstRows), hides the newest 50's; each question's cost says
// its own, the newest 50's at least its 50 rows and within what one
// query may read, and its partition is named.
func TestEachQuestionKeepsItsPass(t *testing.T) {
	in := readyInput(t, "parcel-tracking-dashboard")
	var p *Prediction
	for _, s := range in.Own {
		if s.Name == "depot-day" {
			var err error
			if p, err = in.Judge(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if p == nil {
		t.Fatal("no depot-day scheme")
	}
	by := map[string]QuestionCost{}
	for _, q := range p.Questions {
		by[q.Name] = q
	}
	day, recent := by["depot-24h"], by["depot-recent"]
	if p.BurstOf != "depot-24h" || day.BurstRows != p.BurstRows || day.BurstPartition != p.BurstPartition {
		t.Errorf("the largest pass %v of %q on %q; depot-24h's %v on %q", p.BurstRows, p.BurstOf, p.BurstPartition, day.BurstRows, day.BurstPartition)
	}
	if !(recent.BurstRows >= 50) || !(recent.BurstRows < in.PassLimit()) || recent.BurstPartition == "" {
		t.Errorf("depot-recent's pass %v rows on %q, want 50 to %v", recent.BurstRows, recent.BurstPartition, in.PassLimit())
	}
	if p.ServerPassOf != "" && by[p.ServerPassOf].ServerPassRows != p.ServerPassRows {
		t.Errorf("server pass %v of %q, its own %v", p.ServerPassRows, p.ServerPassOf, by[p.ServerPassOf].ServerPassRows)
	}
}
