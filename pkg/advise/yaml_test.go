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
	for _, name := range []string{"iot-telemetry", "ecommerce-orders", "event-logs", "blog-posts"} {
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
// schemes (its own as written), at the peak for the proof's duration: it
// passes validate, and a run of it is what the proof predicts for.
func TestProofScenario(t *testing.T) {
	for _, name := range []string{"iot-telemetry", "ecommerce-orders", "event-logs", "blog-posts", "multi-tenant", "account-limit"} {
		a := adviseOn(t, name)
		p := a.Plan(ProofOptions{})
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
		if name == "account-limit" && (int64(sc.Population.Entities) != 10_000 || p.Rate*3 != a.Peak) {
			t.Errorf("one of 3 accounts: %d entities at %v ops/s", int64(sc.Population.Entities), p.Rate)
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
	in, err := Prepare(sc, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	a, err := in.Advise()
	if err != nil {
		t.Fatal(err)
	}
	p := a.Plan(ProofOptions{RecommendedOnly: true})
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
// charged them all, the client counts the device's 500.
func TestProofCountsWhatAClientCounts(t *testing.T) {
	a := adviseOn(t, "iot-telemetry")
	in, p := a.Input, candidate(t, a, "date").Prediction
	rate := map[string]float64{}
	for _, o := range in.Mix {
		rate[o.Spec.Op+o.Spec.Question] += o.Rate
	}
	perDevice := float64(in.Seeded) / 20
	want := rate["insert"] + rate["point_read"] + 20*rate["range_query"] + perDevice*rate["questionnewest-by-device"] + rate["questionreading"]
	mean, _ := in.busiestOver(p, 100*time.Second, 1)
	if math.Abs(mean-want) > 0.03*want {
		t.Errorf("the day partition's predicted count %v entities/s, want %v as a client counts them", mean, want)
	}
	if p.BusiestEntitiesPerSec < 5*mean {
		t.Errorf("charged %v entities/s, counted %v: the service is charged every row the filters visit", p.BusiestEntitiesPerSec, mean)
	}
}
