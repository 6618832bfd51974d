package advise

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// schemesBlock is a scenario's schemes list, from its key to the next
// top-level key.
var schemesBlock = regexp.MustCompile(`(?ms)^schemes:\n.*?(^\S)`)

// The recommendation's scheme block pastes into the scenario: with it in
// place of the scenario's schemes the file passes validate, and compiles
// to the recommended templates (index tables included).
func TestSchemeBlockRoundTrip(t *testing.T) {
	for _, name := range []string{"iot-telemetry", "multi-tenant", "event-logs", "blog-posts"} {
		a := adviseOn(t, name)
		_, src := load(t, name)
		r := a.Recommended
		pasted := schemesBlock.ReplaceAllString(string(src), "schemes:\n"+strings.ReplaceAll(r.YAML, "$", "$$")+"\n$1")
		sc, errs := scenario.Parse(name+"-pasted.yaml", []byte(pasted))
		if len(errs) > 0 {
			t.Fatalf("%s: %v\n%s", name, errs, pasted)
		}
		if len(sc.Schemes) != 1 {
			t.Fatalf("%s: %d schemes after pasting", name, len(sc.Schemes))
		}
		got := sc.SchemeSpec(0)
		if got.Name != r.Name || got.PartitionKey != r.PartitionKey || got.RowKey != r.RowKey || len(got.Indexes) != len(r.Indexes) {
			t.Errorf("%s: pasted %+v, recommended %+v", name, got, r)
		}
		for k, ix := range got.Indexes {
			if w := r.Indexes[k]; ix.Name != w.Name || ix.PartitionKey != w.PartitionKey || ix.RowKey != w.RowKey {
				t.Errorf("%s: index %+v, recommended %+v", name, ix, w)
			}
		}
	}
}

// The proof's scenario is the scenario's own file with the proof's
// schemes (its own as written), at the peak for the proof's duration,
// seeded as deep as the proof predicts (1,000,000 entities): it passes
// validate, and a run of it is what the proof predicts for.
func TestProofScenario(t *testing.T) {
	for _, name := range []string{"iot-telemetry", "iot-skewed", "event-logs", "blog-posts", "multi-tenant", "account-limit"} {
		a := adviseOn(t, name)
		p := a.mustPlan(t, ProofOptions{})
		_, src := load(t, name)
		out, err := ProofScenario(src, a, p)
		if err != nil {
			t.Fatal(err)
		}
		sc, errs := scenario.Parse("proof.yaml", out)
		if len(errs) > 0 {
			t.Fatalf("%s: %v\n%s", name, errs, out)
		}
		if len(sc.Schemes) != len(p.Schemes) {
			t.Fatalf("%s: %d schemes, the proof runs %d", name, len(sc.Schemes), len(p.Schemes))
		}
		for k, r := range p.Schemes {
			if sc.Schemes[k].Name != r.Scheme {
				t.Errorf("%s: scheme %d is %q, want %q", name, k, sc.Schemes[k].Name, r.Scheme)
			}
		}
		w := sc.Workload
		if float64(w.Rate) != p.Rate || len(w.Stages) != 0 || w.Duration.D().Seconds() != p.DurationS || w.Warmup.D().Seconds() != p.WarmupS {
			t.Errorf("%s: workload %+v, proof at %v ops/s for %vs after %vs", name, w, p.Rate, p.DurationS, p.WarmupS)
		}
		if int64(sc.Population.Entities) != p.Entities || p.Entities != DefaultProofDepth {
			t.Errorf("%s: the proof seeds %d entities, predicts at %d; want %d", name, int64(sc.Population.Entities), p.Entities, DefaultProofDepth)
		}
		if name == "account-limit" && p.Rate*3 != a.Peak {
			t.Errorf("one of 3 accounts: %v ops/s", p.Rate)
		}
	}
}

