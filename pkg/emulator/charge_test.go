package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// Under the Cosmos DB model every answer carries x-ms-request-charge, the
// request units the model charged it: an insert of under 1 KB 4.95, a
// point read 1, a query page 2.5 and a read per entity returned (beside
// the rows it visited), a 429 and a table operation nothing; Azure
// Storage's model sends no charge.
func TestRequestChargeHeader(t *testing.T) {
	s := modelServer(t, "cosmos,ru=400,latency=off") // a 100 RU bucket
	charge := func(method, path, query string, body []byte) (int, string) {
		w := serve(s, signed(s, method, path, query, body))
		return w.Code, w.Header().Get("X-Ms-Request-Charge")
	}
	s.store.Create("t")
	if code, c := charge(http.MethodGet, "/Tables", "", nil); code != http.StatusOK || c != "0" {
		t.Errorf("list tables: %d, charge %q", code, c)
	}
	if code, c := charge(http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"1"}`)); code != http.StatusNoContent || c != "4.95" {
		t.Errorf("insert: %d, charge %q", code, c)
	}
	if code, c := charge(http.MethodGet, "/t(PartitionKey='p',RowKey='1')", "", nil); code != http.StatusOK || c != "1" {
		t.Errorf("point read: %d, charge %q", code, c)
	}
	page := serve(s, signed(s, http.MethodGet, "/t()", "$filter="+url.QueryEscape("PartitionKey eq 'p'"), nil))
	if c, v := page.Header().Get("X-Ms-Request-Charge"), page.Header().Get(visitedHeader); page.Code != http.StatusOK || c != "3.5" || v != "1" {
		t.Errorf("query page of one entity: %d, charge %q, rows visited %q", page.Code, c, v)
	}
	refused := ""
	for i := 2; i < 40 && refused == ""; i++ {
		if code, c := charge(http.MethodPost, "/t", "", []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%d"}`, i))); code == http.StatusTooManyRequests {
			refused = c
		}
	}
	if refused != "0" {
		t.Errorf("a 429: charge %q, want 0", refused)
	}

	az := modelServer(t, "azure,latency=off")
	az.store.Create("t")
	if w := serve(az, signed(az, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"1"}`))); w.Header().Get("X-Ms-Request-Charge") != "" {
		t.Errorf("Azure Storage's model sent a charge: %v", w.Header())
	}
}
