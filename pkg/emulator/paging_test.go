package emulator

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// modelServer returns a service with the model of spec (its service time
// off unless the spec turns it on) and a clock standing still.
func modelServer(t *testing.T, spec string) *Server {
	t.Helper()
	mc, err := model.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Model: mc, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fill creates table name holding rows rows in each partition of pks,
// written straight into the store (no request, no charge).
func fill(s *Server, name string, pks []string, rows int) {
	s.store.Create(name)
	tb := s.store.Table(name)
	for _, pk := range pks {
		for r := range rows {
			tb.Put(store.NewEntity(pk, fmt.Sprintf("%04d", r), []store.Prop{{Name: "V", Raw: []byte("1")}}, fixedNow(), tb.Names()))
		}
	}
}

// pages reads a query to its end, following continuations, and returns
// the PartitionKeys of each page's entities.
func pages(t *testing.T, s *Server, table, filter string) [][]string {
	t.Helper()
	q := "$filter=" + url.QueryEscape(filter)
	var out [][]string
	for cont := ""; ; {
		w := do(t, s, signed(s, http.MethodGet, "/"+table+"()", q+cont, nil), http.StatusOK)
		var pks []string
		for _, part := range strings.Split(w.Body.String(), `"PartitionKey":"`)[1:] {
			pks = append(pks, part[:strings.IndexByte(part, '"')])
		}
		out = append(out, pks)
		npk, nrk := w.Header().Get("x-ms-continuation-NextPartitionKey"), w.Header().Get("x-ms-continuation-NextRowKey")
		if npk == "" {
			return out
		}
		cont = "&NextPartitionKey=" + url.QueryEscape(npk) + "&NextRowKey=" + url.QueryEscape(nrk)
		if len(out) > 1000 {
			t.Fatal("a query that never ends")
		}
	}
}

// With the model on, a query page ends before the first entity served by
// another server than the page's first: a partition range scan over ten
// scattered partitions takes a page per change of server, over ten
// sequential keys of one hundred (one range partition) a single page.
// With the model off there are no servers: one page.
func TestPagesEndAtServerBoundaries(t *testing.T) {
	scattered := []string{"dev-000", "dev-001", "dev-002", "dev-003", "dev-004", "dev-005", "dev-006", "dev-007", "dev-008", "dev-009"}
	var sequential []string
	for i := 120; i < 130; i++ {
		sequential = append(sequential, fmt.Sprintf("%010d", i))
	}
	for _, tt := range []struct {
		name string
		spec string
		pks  []string
	}{
		{"scattered keys", "azure,latency=off", scattered},
		{"sequential keys", "azure,latency=off", sequential},
		{"scattered keys, model off", "off", scattered},
		{"scattered keys, Cosmos DB at 40,000 RU/s", "cosmos,ru=40000,latency=off", scattered},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := modelServer(t, tt.spec)
			fill(s, "t", tt.pks, 3)
			got := pages(t, s, "t", fmt.Sprintf("PartitionKey ge '%s' and PartitionKey le '%s'", tt.pks[0], tt.pks[len(tt.pks)-1]))
			// What the model says: a new page wherever the next partition
			// is served elsewhere than the current page's first.
			var want [][]string
			first := -1
			for _, pk := range tt.pks {
				place := 0
				if s.model.Active() {
					place = s.model.Place("t", pk)
				}
				if len(want) == 0 || place != first {
					want, first = append(want, nil), place
				}
				want[len(want)-1] = append(want[len(want)-1], pk, pk, pk)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("pages %v, want %v", got, want)
			}
			switch {
			case tt.name == "sequential keys" && len(got) != 1:
				t.Errorf("ten sequential keys of one hundred in %d pages, want one", len(got))
			case tt.name == "scattered keys" && len(got) < 6:
				t.Errorf("ten scattered keys in %d pages, want one per change of server (6 or more)", len(got))
			case tt.name == "scattered keys, model off" && len(got) != 1:
				t.Errorf("model off: %d pages, want one", len(got))
			}
		})
	}
}

// A page crossing to another server before anything matched is empty and
// continues: the client must come back for the rest.
func TestEmptyPageAtServerBoundary(t *testing.T) {
	s := modelServer(t, "azure,latency=off")
	pks := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	fill(s, "t", pks, 2)
	got := pages(t, s, "t", "V eq 2") // matches nothing
	if len(got) < 2 {
		t.Fatalf("%d pages, want one per server crossed", len(got))
	}
	for i, p := range got {
		if len(p) != 0 {
			t.Errorf("page %d holds %v, want it empty", i, p)
		}
	}
}

