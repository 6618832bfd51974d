package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/textfit"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// scanRun is a run of n partition scans over 10 s, one a 10 ms step: a
// scan whose index is below failing reads a first page of 100 entities,
// then is refused its second and fails; the others read one page of 10
// and are answered. dropped operations found no worker.
func scanRun(scheme string, n, failing, dropped int) *Report {
	reg := metrics.NewRegistry(metrics.Options{Start: t0, PartitionTarget: 2000})
	rec := reg.NewRecorder()
	ok, busy := outcome.New(200, ""), outcome.New(503, "ServerBusy")
	for i := range n {
		at := t0.Add(time.Duration(i) * 10 * time.Millisecond * 1000 / time.Duration(n))
		part := "p" + string(rune('a'+i%20))
		if i < failing {
			rec.Request(metrics.Request{Op: metrics.PartitionScan, Partition: part, Outcome: ok, Entities: 100, Page: true, At: at, Start: at})
			rec.Request(metrics.Request{Op: metrics.PartitionScan, Partition: part, Outcome: busy, Page: true, At: at, Start: at})
			rec.Done(metrics.PartitionScan, part, at, at.Add(2*time.Millisecond), false)
			continue
		}
		rec.Request(metrics.Request{Op: metrics.PartitionScan, Partition: part, Outcome: ok, Entities: 10, Page: true, At: at, Start: at})
		rec.Done(metrics.PartitionScan, part, at, at.Add(8*time.Millisecond), true)
	}
	for i := range dropped {
		rec.Dropped(metrics.PartitionScan, t0.Add(time.Duration(i)*time.Second))
	}
	return Build(Meta{Scenario: "parcels", Scheme: scheme, Target: Target{Kind: "embedded", Endpoint: "in-process"},
		Run: RunInfo{Mode: "open", Rate: 100, Workers: 1000, Retry: "none", Seed: 7, PartitionTarget: 2000, DurationS: 10}}, reg.Finish(t0.Add(10*time.Second)))
}

