package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// Tests zero dead records (see store.ZeroFreed).
func init() { store.ZeroFreed = true }

// TestChurnUnderReaders rewrites rows while point reads, queries and
// merges read them, so that records die and chunks are compacted and
// released under concurrent readers (run it with -race): a read that kept
// a view past its lock answers a zeroed record, or faults.
func TestChurnUnderReaders(t *testing.T) {
	s := newServer(t)
	do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"churn"}`)), http.StatusNoContent)
	data := strings.Repeat("x", 2000)
	const writers, readers, rows, rounds = 2, 3, 24, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * rows {
				r := (i*7 + w) % rows
				body := fmt.Sprintf(`{"Data":%q,"V":%d}`, data, i)
				serve(s, signed(s, http.MethodPut, fmt.Sprintf("/churn(PartitionKey='p%d',RowKey='%03d')", r%4, r), "", []byte(body)))
				if i%50 == 0 {
					serve(s, signed(s, http.MethodDelete, fmt.Sprintf("/churn(PartitionKey='p%d',RowKey='%03d')", r%4, r), "", nil))
				}
			}
		}()
	}
	failures := make(chan string, readers)
	for rd := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * 2 {
				r := (i*13 + rd) % rows
				w := serve(s, signed(s, http.MethodGet, fmt.Sprintf("/churn(PartitionKey='p%d',RowKey='%03d')", r%4, r), "", nil))
				// A row is whole: its keys, and its Data unless a merge
				// recreated it after a delete.
				b := w.Body.String()
				whole := strings.Contains(b, fmt.Sprintf(`"RowKey":"%03d"`, r)) && (strings.Contains(b, data) || !strings.Contains(b, "Data"))
				if w.Code == http.StatusOK && !whole {
					failures <- b
					return
				}
				q := serve(s, signed(s, http.MethodGet, "/churn()", "$top=7&$filter="+url.QueryEscape(fmt.Sprintf("PartitionKey eq 'p%d' and V ge 0", r%4)), nil))
				if q.Code != http.StatusOK {
					failures <- q.Body.String()
					return
				}
				serve(s, signed(s, http.MethodPatch, fmt.Sprintf("/churn(PartitionKey='p%d',RowKey='%03d')", r%4, r), "", []byte(`{"M":1}`)))
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Errorf("a read under churn answered %.200s", f)
	}
	tb := s.store.Table("churn")
	tb.RLock()
	defer tb.RUnlock()
	if live, mapped := tb.Memory(); live > 2*rows*(len(data)+100) || mapped < live {
		t.Errorf("%d live bytes in %d mapped for at most %d rows", live, mapped, rows)
	}
}
