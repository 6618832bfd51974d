package emulator

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	client "github.com/tablestress/tablestress/pkg/table"
)

// tally counts client results the way the server counts requests.
type tally map[string]map[string]int64

func (c tally) add(part string, r client.Result) {
	if c[part] == nil {
		c[part] = map[string]int64{}
	}
	c[part][r.Outcome.Key()]++
}

// requests returns the server's per-partition request counts of a table.
func requests(s *Server, table string) tally {
	out := tally{}
	ts := s.Stats().Tables[table]
	if ts == nil {
		return out
	}
	for part, p := range ts.Partitions {
		out[part] = p.Requests
	}
	return out
}

// openClient opens tablestress's client of svc.
func openClient(t *testing.T, svc *reached) *client.Service {
	t.Helper()
	tg, err := client.ParseTarget(svc.conn)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Open(tg, client.Options{Workers: 2, Timeout: 10 * time.Second, RoundTripper: svc.rt})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestStatsMatchKnownSequence(t *testing.T) { forEachReach(t, testStatsMatchKnownSequence) }

func testStatsMatchKnownSequence(t *testing.T, way reach) {
	in := way.start(t, Config{Model: model.Off()})
	svc := openClient(t, in)
	ctx := context.Background()
	got := tally{}
	ent := func(pk, rk string) []byte { return []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q}`, pk, rk)) }
	got.add("", svc.CreateTable(ctx, "stats"))
	tb := svc.Table("stats")
	for _, rk := range []string{"a", "b", "c", "a"} { // the second a conflicts
		got.add("p1", tb.Insert(ctx, ent("p1", rk)))
	}
	got.add("p1", tb.Get(ctx, "p1", "a", nil))
	got.add("p1", tb.Get(ctx, "p1", "zz", nil))
	got.add("p1", tb.Update(ctx, ent("p1", "a"), client.UpdateModeMerge, `W/"datetime'2020-01-01T00%3A00%3A00.0000000Z'"`))
	_, r, _ := tb.Query(ctx, client.Query{Filter: client.FilterPK("p1")}).Next(ctx)
	got.add("p1", r)
	batch := func(rks ...string) client.Result {
		acts := make([]client.Action, len(rks))
		for i, rk := range rks {
			acts[i] = client.Action{Kind: client.ActionInsert, Entity: ent("p2", rk)}
		}
		return tb.Submit(ctx, acts)
	}
	got.add("p2", batch("x", "y", "z"))
	got.add("p2", batch("w", "x")) // x exists: fails as a whole
	_, r, _ = tb.Query(ctx, client.Query{}).Next(ctx)
	got.add("*", r)
	got.add("p1", tb.Delete(ctx, "p1", "b", ""))
	got.add("", svc.DeleteTable(ctx, "stats"))

	want := tally{
		"":   {"201": 1, "204": 1},
		"p1": {"201": 3, "409 EntityAlreadyExists": 1, "200": 2, "404 ResourceNotFound": 1, "412 UpdateConditionNotSatisfied": 1, "204": 1},
		"p2": {"202": 1, "409 EntityAlreadyExists": 1},
		"*":  {"200": 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the client saw %v, want %v", got, want)
	}
	if server := requests(in.Server, "stats"); !reflect.DeepEqual(server, want) {
		t.Errorf("the server counted %v, want %v", server, want)
	}
	st := in.Stats().Tables["stats"]
	entities := map[string]int64{}
	for part, p := range st.Partitions {
		entities[part] = p.Entities
	}
	// p1: 3 inserts, 1 point read, 3 returned by the query, 1 delete; p2:
	// the transaction of 3; *: the 6 entities of the table scan.
	if want := map[string]int64{"": 0, "p1": 8, "p2": 3, "*": 6}; !reflect.DeepEqual(entities, want) {
		t.Errorf("entities %v, want %v", entities, want)
	}
	if st.Rows != 0 {
		t.Errorf("a deleted table holds %d rows", st.Rows)
	}
}

func TestStatsUnderFaults(t *testing.T) { forEachReach(t, testStatsUnderFaults) }

func testStatsUnderFaults(t *testing.T, way reach) {
	fc := faults.Config{Status: map[int]float64{503: 0.2, 500: 0.1}, Drop: 0.1, Discard: 0.25, Seed: 3}
	in := way.start(t, Config{Model: model.Off(), Faults: fc})
	svc := openClient(t, in)
	ctx := context.Background()
	if r := svc.CreateTable(ctx, "faulty"); r.Err != nil {
		t.Fatal(r.Err)
	}
	in.ResetStats()
	got := tally{}
	tb := svc.Table("faulty")
	for i := 0; i < 80; i++ {
		got.add("p", tb.Insert(ctx, []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%03d"}`, i))))
	}
	server := requests(in.Server, "faulty")
	if !reflect.DeepEqual(got, server) {
		t.Errorf("the client saw %v, the server counted %v", got, server)
	}
	p := in.Stats().Tables["faulty"].Partitions["p"]
	fcounts := in.Stats().Faults
	if got["p"]["transport"] == 0 || got["p"]["503 ServerBusy"] == 0 || got["p"]["500 OperationTimedOut"] == 0 || p.Discarded == 0 {
		t.Fatalf("the faults did not all show in 80 requests: %v, %d discarded", got, p.Discarded)
	}
	if p.Dropped != got["p"]["transport"] || fcounts.Dropped != p.Dropped || fcounts.Discarded != p.Discarded {
		t.Errorf("dropped %d (faults %d), client transport errors %d; discarded %d (faults %d)",
			p.Dropped, fcounts.Dropped, got["p"]["transport"], p.Discarded, fcounts.Discarded)
	}
	if rows, _ := in.Rows("faulty"); int64(rows) != got["p"]["201"]-p.Discarded {
		t.Errorf("%d rows stored, want %d acknowledged less %d discarded", rows, got["p"]["201"], p.Discarded)
	}
}

