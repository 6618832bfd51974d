package advise

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// A candidate that serves the load but whose partitions outgrow the
// bound ranks after those that can be recommended and before every one
// that cannot serve the load, however far past the bound it grows: the
// runner-up serves the load.
func TestRankOutgrownBeforeHot(t *testing.T) {
	mk := func(name string, over float64, outgrown bool, problems ...judge.Finding) *Candidate {
		return &Candidate{Spec: keygen.SchemeSpec{Name: name}, Problems: problems, Over: over, outgrown: outgrown, Prediction: &Prediction{}}
	}
	cs := []*Candidate{
		mk("hot", 1.5, false, judge.Finding{Kind: judge.HotPartition, Partition: "a"}),
		mk("outgrown", 30_000, true, judge.Finding{Kind: judge.PartitionRows}),
		mk("clean", 0, false),
	}
	in := &Input{Opts: Defaults()}
	in.rank(cs)
	var got []string
	for _, c := range cs {
		got = append(got, c.Spec.Name)
	}
	if got[0] != "clean" || got[1] != "outgrown" || got[2] != "hot" {
		t.Errorf("ranked %v, want clean, outgrown, hot", got)
	}
}