// A query is charged for what it visits: a filter on a non-key property
// that iterates 1,000 entities of a partition to return none puts the
// partition's 2,000 entities/s into debt, and the next read of it is
// refused; a point query of another partition is not. With the model off
// nothing is refused.
func TestQueryChargedByVisits(t *testing.T) {
	for _, spec := range []string{"azure,latency=off", "off"} {
		s := modelServer(t, spec)
		fill(s, "t", []string{"big", "small"}, 1000)
		w := do(t, s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("PartitionKey eq 'big' and V eq 2"), nil), http.StatusOK)
		if !strings.Contains(w.Body.String(), `"value":[]`) {
			t.Fatalf("%s: the unselective query returned %s, want nothing", spec, w.Body)
		}
		read := serve(s, signed(s, http.MethodGet, "/t(PartitionKey='big',RowKey='0001')", "", nil))
		other := serve(s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("PartitionKey eq 'small' and RowKey eq '0001'"), nil))
		wantRead := http.StatusServiceUnavailable
		if spec == "off" {
			wantRead = http.StatusOK
		}
		if read.Code != wantRead || other.Code != http.StatusOK {
			t.Errorf("%s: after 1,000 visits, a read of the partition %d, a point query of another %d; want %d and 200", spec, read.Code, other.Code, wantRead)
		}
		// The service's counters show what the queries visited beside what
		// they returned.
		// (With the model off, the point read of big returned its entity.)
		ts := s.Stats().Tables["t"]
		if served := int64(btoi(read.Code == http.StatusOK)); ts.Visited["big"] != 1000 || ts.Visited["small"] != 1 || ts.Partitions["big"].Entities != served {
			t.Errorf("%s: visited %v, big served %d; want 1,000 and 1 visited, %d served from big", spec, ts.Visited, ts.Partitions["big"].Entities, served)
		}
	}
}

// A page ends after what five seconds of execution visit: 100 entities at
// entity=50ms, matched or not.
func TestPageEndsAfterFiveSeconds(t *testing.T) {
	s := modelServer(t, "azure,latency=off,entity=50ms,partition=1e9,server=1e9")
	fill(s, "t", []string{"p"}, 250)
	got := pages(t, s, "t", "V eq 1")
	if len(got) != 3 || len(got[0]) != 100 || len(got[1]) != 100 || len(got[2]) != 50 {
		t.Errorf("pages of %d, %d...; want 100, 100 and 50", len(got[0]), len(got[1]))
	}
}

// The time a request takes is the model's service time, on the wire:
// inside a synctest bubble, exact.
func TestServiceTimeOnTheWire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Config{Model: model.Default()})
		if err != nil {
			t.Fatal(err)
		}
		fill(s, "t", []string{"p"}, 2000)
		// The body's share of the time: 20 µs a KiB, to the nearest ns.
		kib := func(n int) time.Duration { return time.Duration(math.Round(float64(n) * 20000 / 1024)) }
		start := time.Now()
		w := do(t, s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("V eq 2"), nil), http.StatusOK)
		if got, want := time.Since(start), 5*time.Millisecond+2000*50*time.Microsecond+kib(w.Body.Len()); got != want {
			t.Errorf("a page visiting 2,000 entities: %v, want %v", got, want)
		}
		// A second after the page began, its 2,000 visits count as the
		// partition's last second (its debt just paid): at its target, a
		// utilisation of 0.5, where the M/M/1 wait adds one base, 5 ms.
		time.Sleep(time.Until(start.Add(time.Second)))
		start = time.Now()
		w = do(t, s, signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='0001')", "", nil), http.StatusOK)
		if got, want := time.Since(start), 5*time.Millisecond+50*time.Microsecond+kib(w.Body.Len())+5*time.Millisecond; got != want {
			t.Errorf("point read at the partition's target: %v, want %v", got, want)
		}
		s.SetMeasured(false) // setting up: no service time
		start = time.Now()
		do(t, s, signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='0001')", "", nil), http.StatusOK)
		if got := time.Since(start); got != 0 {
			t.Errorf("point read while not measuring: %v, want 0", got)
		}
	})
}

// A query spanning partitions is judged at the partition its page starts
// in: refused while that partition owes more than a second of its target,
// admitted when it starts elsewhere.
func TestSpanningQueryJudgedWhereItStarts(t *testing.T) {
	s := modelServer(t, "azure,latency=off,servers=1,server=1e9")
	fill(s, "t", []string{"a", "b"}, 5000)
	// A query of "a" alone visits its 5,000 rows: 2.4 s of debt.
	do(t, s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("PartitionKey eq 'a' and V eq 2"), nil), http.StatusOK)
	from := func(pk string) int {
		return serve(s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("PartitionKey ge '"+pk+"' and V eq 2"), nil)).Code
	}
	if code := from("a"); code != http.StatusServiceUnavailable {
		t.Errorf("a table scan starting in the partition 2.4 s in debt: %d, want 503", code)
	}
	if code := from("b"); code != http.StatusOK {
		t.Errorf("a table scan starting in a partition that owes nothing: %d, want 200", code)
	}
}

// Injected latency comes on top of the modelled service time.
func TestFaultLatencyAddsToServiceTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Config{Model: model.Default(), Faults: faults.Config{Latency: []faults.Latency{{Min: 40 * time.Millisecond, Share: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		fill(s, "t", []string{"p"}, 1)
		start := time.Now()
		w := do(t, s, signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='0000')", "", nil), http.StatusOK)
		want := 40*time.Millisecond + 5*time.Millisecond + 50*time.Microsecond + time.Duration(math.Round(float64(w.Body.Len())*20000/1024))
		if got := time.Since(start); got != want {
			t.Errorf("a point read with 40 ms injected: %v, want %v", got, want)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