func TestStatsEndpoint(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r"}`)), http.StatusNoContent)
	get := httptest.NewRequest(http.MethodGet, "/_tablestress/stats", nil)
	get.RemoteAddr = "127.0.0.1:5000"
	w := do(t, s, get, http.StatusOK)
	var st Stats
	if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if p := st.Tables["t"].Partitions["p"]; p.Requests["204"] != 1 || p.Entities != 1 || st.Tables["t"].Rows != 1 {
		t.Errorf("stats %+v", st.Tables["t"])
	}
	remote := httptest.NewRequest(http.MethodGet, "/_tablestress/stats", nil) // from 192.0.2.1
	do(t, s, remote, http.StatusForbidden)
	wrong := httptest.NewRequest(http.MethodPost, "/_tablestress/stats", nil)
	wrong.RemoteAddr = "[::1]:5000"
	do(t, s, wrong, http.StatusMethodNotAllowed)
	reset := httptest.NewRequest(http.MethodPost, "/_tablestress/reset", nil)
	reset.RemoteAddr = "127.0.0.1:5000"
	do(t, s, reset, http.StatusNoContent)
	if len(s.Stats().Tables) != 0 {
		t.Errorf("counters after a reset: %v", s.Stats().Tables)
	}
}

func TestFaultDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Config{Model: model.Off(), Faults: faults.Config{Latency: []faults.Latency{{Min: 40 * time.Millisecond, Share: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		s.store.Create("t")
		start := time.Now()
		do(t, s, signed(s, http.MethodGet, "/t()", "", nil), http.StatusOK)
		if d := time.Since(start); d != 40*time.Millisecond {
			t.Errorf("the request took %v, want the injected 40ms", d)
		}
	})
}

func TestFaultAnswers(t *testing.T) { forEachReach(t, testFaultAnswers) }

func testFaultAnswers(t *testing.T, way reach) {
	tests := []struct {
		cfg  faults.Config
		want string // the client's outcome
	}{
		{faults.Config{Status: map[int]float64{503: 1}}, "503 ServerBusy"},
		{faults.Config{Status: map[int]float64{500: 1}}, "500 OperationTimedOut"},
		{faults.Config{Status: map[int]float64{429: 1}}, "429 TooManyRequests"},
		{faults.Config{Drop: 1}, "transport"},
		{faults.Config{Status: map[int]float64{503: 1}, Partitions: []string{"other"}}, "200"}, // only for another partition
	}
	for _, tt := range tests {
		in := way.start(t, Config{Model: model.Off()})
		svc := openClient(t, in)
		ctx := context.Background()
		svc.CreateTable(ctx, "faulty")
		svc.Table("faulty").Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`))
		in.SetFaults(tt.cfg)
		if r := svc.Table("faulty").Get(ctx, "p", "r", nil); r.Outcome.Key() != tt.want {
			t.Errorf("%+v: %s, want %s", tt.cfg, r.Outcome.Key(), tt.want)
		}
	}
}

func TestModelRefusesHotPartition(t *testing.T) {
	mc, err := model.Parse("azure,partition=10,burst=1s,timeouts=0%,latency=off")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := New(Config{Model: mc, Now: func() time.Time { return at }}) // time stands still: no refill
	if err != nil {
		t.Fatal(err)
	}
	s.store.Create("t")
	codes := map[string]int{}
	const n = 300 // the bucket holds at least 100 (one full transaction)
	for i := 0; i < n; i++ {
		w := serve(s, signed(s, http.MethodPost, "/t", "", []byte(fmt.Sprintf(`{"PartitionKey":"hot","RowKey":"%d"}`, i))))
		codes[fmt.Sprint(w.Code, " ", w.Header().Get("x-ms-error-code"))]++
	}
	if codes["204 "] == 0 || codes["503 ServerBusy"] == 0 || codes["204 "]+codes["503 ServerBusy"] != n {
		t.Errorf("answers %v, want some 204 then 503 ServerBusy", codes)
	}
	if rows, _ := s.Rows("t"); rows != codes["204 "] {
		t.Errorf("%d rows stored for %d acknowledged inserts", rows, codes["204 "])
	}
	if n := s.Stats().Tables["t"].Partitions["hot"].Requests["503 ServerBusy"]; n != int64(codes["503 ServerBusy"]) {
		t.Errorf("counted %d refusals, answered %d", n, codes["503 ServerBusy"])
	}
}
