package advise

import (
	"os"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// parseVariant parses src with each old replaced by its new, failing when
// one of them is not there.
func parseVariant(t *testing.T, file string, src []byte, oldNew ...string) *scenario.Scenario {
	t.Helper()
	out := string(src)
	for i := 0; i < len(oldNew); i += 2 {
		if !strings.Contains(out, oldNew[i]) {
			t.Fatalf("%s: no %q", file, oldNew[i])
		}
		out = strings.ReplaceAll(out, oldNew[i], oldNew[i+1])
	}
	sc, errs := scenario.Parse(file, []byte(out))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return sc
}

// helpdesk is testdata/helpdesk.yaml: tickets of 2,000 zipf-skewed
// tenants, a ticket's thread, a tenant's newest 50 and every update of a
// tenant's last hour, 5 times a second.
func helpdesk(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile("testdata/helpdesk.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// A tenant's last hour visits 184,893 rows of the biggest tenant's hour
// partition at once under the closest design, more than one query may
// read of a partition, and every design is hot by its passes: it is an
// exception, beside the design for the rest (the ticket's partition, an
// index table by tenant and hour), said with its cost under that design
// (rows visited a question, and at its 5 a second) and what would change
// it; no lower rate is offered (a pass is one question's).
func TestHotQuestionIsAnException(t *testing.T) {
	sc := parseVariant(t, "helpdesk.yaml", helpdesk(t))
	a := adviseParsed(t, sc, Defaults())
	r := a.Recommended
	if !a.WithExceptions() || r.PartitionKey != "{ticket}" || len(r.Indexes) != 1 || r.Indexes[0].PartitionKey != "{tenant}_{time:yyyy-MM-dd-HH}" {
		t.Fatalf("recommended %+v, infeasible %+v: want the ticket's partition, an index by tenant and hour, with exceptions", r, a.Infeasible)
	}
	ex := a.Infeasible.Exceptions
	if len(ex) != 1 || ex[0].Question != "tenant-hour" || ex[0].Plan == "" || !(ex[0].RowsVisited > 1000) || !near(ex[0].EntitiesPerSec, 5*ex[0].RowsVisited) {
		t.Fatalf("exceptions %+v: want tenant-hour, its rows visited at 5 a second", ex)
	}
	for _, want := range []string{"tenant-hour makes every scheme hot by its own reads", `184,893 rows of partition "ByTenantCopy/t0465_`,
		"over the 3,000 one query may read of a partition", "a window of 58 seconds", "a count or summary kept beside the data", "its newest 3,000 instead of all"} {
		if !strings.Contains(ex[0].Why, want) {
			t.Errorf("missing %q in %q", want, ex[0].Why)
		}
	}
	if strings.Contains(ex[0].Why, "lower rate") || a.Infeasible.Reason != ex[0].Why {
		t.Errorf("reason %q, why %q", a.Infeasible.Reason, ex[0].Why)
	}
}

// heavyWrites writes 15,000 readings a second of 100,000 devices in 10
// regions: a device's newest 10, and once a second every reading of a
// region's last 10 minutes (900,000 rows), which makes every design hot
// by its passes.
const heavyWrites = `name: heavy-writes
seed: 3
population:
  entities: 100k
  start: 2025-09-01T00:00:00Z
  interval: 66us
  payload: 256B
  fields:
    device: {kind: id, count: 100000, prefix: d, width: 6}
    region: {kind: id, count: 10, prefix: r, width: 2}
questions:
  - {name: recent, known: [device], want: newest, limit: 10}
  - {name: region-10m, known: [region], want: all, window: 10m}
schemes:
  - {name: device, partition_key: "{device}", row_key: "{inverted_ticks}"}
workload:
  rate: 15300/s
  mix:
    - {op: insert, weight: 15000}
    - {question: recent, weight: 299}
    - {question: region-10m, weight: 1}
`

// A question that makes every design hot beside writes over the
// account's target under every design is no exception: the rest of the
// load (recommended only for one of the accounts it needs) is not served
// either, and advise says what it said before, the accounts the writes
// need.
func TestHotQuestionBesideHeavyWritesIsNoException(t *testing.T) {
	sc := parseVariant(t, "heavy-writes.yaml", []byte(heavyWrites))
	in, err := Prepare(sc, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	a, err := in.Advise(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if names, _ := in.hotQuestions(a.Ranked); len(names) != 1 || names[0] != "region-10m" {
		t.Fatalf("hot questions %v: want region-10m", names)
	}
	if inf := a.Infeasible; inf == nil || a.WithExceptions() || inf.Accounts != 2 || !strings.Contains(inf.Reason, "writes alone") {
		t.Fatalf("infeasible %+v: want the 2 accounts the writes need, no exceptions", inf)
	}
}

// Asked for a depot's last 10 minutes, the dashboard reads 18,843 rows
// of the busiest depot's minute partition at once under every design:
// an exception beside parcel-tracking's design, no longer a load
// nothing serves.
func TestDashboardLastTenMinutesIsAnException(t *testing.T) {
	_, src := load(t, "parcel-tracking-dashboard")
	sc := parseVariant(t, "parcel-tracking-dashboard.yaml", src, "window: 24h", "window: 10m")
	a := adviseParsed(t, sc, Defaults())
	r := a.Recommended
	if !a.WithExceptions() || r.PartitionKey != "{parcel}" || len(r.Indexes) != 1 || r.Indexes[0].PartitionKey != "{depot}_{time:yyyy-MM-dd-HH-mm}" {
		t.Fatalf("recommended %+v, infeasible %+v: want parcel-tracking's design with exceptions", r, a.Infeasible)
	}
	ex := a.Infeasible.Exceptions
	if len(ex) != 1 || ex[0].Question != "depot-24h" || !strings.Contains(ex[0].Why, `18,843 rows of partition "ByDepotCopy/D065_`) {
		t.Fatalf("exceptions %+v", ex)
	}
}
