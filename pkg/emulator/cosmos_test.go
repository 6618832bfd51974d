package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Under the Cosmos DB model a table's RU/s run out: the service answers
// 429 TooManyRequests, "Request rate is large", with x-ms-retry-after-ms,
// as Cosmos DB does, and counts it under that key.
func TestCosmosRefusesWith429(t *testing.T) {
	s := modelServer(t, "cosmos,ru=400,latency=off") // a 100 RU bucket: 20 inserts of 4.95 RU
	s.store.Create("t")
	codes := map[int]int{}
	var refused *http.Response
	for i := range 40 {
		w := serve(s, signed(s, http.MethodPost, "/t", "", []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%d"}`, i))))
		codes[w.Code]++
		if w.Code == http.StatusTooManyRequests && refused == nil {
			refused = w.Result()
			if !strings.Contains(w.Body.String(), "Request rate is large") {
				t.Errorf("429 body %s, want Cosmos DB's message", w.Body)
			}
		}
	}
	if codes[http.StatusNoContent] != 20 || codes[http.StatusTooManyRequests] != 20 {
		t.Fatalf("answers %v, want 20 inserts then 20 refusals", codes)
	}
	ms, err := strconv.Atoi(refused.Header.Get("x-ms-retry-after-ms"))
	// The clock stands still: 20 inserts took 99 of the bucket's 100 RU;
	// the next one's 4.95 RU are 9.875 ms of refill away at 400 RU/s, 10
	// rounded up.
	if err != nil || ms != 10 || refused.Header.Get("x-ms-error-code") != "TooManyRequests" {
		t.Errorf("429 headers %v, want x-ms-retry-after-ms 10 and TooManyRequests", refused.Header)
	}
	if n := s.Stats().Tables["t"].Partitions["p"].Requests["429 TooManyRequests"]; n != 20 {
		t.Errorf("counted %d refusals, want 20", n)
	}
}

// A logical partition holds at most logical_size: the write that would
// grow it beyond is refused with 403 Forbidden, "Partition key reached
// maximum size", whether an insert, an upsert or a transaction; a delete
// makes room again; other partitions are not concerned.
func TestCosmosPartitionSizeLimit(t *testing.T) {
	s := modelServer(t, "cosmos,ru=1e9,physical_ru=1e9,logical_ru=1e9,logical_size=1KB,latency=off")
	s.store.Create("t")
	insert := func(pk string, i int) int {
		body := fmt.Sprintf(`{"PartitionKey":"%s","RowKey":"%03d","Payload":"%s"}`, pk, i, strings.Repeat("x", 200))
		return serve(s, signed(s, http.MethodPost, "/t", "", []byte(body))).Code
	}
	n := 0
	for insert("full", n) == http.StatusNoContent {
		n++
	}
	// Each entity is 4 + 3 + 214 = 221 bytes (keys and properties): four
	// fit in 1 KB, the fifth would not.
	if n != 4 {
		t.Errorf("%d entities of 221 bytes fit in a 1 KB partition, want 4", n)
	}
	w := serve(s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"full","RowKey":"x","Payload":"`+strings.Repeat("y", 900)+`"}`)))
	if w.Code != http.StatusForbidden || w.Header().Get("x-ms-error-code") != "Forbidden" || !strings.Contains(w.Body.String(), "Partition key reached maximum size of 1 KB") {
		t.Errorf("a write into a full partition: %d %s, want 403 Forbidden, partition key reached maximum size", w.Code, w.Body)
	}
	do(t, s, signed(s, http.MethodGet, "/t(PartitionKey='full',RowKey='x')", "", nil), http.StatusNotFound) // not stored
	if code := insert("other", 0); code != http.StatusNoContent {
		t.Errorf("another partition: %d, want 204", code)
	}
	del := signed(s, http.MethodDelete, "/t(PartitionKey='full',RowKey='000')", "", nil)
	del.Header.Set("If-Match", "*")
	do(t, s, del, http.StatusNoContent)
	if code := insert("full", 100); code != http.StatusNoContent {
		t.Errorf("after a delete: %d, want room for one more", code)
	}
	if code := insert("full", 101); code != http.StatusForbidden {
		t.Errorf("then: %d, want 403 again", code)
	}
}