// The verdict: the recommendation fails its proof when over 1% of its
// requests were throttled, when its busiest partition is further from the
// prediction than the tolerance, or when the client dropped over 1% of
// the operations; the other schemes are measured, never judged.
func TestProofVerdict(t *testing.T) {
	rep := func(busiest float64, throttled, dropped int64) *report.Report {
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "*", EntitiesPerSec: 9999}, {PartitionKey: "a", EntitiesPerSec: busiest}, {PartitionKey: "b", EntitiesPerSec: busiest / 2}}}
		r.Totals.Requests, r.Totals.Throttled, r.Totals.Ops, r.Totals.Dropped = 1000, throttled, 1000-dropped, dropped
		return r
	}
	plan := func() *Proof {
		return &Proof{Rate: 100, Tolerance: MaxOff, Schemes: []ProofRun{
			{Scheme: "rec", Role: "recommended", Predicted: ProofFigures{BusiestEntitiesPerSec: 1000}, Questions: []ProofQuestion{{Name: "newest"}}},
			{Scheme: "own", Role: "own", Predicted: ProofFigures{BusiestEntitiesPerSec: 1000}},
		}}
	}
	for _, c := range []struct {
		name string
		rec  *report.Report
		ok   bool
		says string
	}{
		{"within", rep(1140, 10, 0), true, ""},
		{"below within", rep(860, 0, 0), true, ""},
		{"throttled", rep(1000, 11, 0), false, "throttled"},
		{"too busy", rep(1160, 0, 0), false, "16% off"},
		{"too idle", rep(840, 0, 0), false, "16% off"},
		{"dropped", rep(1000, 0, 11), false, "dropped"},
		{"not run", nil, false, "was not run"},
		{"question failed", withQuestion(rep(1000, 0, 0), 50, 50), false, "question newest failed 50 of the 50 times"},
		{"question failed once", withQuestion(rep(1000, 0, 0), 1, 200), true, ""},
	} {
		p := plan()
		reps := map[string]*report.Report{"own": rep(5000, 900, 0)}
		if c.rec != nil {
			reps["rec"] = c.rec
		}
		p.Judge(reps)
		if p.OK != c.ok || (c.says != "" && !strings.Contains(strings.Join(p.Failures, ";"), c.says)) {
			t.Errorf("%s: ok %v, failures %v; want ok %v saying %q", c.name, p.OK, p.Failures, c.ok, c.says)
		}
		if c.rec != nil && p.Schemes[0].Measured.BusiestPartition != "a" {
			t.Errorf("%s: busiest %q: a request spanning partitions is no partition", c.name, p.Schemes[0].Measured.BusiestPartition)
		}
	}
}

// The proof checks each of the recommendation's questions: its requests
// and rows visited per question within the question's tolerance of the
// prediction at the proof's depth; rows visited only where the service
// counted them; a question not asked, or predicted to be asked less than
// once, is named in the notes, not failed. A figure within less than a
// request (a row) of its prediction agrees, however far off in percent.
func TestProofChecksTheQuestions(t *testing.T) {
	rep := func(reqs, visited float64, from string, asked int64) *report.Report {
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "a", EntitiesPerSec: 1000}}, Questions: map[string]report.Question{}}
		r.Totals.Requests, r.Totals.Ops = 1000, 1000
		q := report.Question{RequestsPerQuestion: reqs, RowsVisitedPerQuestion: visited, RowsVisitedFrom: from}
		q.Ops = asked
		r.Questions["feed"] = q
		return r
	}
	for _, c := range []struct {
		name    string
		rec     *report.Report
		checked bool
		ok      bool
		says    string
	}{
		{"within", rep(3.4, 1140, "service", 50), true, true, ""},
		{"requests off", rep(4.2, 1000, "service", 50), true, false, "feed took 4.2 requests a question; the prediction at 1,000,000 entities was 3: 40% off"},
		{"requests off by less than one", rep(3.9, 1000, "service", 50), true, true, ""},
		{"rows visited off", rep(3, 1160, "service", 50), true, false, "feed visited 1,160 rows a question"},
		{"fewer visited", rep(3, 800, "both", 50), true, true, "rows visited were not checked"},
		{"not asked", rep(0, 0, "", 0), true, true, "feed was not asked in the run"},
		{"not checked", rep(9, 9, "service", 1), false, true, "fewer than once in the run"},
	} {
		p := &Proof{Rate: 100, Entities: 1_000_000, Tolerance: MaxOff, Schemes: []ProofRun{{Scheme: "rec", Role: "recommended",
			Predicted: ProofFigures{BusiestEntitiesPerSec: 1000},
			Questions: []ProofQuestion{{Name: "feed", PredictedRequests: 3, PredictedRowsVisited: 1000, Tolerance: MaxOff, Checked: c.checked}}}}}
		p.Judge(map[string]*report.Report{"rec": c.rec})
		all := strings.Join(append(p.Failures, p.Notes...), ";")
		if p.OK != c.ok || !strings.Contains(all, c.says) {
			t.Errorf("%s: ok %v, failures %q, notes %q; want ok %v saying %q", c.name, p.OK, p.Failures, p.Notes, c.ok, c.says)
		}
	}
}

// A busiest partition predicted under a tenth of its target is checked
// to stay under the headroom, not against its prediction: the busiest of
// many cool partitions is the luckiest.
func TestProofOfACoolPartition(t *testing.T) {
	for _, c := range []struct {
		measured float64
		ok       bool
	}{{3, true}, {1300, true}, {1500, false}} {
		p := &Proof{Rate: 100, Tolerance: MaxOff, CoolBelow: 200, HotAbove: 1400, Schemes: []ProofRun{{Scheme: "rec", Role: "recommended",
			Predicted: ProofFigures{BusiestEntitiesPerSec: 1.3}}}}
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "a", EntitiesPerSec: c.measured}}}
		r.Totals.Requests, r.Totals.Ops = 1000, 1000
		p.Judge(map[string]*report.Report{"rec": r})
		if p.OK != c.ok || !strings.Contains(strings.Join(p.Notes, ";"), "checked to stay under 1,400 entities/s") {
			t.Errorf("measured %v: ok %v, failures %q, notes %q; want ok %v", c.measured, p.OK, p.Failures, p.Notes, c.ok)
		}
	}
}

