package advise

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// runView is what a compiled proof runs, every exported part of its
// scenario and spec but the file's name.
type runView struct {
	Name, Description string
	Seed              uint64
	Population        scenario.Population
	Schemes           []scenario.Scheme
	Questions         []scenario.Question
	Workload          scenario.Workload
	Thresholds        []scenario.Threshold
	Embedded          scenario.Embedded
	Entities, MaxOps  int64
	Warmup, Duration  time.Duration
	Timeout           time.Duration
	Workers           int
	Load              plan.Load
}

// viewOf compiles sc as a run (plan.Build, no overrides) and views it.
func viewOf(t *testing.T, sc *scenario.Scenario) runView {
	t.Helper()
	sp, err := plan.Build(sc, nil, plan.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	s := sp.Scenario
	return runView{Name: s.Name, Description: s.Description, Seed: s.Seed, Population: s.Population, Schemes: s.Schemes,
		Questions: s.Questions, Workload: s.Workload, Thresholds: s.Thresholds, Embedded: s.Embedded,
		Entities: sp.Entities, MaxOps: sp.MaxOps, Warmup: sp.Warmup, Duration: sp.Duration, Timeout: sp.Timeout, Workers: sp.Workers, Load: sp.Load}
}

// The proof's scenario as a value runs what its file (--save-proof)
// says: compiled, the two are the same run, for a proof of own and
// generated schemes (index tables included), of one account's share of a
// split load, and of the rest of a load with an exception; and making the
// value leaves the advised scenario as it was.
func TestProofValueIsTheProofFile(t *testing.T) {
	type tc struct {
		name string
		a    *Advice
		src  []byte
		o    ProofOptions
	}
	var cases []tc
	for _, name := range []string{"iot-telemetry", "blog-posts", "account-limit", "event-logs"} {
		_, src := load(t, name)
		cases = append(cases, tc{name, adviseOn(t, name), src, ProofOptions{}})
	}
	ea, esrc := adviseWithExceptions(t)
	cases = append(cases, tc{"feed with an exception", ea, []byte(esrc), ProofOptions{RecommendedOnly: true}})
	for _, c := range cases {
		p, err := c.a.Plan(context.Background(), c.o)
		if err != nil || p == nil {
			t.Fatalf("%s: proof %v, %v", c.name, p, err)
		}
		before := viewOf(t, c.a.Input.Scenario)
		out, err := ProofScenario(c.src, c.a, p)
		if err != nil {
			t.Fatal(err)
		}
		file, errs := scenario.Parse("proof.yaml", out)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		value, err := ProofScenarioValue(c.a, p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := viewOf(t, value), viewOf(t, file); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the value runs\n%+v\nthe file runs\n%+v", c.name, got, want)
		}
		if after := viewOf(t, c.a.Input.Scenario); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: making the value changed the advised scenario", c.name)
		}
	}
}
