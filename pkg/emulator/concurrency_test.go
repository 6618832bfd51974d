package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
)

// TestConcurrentRequests runs writers, readers, queries and transactions on
// two tables at once (run it with -race), then checks that every request
// was counted once and every acknowledged write is stored.
func TestConcurrentRequests(t *testing.T) {
	s := newServer(t)
	for _, name := range []string{"one", "two"} {
		do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"`+name+`"}`)), http.StatusNoContent)
	}
	s.ResetStats()
	const workers, rounds = 8, 40
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			table := []string{"one", "two"}[w%2]
			for i := 0; i < rounds; i++ {
				pk := fmt.Sprintf("w%d", w)
				serve(s, signed(s, http.MethodPost, "/"+table, "", []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":"%03d","N":%d}`, pk, i, i))))
				serve(s, signed(s, http.MethodGet, fmt.Sprintf("/%s(PartitionKey='%s',RowKey='%03d')", table, pk, i), "", nil))
				serve(s, signed(s, http.MethodGet, "/"+table+"()", "$filter="+url.QueryEscape("N ge 10 and PartitionKey eq '"+pk+"'"), nil))
				serve(s, batchRequest(s, "multipart/mixed; boundary=batch_b", batchBody(s.account, table, fmt.Sprintf("b%d-%d", w, i), 10, "x")))
			}
		}()
	}
	wg.Add(1)
	go func() { // a reader of the counters meanwhile
		defer wg.Done()
		for i := 0; i < 50; i++ {
			s.Stats()
		}
	}()
	wg.Wait()
	var requests int64
	failed := map[string]int64{}
	for _, ts := range s.Stats().Tables {
		for _, p := range ts.Partitions {
			for key, n := range p.Requests {
				if key != "200" && key != "202" && key != "204" {
					failed[key] += n
				}
				requests += n
			}
		}
	}
	if len(failed) > 0 {
		t.Errorf("requests failed: %v", failed)
	}
	if requests != workers*rounds*4 {
		t.Errorf("%d requests counted, want %d", requests, workers*rounds*4)
	}
	one, _ := s.Rows("one")
	two, _ := s.Rows("two")
	// Each round inserts one entity and a transaction of 10 into the
	// worker's table.
	if want := workers / 2 * rounds * 11; one != want || two != want {
		t.Errorf("rows %d and %d, want %d each", one, two, want)
	}
}