// A scheme that fails most of its work wins every raw counter (more
// operations, requests and entities, the entities its failed scans'
// first pages served): no view shows it ahead of the scheme that passes.
// The text, the JSON and the HTML each put the passing scheme first,
// mark the failing one failed before any of its throughput, count as
// throughput only what was answered, and colour the passing scheme's
// verdict (0.10% of operations failed; 5 dropped: within the rule)
// anything but red.
func TestAFailingSchemeWinsNoHeadline(t *testing.T) {
	naive, good := scanRun("naive", 1200, 960, 0), scanRun("good", 1000, 1, 5)
	if !(naive.Totals.Ops > good.Totals.Ops && naive.Totals.Entities > good.Totals.Entities && naive.Totals.Requests > good.Totals.Requests) {
		t.Fatalf("the fixture: naive must win every raw counter: %+v against %+v", naive.Totals.Counts, good.Totals.Counts)
	}
	c := NewCompare([]*Report{naive, good}, nil, nil)

	var text bytes.Buffer
	if err := WriteCompareDoc(&text, c, textfit.Style{Color: true}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	goodRow, naiveRow := rowOf(out, "1  good"), rowOf(out, "2  naive")
	if goodRow == "" || naiveRow == "" || strings.Index(out, goodRow) > strings.Index(out, naiveRow) {
		t.Fatalf("good must be row 1 and naive row 2:\n%s", out)
	}
	if strings.Contains(goodRow, "\x1b[1;31m") || !strings.Contains(goodRow, "0.10% of operations failed; 5 dropped") {
		t.Errorf("the passing scheme's row is red, or lacks its verdict: %q", goodRow)
	}
	plain := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(naiveRow, "")
	fields := strings.Fields(plain)
	if fields[2] != "FAILED" || fields[3] != "24.0" || fields[4] != "240" || fields[5] != "80.00%" {
		t.Errorf("naive: want FAILED, then 24.0 answered/s, 240 answered entities/s and 80.00%% failed: %q", plain)
	}
	if g := strings.Fields(regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(goodRow, "")); g[2] != "PICK" || g[3] != "99.9" || g[4] != "999" {
		t.Errorf("good: want PICK, then 99.9 answered/s and 999 answered entities/s: %q", g)
	}
	uncoloured := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(out, "")
	last := strings.TrimSpace(uncoloured[strings.LastIndex(uncoloured, "\n\n"):])
	if !strings.HasPrefix(last, "decision: pick good: the only scheme that passes") || !strings.Contains(last, "naive: FAILED: 44.44% of its requests were throttled") {
		t.Errorf("the last lines do not decide:\n%s", last)
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	doc := js.String()
	if strings.Index(doc, `"decisions"`) > strings.Index(doc, `"runs"`) {
		t.Error("the JSON's decision comes after its runs")
	}
	naiveAt := strings.Index(doc, `"scheme": "naive"`)
	if r := strings.Index(doc[naiveAt:], `"result": "failed"`); r < 0 || r > strings.Index(doc[naiveAt:], `"totals"`) {
		t.Errorf("the naive run's JSON does not say failed before its totals")
	}
	var back Compare
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Decisions[0].Pick != "good" || back.Decisions[0].Schemes[1].Result != ResultFailed {
		t.Errorf("decoded decision: %v %+v", err, back.Decisions)
	}

	var page bytes.Buffer
	if err := WriteHTMLDoc(&page, c); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	pick := strings.Index(h, "pick good: the only scheme that passes")
	if pick < 0 || pick > strings.Index(h, "<h2>Comparison</h2>") {
		t.Error("the page does not decide before its comparison")
	}
	rows := regexp.MustCompile(`<tr><td class="n">(\d)</td><td class="l s">(\w+)</td><td class="l ?(\w*)">(\w+)</td><td>([\d.,]+)</td>.*?<td class="text (\w+)">`).FindAllStringSubmatch(h, -1)
	if len(rows) != 2 || rows[0][2] != "good" || rows[1][2] != "naive" {
		t.Fatalf("the page's rows: %q", rows)
	}
	if rows[0][3] != "good" || rows[0][4] != "PICK" || rows[0][6] == "bad" || strings.Contains(rows[0][0], "bad") || rows[1][3] != "bad" || rows[1][4] != "FAILED" || rows[1][5] != "24.0" || rows[1][6] != "bad" {
		t.Errorf("the page's rows: good must be picked and not red, naive failed (and red) before its 24.0 answered/s: %q", rows)
	}
}

// withQuestion gives r a question answered n times at a median of p50 ms.
func withQuestion(r *Report, p50 float64, n int64) *Report {
	q := Question{QuestionPlan: QuestionPlan{Name: "history", Plan: "range"}}
	q.Ops, q.Latency.P50 = n, p50
	r.Questions = map[string]Question{"history": q}
	return r
}

// Between two schemes that pass, the rule decides by its first figure
// that differs: the cheaper questions; within 15% (what no run tells
// apart) the decision says it is a near-tie, either serving the load.
func TestDecisionBetweenSchemesThatPass(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a, b     float64
		pick     string
		nearTie  bool
		lostWhy  string
		pickWhy  string
		loserIdx int
	}{
		{"clear", 9.4, 3.1, "b", false, "it ranks below b by question cost: its questions answered in 9.40 ms", "it ranks before a by question cost: its questions answered in 3.10 ms", 1},
		{"near", 3.3, 3.1, "b", true, "against 3.10 ms under b: a near-tie (within 15%", "a near-tie (within 15%, which no single run tells apart): either serves the load", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := withQuestion(scanRun("a", 1000, 0, 0), tc.a, 100), withQuestion(scanRun("b", 1000, 0, 0), tc.b, 100)
			d := Decide([]*Report{a, b}, nil, nil)[0]
			if d.Pick != tc.pick || d.NearTie != tc.nearTie || !strings.Contains(d.Line, tc.pickWhy) {
				t.Errorf("decision %+v: want pick %s, near-tie %v, why %q", d, tc.pick, tc.nearTie, tc.pickWhy)
			}
			if s := d.Schemes[tc.loserIdx]; s.Result != ResultPassed || !strings.Contains(s.Why, tc.lostWhy) || a.Result != ResultPassed || b.Result != ResultPick {
				t.Errorf("the other: %+v; results %s %s", s, a.Result, b.Result)
			}
		})
	}
}

