package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// bigTable fills table tb with n entities in 1,000 partitions, with no
// properties, and returns it.
func bigTable(tb *store.Table, n int) *store.Table {
	for i := 0; i < n; i++ {
		tb.Put(store.NewEntity(fmt.Sprintf("p%04d", i%1000), fmt.Sprintf("%010d", i), nil, time.Time{}, nil))
	}
	return tb
}

func TestRangeQueriesSeek(t *testing.T) {
	tb := bigTable(store.NewTable("big"), 200_000) // 200 rows a partition
	tests := []struct {
		filter  string
		limit   int
		matches int
		visited int // at most
	}{
		{"PartitionKey eq 'p0123' and RowKey ge '0000100123'", 50, 50, 50},                            // a page of a row range
		{"PartitionKey eq 'p0123' and RowKey eq '0000100123'", 1000, 1, 1},                            // a point query
		{"PartitionKey eq 'p0123'", 1000, 200, 200},                                                   // one partition
		{"PartitionKey ge 'p0500' and PartitionKey lt 'p0502'", 1000, 400, 400},                       // a partition range
		{"PartitionKey eq 'p0123' and RowKey gt '0000100123' and RowKey lt '0000102123'", 1000, 1, 1}, // a bounded row range
		{"PartitionKey eq 'p0123' and Missing eq 1", 1000, 0, 200},                                    // a filter on a non-key property: the whole partition
	}
	for _, tt := range tests {
		f, err := filter.Parse(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		rg := filter.RangeOf(f)
		var start keys
		start.pk, start.rk = rg.Start()
		n := 0
		p := newPage(tt.limit)
		scan(tb, start, rg, f, p, func(*store.Entity) { n++ })
		if n != tt.matches || p.seen != tt.visited {
			t.Errorf("%s: %d matches visiting %d entities, want %d visiting %d", tt.filter, n, p.seen, tt.matches, tt.visited)
		}
	}
}

func TestScanBoundedPerPage(t *testing.T) {
	s := newServer(t)
	s.store.Create("big")
	bigTable(s.store.Table("big"), maxScan+500)
	q := "$filter=" + url.QueryEscape("Missing eq 1")
	w := do(t, s, signed(s, http.MethodGet, "/big()", q, nil), http.StatusOK)
	npk, nrk := w.Header().Get("x-ms-continuation-NextPartitionKey"), w.Header().Get("x-ms-continuation-NextRowKey")
	if !strings.Contains(w.Body.String(), `"value":[]`) || npk == "" {
		t.Fatalf("a scan past %d entities: %s, continuation %q %q; want an empty page that continues", maxScan, w.Body, npk, nrk)
	}
	w = do(t, s, signed(s, http.MethodGet, "/big()", q+"&NextPartitionKey="+url.QueryEscape(npk)+"&NextRowKey="+url.QueryEscape(nrk), nil), http.StatusOK)
	if w.Header().Get("x-ms-continuation-NextPartitionKey") != "" {
		t.Errorf("the second page continues: %v", w.Header())
	}
}

func TestStartRefusesRemoteAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0"} {
		if _, err := Start(addr, Config{}); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("Start(%q): %v, want ErrNotLoopback", addr, err)
		}
	}
	if _, err := Start("127.0.0.1", Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("an address without a port: %v, want ErrConfig", err)
	}
	if _, err := New(Config{Key: "not base64!"}); !errors.Is(err, ErrConfig) {
		t.Errorf("a key that is not base64: %v, want ErrConfig", err)
	}
	in, err := Start("localhost:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(in.ConnectionString(), "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="+DevKey+";TableEndpoint=http://") {
		t.Errorf("connection string %q", in.ConnectionString())
	}
	if err := in.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestInsertsKeepTheirOwnProperties: an insert encodes its entity in a
// pooled buffer, which the next insert reuses; each stored entity (and
// each answer) is its own, however many inserts, of growing and shrinking
// sizes, went through the same buffers since.
func TestInsertsKeepTheirOwnProperties(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	want := map[string]string{}
	for i := range 200 {
		rk := fmt.Sprint(i)
		data := strings.Repeat(string(rune('a'+i%26)), 1+(i*7919)%3000)
		body := fmt.Sprintf(`{"PartitionKey":"p","RowKey":%q,"Data":%q,"N":%d}`, rk, data, i)
		r := signed(s, "POST", "/t", "", []byte(body))
		r.Header.Del("Prefer")
		w := do(t, s, r, http.StatusCreated)
		if !strings.Contains(w.Body.String(), `"Data":"`+data+`"`) {
			t.Fatalf("insert %d answered %.200s, without its Data", i, w.Body.String())
		}
		want[rk] = data
	}
	for rk, data := range want {
		w := do(t, s, signed(s, "GET", fmt.Sprintf("/t(PartitionKey='p',RowKey='%s')", rk), "", nil), http.StatusOK)
		var got struct {
			Data string
			N    int
		}
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Data != data || fmt.Sprint(got.N) != rk {
			t.Errorf("RowKey %s: Data of %d bytes, N %d; want %d bytes, N %s", rk, len(got.Data), got.N, len(data), rk)
		}
	}
}
