package advise

import (
	"context"
	"os"
	"testing"
)

// The proof's prediction carries the share of requests the judge expects
// partitions and partition servers to refuse at the proof's depth, beside
// the busiest partition: the help desk's recommendation scans a minute of
// tickets that runs partition servers into debt now and then, so about
// 1% is refused at a million tickets, and the proof shows that figure,
// not 0.
func TestProofPredictsItsThrottling(t *testing.T) {
	src, err := os.ReadFile("testdata/tickets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := adviseSource(t, "tickets", string(src))
	p, err := a.Plan(context.Background(), ProofOptions{RecommendedOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r := p.Schemes[0]
	want := r.depth.ThrottledShare
	if want <= 0 {
		t.Fatalf("%s at %d entities: %v refused; the test needs a recommendation that refuses a little", r.Scheme, p.Entities, want)
	}
	if got := r.Predicted.ThrottledShare; got != want {
		t.Errorf("the proof predicts %v throttled; the judge at its depth %v", got, want)
	}
}
