package report

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// modelRun is a report of scheme under model with requests of which
// throttled were refused with status key refused.
func modelRun(scheme, model string, requests, throttled int64, refused string) *Report {
	r := &Report{Scheme: scheme, Model: model, Operations: map[string]Stats{"batch": {Counts: metrics.Counts{Ops: requests, Requests: requests}}}}
	r.Totals = Stats{Counts: metrics.Counts{Ops: requests, Requests: requests, Throttled: throttled}, Status: map[string]int64{"202": requests - throttled}}
	if throttled > 0 {
		r.Totals.Status[refused] = throttled
	}
	return r
}

// A comparison across models names each run's model, in its row and in
// the sections by run; one model is named once, in the header.
func TestCompareNamesModels(t *testing.T) {
	across := []*Report{modelRun("constant", "azure", 100, 67, "503 ServerBusy"), modelRun("constant", "cosmos,ru=4000", 100, 86, "429 TooManyRequests")}
	var b strings.Builder
	if err := WriteCompare(&b, across); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MODEL", "cosmos,ru=4000", "86% throttled by request units (429)",
		"constant @ azure: 503 ServerBusy", "constant @ cosmos,ru=4000: 429 TooManyRequests", "constant @ cosmos,ru=4000"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
	same := []*Report{modelRun("constant", "azure", 100, 0, ""), modelRun("hash", "azure", 100, 0, "")}
	b.Reset()
	if err := WriteCompare(&b, same); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nmodel: azure\n") || strings.Contains(b.String(), "@") || strings.Contains(b.String(), "MODEL") {
		t.Errorf("one model: want it in the header, not on the rows:\n%s", b.String())
	}
}
