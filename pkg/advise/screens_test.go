package advise

import (
	"math"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// A query's pages come in 1,000 entities and each starts only while the
// partition owes at most a second past its full bucket (2,200 entities at
// Azure's 2,000/s): the third page starts at 2,000, a fourth at 3,000
// would not, so one pass reads 3,000 rows (it was 3,200: the last page
// counted as if it could start anywhere up to 2,200). A partition server
// (10,000/s, a bucket of 1,000) reads 12,000 the same way.
func TestPassLimitCountsPages(t *testing.T) {
	a := adviseOn(t, "order-screen")
	if got := a.Input.PassLimit(); got != 3000 {
		t.Errorf("PassLimit %v, want 3,000", got)
	}
	if got := a.Input.ServerPassLimit(); got != 12000 {
		t.Errorf("ServerPassLimit %v, want 12,000", got)
	}
}

// The order screen reads the last minute at once, all of the index's
// partitions of two minutes: each partition server it touches owes what
// its share is past the server's bucket, and refuses every request that
// reaches it meanwhile. At 1,000 orders/s a screen's 60,000 rows leave
// each of the 16 servers 2,750 entities (0.275 s) to pay off: 578 of the
// 2,101 requests/s refused a screen by the servers; the newest minute's
// partitions, which the window ending now reads and the writes go to,
// refuse more of their own while they pay off their pass. At 3,000
// orders/s the minute is 180,000 rows, more than the partitions and
// servers read at once under every design: the screen is an exception,
// beside the order's own partition for the lookups.
func TestScreenChargesThePartitionServers(t *testing.T) {
	a := adviseOn(t, "order-screen")
	r := a.Recommended
	if r == nil {
		t.Fatal("no recommendation")
	}
	lm, _ := costOf(t, r, "last-minute")
	want := 16 * r.Predicted.AccountRequestsPerSec / 16 * (60000.0/16 - 1000) / 10000
	servers := r.Predicted.ServerThrottledShare * r.Predicted.AccountRequestsPerSec / lm.PerSec
	if !near(servers, want) || !near(want, 578) || !(lm.RefusedPerQuestion > 1.5*servers) {
		t.Errorf("last-minute refuses %v a question, %v of them at the servers (want %v, and the newest partitions' besides)", lm.RefusedPerQuestion, servers, want)
	}
	if r.Predicted.ServerPassOf != "last-minute" || r.Predicted.ServerPassRows > a.Input.ServerPassLimit() || r.Predicted.ServerPassRows < 60000.0/16 {
		t.Errorf("server pass %v of %q", r.Predicted.ServerPassRows, r.Predicted.ServerPassOf)
	}

	sc, src := load(t, "order-screen")
	fast := strings.NewReplacer("interval: 1ms ", "interval: 333300ns ", "rate: 1100/s", "rate: 3100/s", "{op: insert, weight: 1000}", "{op: insert, weight: 3000}").Replace(string(src))
	if fast == string(src) {
		t.Fatal("the scenario's rate lines moved")
	}
	sc3, errs := scenario.Parse(sc.File, []byte(fast))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a3 := adviseParsed(t, sc3, Defaults())
	if !a3.WithExceptions() || a3.Recommended.PartitionKey != "{order}" || len(a3.Infeasible.Exceptions) != 1 || a3.Infeasible.Exceptions[0].Question != "last-minute" {
		t.Fatalf("at 3,000 orders/s: recommended %+v, infeasible %+v: want the order's partition, the screen an exception", a3.Recommended, a3.Infeasible)
	}
	server := false
	for _, c := range a3.Ranked {
		server = server || hasProblem(a3.Input, c, "rows at once on its busiest partition server")
	}
	if !server {
		t.Errorf("no candidate is refused at its partition servers: %v", a3.Ranked[0].Problems)
	}
	if p := a3.Ranked[0].Prediction; !(p.ServerThrottledShare > 0.01) {
		t.Errorf("the closest, %s: server throttled %v, want over 1%% (%v)", a3.Ranked[0].Spec.Name, p.ServerThrottledShare, math.Round(p.ServerPassRows))
	}
}