// When none passes, the nearest is the one least far over its limits
// (here the one that failed the fewest of its operations), and the line
// says what it fails on; a scheme that answered nothing is not nearer
// for having fewer problems.
func TestDecisionWhenNonePasses(t *testing.T) {
	none, half := scanRun("none", 1000, 1000, 0), scanRun("half", 1000, 500, 300)
	d := Decide([]*Report{none, half}, nil, nil)[0]
	if d.Pick != "" || d.Nearest != "half" || !strings.HasPrefix(d.Line, "no scheme passes; the nearest is half, which fails on: 33.33% of its requests were throttled, over 1%; 50.00% of its operations failed after their retries, over 1%; 23.08% of the operations offered were dropped") {
		t.Errorf("decision: %+v", d)
	}
	if d.Schemes[1].Scheme != "none" || d.Schemes[1].Result != ResultFailed || !strings.HasPrefix(d.Schemes[1].Why, "50.00% of its requests were throttled, over 1%; and 1 more problem") {
		t.Errorf("the other: %+v", d.Schemes[1])
	}
}

// A comparison cut short decides nothing: every scheme is listed with how
// far it ran (stopped after N s, not run), in the decision, the text's
// header and its last lines.
func TestDecisionOfAnInterruptedCompare(t *testing.T) {
	done, stopped := scanRun("done", 1000, 0, 0), scanRun("cut", 400, 0, 0)
	stopped.Interrupted, stopped.DurationS = true, 4
	c := NewCompare([]*Report{done, stopped}, []Planned{{Scheme: "later"}}, nil)
	d := c.Decisions[0]
	want := "no decision: not every scheme ran to its end (cut stopped after 4.0 s of 10.0 s; later not run)"
	if d.Pick != "" || d.Line != want || done.Result != ResultPassed || stopped.Result != ResultStopped || d.Schemes[2].Result != ResultNotRun {
		t.Errorf("decision %+v, results %s %s", d, done.Result, stopped.Result)
	}
	var b bytes.Buffer
	if err := WriteCompareDoc(&b, c, textfit.Style{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, w := range []string{"3 scheme(s)", "NOT EVERY SCHEME RAN: done ran its 10.0 s; cut stopped after 4.0 s of 10.0 s; later not run",
		"decision: " + want, "-  later   not run", "  cut: stopped: stopped after 4.0 s of 10.0 s\n", "  later: not run: the comparison stopped before it\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("the text lacks %q:\n%s", w, out)
		}
	}
}

// With the judge's horizon figures, a scheme that passes but whose
// partitions outgrow the size bound loses to one that stays under it,
// and ranks before those that cannot serve the load; without one that
// stays under, it is picked.
func TestDecisionReadsTheGrowthBound(t *testing.T) {
	facts := map[string]SchemeFacts{
		"grows": {Horizon: "a year", LargestPartition: "P000001", LargestPartitionRows: 5_700_000, MaxPartitionRows: 1_000_000},
		"under": {Horizon: "a year", LargestPartition: "D001_2026-01-01-00", LargestPartitionRows: 72_000, MaxPartitionRows: 1_000_000},
	}
	grows, under, hot := scanRun("grows", 1000, 0, 0), scanRun("under", 1000, 0, 0), scanRun("hot", 1000, 900, 0)
	d := Decide([]*Report{hot, grows, under}, nil, facts)[0]
	if d.Pick != "under" || d.Schemes[1].Scheme != "grows" || d.Schemes[2].Scheme != "hot" ||
		!strings.HasPrefix(d.Line, "pick under: its partitions stay under the size bound over the horizon, and grows, which passes too, outgrows it") {
		t.Fatalf("decision %+v", d)
	}
	if w := `it ranks below under: its partitions outgrow the size bound: the largest, "P000001", holds 5,700,000 rows after a year of growth at the workload's write rate, over the bound of 1,000,000; under stays under it`; d.Schemes[1].Why != w || d.Schemes[1].Result != ResultPassed {
		t.Errorf("grows lost because %q, want %q", d.Schemes[1].Why, w)
	}
	alone := Decide([]*Report{scanRun("grows", 1000, 0, 0), scanRun("hot", 1000, 900, 0)}, nil, facts)[0]
	if alone.Pick != "grows" || !strings.HasSuffix(alone.Line, `; but its partitions outgrow the size bound: the largest, "P000001", holds 5,700,000 rows after a year of growth at the workload's write rate, over the bound of 1,000,000, and no scheme that passes stays under it`) {
		t.Errorf("with none under the bound, the one that passes is picked: %+v", alone)
	}
}

// A comparison under several models decides under each.
func TestDecisionPerModel(t *testing.T) {
	var reps []*Report
	for _, m := range []string{"azure", "cosmos"} {
		for _, s := range []string{"a", "b"} {
			failing := 0
			if (m == "azure") == (s == "a") {
				failing = 900
			}
			r := scanRun(s, 1000, failing, 0)
			r.Model = m
			reps = append(reps, r)
		}
	}
	ds := Decide(reps, nil, nil)
	if len(ds) != 2 || ds[0].Model != "azure" || ds[0].Pick != "b" || ds[1].Model != "cosmos" || ds[1].Pick != "a" {
		t.Errorf("decisions: %+v", ds)
	}
}

// batchRun is a run of 100 answered entity group transactions of per
// entities each.
func batchRun(scheme string, per int) *Report {
	reg := metrics.NewRegistry(metrics.Options{Start: t0, PartitionTarget: 2000})
	rec := reg.NewRecorder()
	for i := range 100 {
		at := t0.Add(time.Duration(i) * 10 * time.Millisecond)
		rec.Request(metrics.Request{Op: metrics.Batch, Partition: "p", Outcome: outcome.New(202, ""), Entities: per, At: at, Start: at})
		rec.Done(metrics.Batch, "p", at, at.Add(time.Millisecond), true)
	}
	return Build(Meta{Scenario: "g", Scheme: scheme, Run: RunInfo{Mode: "open", Rate: 100, PartitionTarget: 2000}}, reg.Finish(t0.Add(time.Second)))
}

// What the judge refuses in a scheme's keys (its findings: transactions
// that hold under half the entities asked, PartitionKeys that only grow
// under writes) keeps the scheme from being picked however well its run
// went, and the decision says why in the judge's words; without them the
// same runs all pass.
func TestDecisionReadsTheKeysShape(t *testing.T) {
	fill := KeyFinding{Kind: "batch_fill", Words: "entity group transactions hold 1 of the 20 entities asked", Ratio: 10}
	mono := KeyFinding{Kind: "monotonic", Words: "append-only PartitionKeys: all 100 new entities/s land beyond every existing key", Ratio: 1}
	facts := map[string]SchemeFacts{"guid": {Findings: []KeyFinding{fill}}, "ticks": {Findings: []KeyFinding{mono}}}
	runs := func() []*Report {
		return []*Report{batchRun("guid", 20), batchRun("ticks", 20), batchRun("device", 20)}
	}
	d := Decide(runs(), nil, facts)[0]
	if d.Pick != "device" {
		t.Fatalf("decision %+v", d)
	}
	for _, s := range d.Schemes[1:] {
		want := map[string]string{"guid": fill.Words, "ticks": mono.Words}[s.Scheme]
		if s.Result != ResultFailed || s.Why != want {
			t.Errorf("%s: %+v, want failed: %s", s.Scheme, s, want)
		}
	}
	for _, s := range Decide(runs(), nil, nil)[0].Schemes {
		if s.Result == ResultFailed {
			t.Errorf("without findings %s failed: %+v", s.Scheme, s)
		}
	}
}

// A scheme stopped before its measured run began (in its seed phase or
// warm-up) says so, not that it ran for 0 s.
func TestDecisionOfASchemeStoppedBeforeItsRun(t *testing.T) {
	seeding := Build(Meta{Scenario: "s", Scheme: "seeding", Interrupted: true, Run: RunInfo{DurationS: 10}}, nil)
	d := Decide([]*Report{scanRun("done", 100, 0, 0), seeding}, nil, nil)[0]
	if want := "no decision: not every scheme ran to its end (seeding stopped before its measured run began)"; d.Line != want {
		t.Errorf("decision %q, want %q", d.Line, want)
	}
}

// A scheme that failed only a threshold of the scenario's shows, in the
// comparison's table, that threshold as its verdict, not "ok" beside
// FAILED.
func TestTableVerdictOfAFailedThreshold(t *testing.T) {
	slow, fine := scanRun("slow", 100, 0, 0), scanRun("fine", 100, 0, 0)
	slow.EvaluateThresholds([]string{"p99 < 1ms"})
	var b bytes.Buffer
	if err := WriteCompareDoc(&b, NewCompare([]*Report{slow, fine}, nil, nil), textfit.Style{}); err != nil {
		t.Fatal(err)
	}
	if row := rowOf(b.String(), "2  slow"); !strings.Contains(row, "FAILED") || !strings.HasSuffix(row, "threshold p99 < 1ms failed (observed 8ms)") {
		t.Errorf("slow's row: %q", row)
	}
}
