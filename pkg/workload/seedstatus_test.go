package workload

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
)

// The seed phase counts every request it sends by status, the retried ones
// included, as the run phase does: behind a service that drops 5% of the
// seed's writes without an answer (a connection reset, not throttling) and
// answers 5% with 503 ServerBusy (of some 110 transactions), the seed's counts per status equal the
// service's, the report's seed.status carries them, and the text says how
// many were refused or failed.
func TestSeedCountsEveryStatus(t *testing.T) {
	var pks []string
	for d := range 40 {
		pks = append(pks, fmt.Sprintf("dev-%03d", d)) // the scenario's partitions: not the table's creation, nor the row count's scan
	}
	fc, err := faults.Parse("drop=5%,503=5%,seed=5,partitions=" + strings.Join(pks, "|"))
	if err != nil {
		t.Fatal(err)
	}
	in := startEmbedded(t, model.Off(), fc)
	// No Measured switch: the faults apply to the seed phase too, as a
	// proxy's would.
	svc := TableService{Service: open(t, in.ConnectionString(), 16)}
	entities := int64(8_000)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc, plan.Overrides{Entities: &entities})
	c.SeedOnly = true
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	server := map[string]int64{}
	for key, p := range in.Stats().Tables[res.Table].Partitions {
		if key == "" || key == "*" {
			continue // the table's creation and deletion, the row count's pages
		}
		for status, n := range p.Requests {
			server[status] += n
		}
	}
	seed := res.Seed
	var sum int64
	for status, n := range seed.Status {
		sum += n
		if server[status] != n {
			t.Errorf("seed status %q: counted %d, the service answered %d", status, n, server[status])
		}
	}
	for status, n := range server {
		if seed.Status[status] != n {
			t.Errorf("status %q: the service answered %d, the seed counted %d", status, n, seed.Status[status])
		}
	}
	t.Logf("seed: %d requests by status %v", seed.Requests, seed.Status)
	if sum != seed.Requests || seed.Status["transport"] == 0 || seed.Status["503 ServerBusy"] != seed.Throttled || seed.Throttled == 0 {
		t.Fatalf("seed: %d requests, %d throttled, by status %v: want both faults seen, and the statuses to add up", seed.Requests, seed.Throttled, seed.Status)
	}
	rep := c.Report(res, nil, Meta{})
	var js struct {
		Seed struct {
			Status map[string]int64 `json:"status"`
		} `json:"seed"`
	}
	b, _ := json.Marshal(rep)
	if err := json.Unmarshal(b, &js); err != nil || fmt.Sprint(js.Seed.Status) != fmt.Sprint(seed.Status) {
		t.Errorf("the report's seed.status is %v (%v), want %v", js.Seed.Status, err, seed.Status)
	}
	var text strings.Builder
	if err := report.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	bad := seed.Status["transport"] + seed.Status["503 ServerBusy"]
	want := fmt.Sprintf("seed: %d of %d requests were refused or failed: ", bad, seed.Requests)
	if !strings.Contains(text.String(), want) {
		t.Errorf("the text report lacks %q:\n%s", want, text.String())
	}
}
