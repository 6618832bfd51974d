package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/report"
)

// factsOf is compareFacts of the ready scenario name for one run of run.
func factsOf(t *testing.T, name string, run report.RunInfo, ops int64) map[string]report.SchemeFacts {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, stdin: strings.NewReader(""), hard: context.Background()}
	r := &report.Report{Run: run, DurationS: 10}
	r.Totals.Ops = ops
	facts := compareFacts(context.Background(), e, "../../scenarios/"+name+".yaml", []*report.Report{r})
	if facts == nil {
		t.Fatalf("%s: no facts: %s", name, errb.String())
	}
	return facts
}

// kinds lists the kinds of a scheme's key findings.
func kinds(f report.SchemeFacts) string {
	var k []string
	for _, x := range f.Findings {
		k = append(k, x.Kind)
	}
	return strings.Join(k, ",")
}

// compare's decision reads the judge's verdicts on each scheme's keys,
// in the judge's words: guid's transactions hold one entity of the 20
// asked, device's fill; append-only's PartitionKeys only grow under the
// inserts, guid's do not. A closed loop is judged at the rate its run
// measured, for its keys only (no horizon figures).
func TestCompareFactsCarryTheJudgesKeyFindings(t *testing.T) {
	open := report.RunInfo{Mode: "open", Rate: 200}
	g := factsOf(t, "guid-partitions", open, 2000)
	if kinds(g["guid"]) != "batch_fill" || kinds(g["device"]) != "" || g["guid"].Horizon == "" {
		t.Fatalf("guid-partitions: %+v", g)
	}
	if w := g["guid"].Findings[0]; !strings.HasPrefix(w.Words, "entity group transactions hold 1 of the 20 entities asked") || w.Ratio < 9 {
		t.Errorf("guid's fill: %+v", w)
	}
	a := factsOf(t, "append-only", report.RunInfo{Mode: "open", Rate: 4000}, 40000)
	if kinds(a["append-only"]) != "monotonic" || kinds(a["guid"]) != "" {
		t.Errorf("append-only: %+v", a)
	}
	if w := a["append-only"].Findings[0].Words; !strings.HasPrefix(w, "append-only PartitionKeys: all ") {
		t.Errorf("append-only's words: %q", w)
	}
	c := factsOf(t, "guid-partitions", report.RunInfo{Mode: "closed"}, 2000)
	if kinds(c["guid"]) != "batch_fill" || c["guid"].Horizon != "" {
		t.Errorf("a closed loop: %+v", c)
	}
}