// withQuestion gives the report a question "newest" asked asked times, of
// which failed failed.
func withQuestion(r *report.Report, failed, asked int64) *report.Report {
	q := report.Question{}
	q.Ops, q.Failed = asked, failed
	r.Questions = map[string]report.Question{"newest": q}
	return r
}

// A staged workload is proved at its highest stage's rate, constant: the
// proof's scenario drops the stages.
func TestProofScenarioOfStages(t *testing.T) {
	_, src := load(t, "iot-telemetry")
	staged := strings.Replace(string(src), "rate: 3500/s", "stages: [{duration: 5s, rate: 1000}, {duration: 10s, rate: 3500}]", 1)
	sc, errs := scenario.Parse("staged.yaml", []byte(staged))
	if len(errs) > 0 || len(sc.Workload.Stages) != 2 {
		t.Fatalf("%v %+v", errs, sc.Workload)
	}
	a := adviseParsed(t, sc, Defaults())
	p := a.mustPlan(t, ProofOptions{RecommendedOnly: true})
	out, err := ProofScenario([]byte(staged), a, p)
	if err != nil {
		t.Fatal(err)
	}
	proof, errs := scenario.Parse("proof.yaml", out)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if w := proof.Workload; len(w.Stages) != 0 || float64(w.Rate) != 3500 || p.Rate != 3500 || len(proof.Schemes) != 1 {
		t.Errorf("proof workload %+v at %v ops/s, %d schemes: want 3,500 ops/s constant, the recommendation alone", w, p.Rate, len(proof.Schemes))
	}
}

// The proof predicts what its run measures: a partition's entities as a
// client counts them (written, read, returned), not as the service
// charges them (every row a query visits). Under the date PartitionKey the
// IoT questions filter today's 10,000 rows for one device: the service is
// charged them all, the client counts the device's 500 (on the seeded
// table).
func TestProofCountsWhatAClientCounts(t *testing.T) {
	a := adviseOn(t, "iot-telemetry")
	in, p := a.Input, candidate(t, a, "date").Prediction
	rate := map[string]float64{}
	for _, o := range in.Mix {
		rate[o.Spec.Op+o.Spec.Question] += o.Rate
	}
	perDevice := float64(in.Seeded) / 20
	want := rate["insert"] + rate["point_read"] + 20*rate["range_query"] + perDevice*rate["questionnewest-by-device"] + rate["questionreading"]
	mean, _ := p.Seeded.BusiestOver(100*time.Second, nil)
	if math.Abs(mean-want) > 0.03*want {
		t.Errorf("the day partition's predicted count %v entities/s, want %v as a client counts them", mean, want)
	}
	if p.Seeded.BusiestEntitiesPerSec < 5*mean {
		t.Errorf("charged %v entities/s, counted %v: the service is charged every row the filters visit", p.Seeded.BusiestEntitiesPerSec, mean)
	}
}

// A rare question that runs partitions into debt, asked once in a short
// run where its rate says 0.3 times, has the refusals the prediction puts
// on each of the 0.7 questions more allowed besides MaxThrottled: 1,400
// of the run's 100,000 requests; past them, or with no refusals
// predicted, the throttling fails the proof.
func TestProofAllowsARareQuestionsRefusals(t *testing.T) {
	for _, c := range []struct {
		throttled int64
		refused   float64
		ok        bool
	}{{2300, 2000, true}, {2500, 2000, false}, {2300, 0, false}, {900, 0, true}} {
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "a", EntitiesPerSec: 1000}}, Questions: map[string]report.Question{}}
		r.Totals.Requests, r.Totals.Ops, r.Totals.Throttled = 100_000, 100_000, c.throttled
		q := report.Question{RequestsPerQuestion: 58, RowsVisitedPerQuestion: 180_000, RowsVisitedFrom: "service"}
		q.Ops = 1
		r.Questions["screen"] = q
		p := &Proof{Rate: 3100, Entities: 1_000_000, DurationS: 30, Tolerance: MaxOff, Schemes: []ProofRun{{Scheme: "rec", Role: "recommended",
			Predicted: ProofFigures{BusiestEntitiesPerSec: 1000},
			Questions: []ProofQuestion{{Name: "screen", PredictedRequests: 58, PredictedRowsVisited: 180_000, PredictedPerSecond: 0.01, PredictedRefused: c.refused}}}}}
		p.Schemes[0].Predicted.BusiestEntitiesPerSec = 1000
		p.Judge(map[string]*report.Report{"rec": r})
		if p.OK != c.ok {
			t.Errorf("%d throttled, %v refused a question: ok %v, failures %q, notes %q; want ok %v", c.throttled, c.refused, p.OK, p.Failures, p.Notes, c.ok)
		}
		if c.refused > 0 && !strings.Contains(strings.Join(p.Notes, ";"), "screen was asked 1 times in the run, 0.7 more than its rate says; the prediction puts 2,000 refused requests on each: 1.4% of the requests") {
			t.Errorf("notes %q", p.Notes)
		}
	}
}
