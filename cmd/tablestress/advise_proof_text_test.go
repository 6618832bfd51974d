package main

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// The proof's table shows the share of requests the judge predicted
// refused beside the share measured, in the text (when the width allows:
// it is the first column dropped to fit) and in the HTML.
func TestProofShowsPredictedThrottling(t *testing.T) {
	pr := &advise.Proof{Run: true, OK: true, Rate: 630, DurationS: 2, Tolerance: advise.MaxOff, Entities: 1_000_000, Schemes: []advise.ProofRun{{
		Scheme: "hash29-minute", Role: "recommended",
		Predicted: advise.ProofFigures{BusiestPartition: "07_2026", BusiestEntitiesPerSec: 30.5, ThrottledShare: 0.013},
		Measured:  &advise.ProofFigures{BusiestPartition: "07_2026", BusiestEntitiesPerSec: 27.5, ThrottledShare: 0.008},
	}}}
	var b strings.Builder
	printProof(&textfit.Printer{W: &b, Style: textfit.Style{}}, pr)
	if out := b.String(); !strings.Contains(out, "THROTTLED PREDICTED") || !strings.Contains(out, "1.3%") || !strings.Contains(out, "0.8%") {
		t.Errorf("the proof's table should show 1.3%% predicted beside 0.8%% measured:\n%s", out)
	}
	var h strings.Builder
	writeProofHTML(&textfit.Printer{W: &h}, pr)
	if out := h.String(); !strings.Contains(out, "<th>throttled predicted</th>") || !strings.Contains(out, "<td>1.3%</td></tr>") {
		t.Errorf("the proof's HTML should show 1.3%% predicted:\n%s", out)
	}
}
