package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// churnEntity is row i of partition i%10 at version v, about 300 bytes.
func churnEntity(tb *table, i, v int) *entity {
	props := []prop{{name: "Data", raw: []byte(`"` + strings.Repeat("d", 256) + `"`)}, {name: "V", raw: []byte(fmt.Sprint(v))}}
	return newEntity(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i), props, time.Unix(int64(v), 0), tb.names)
}

// TestSlabCompacts rewrites every row of a table many times: the dead
// versions are compacted away, so the memory stays within a small multiple
// of the live rows, and every row reads back at its last version.
func TestSlabCompacts(t *testing.T) {
	tb := newTable("churn")
	const rows, versions = 5000, 40
	for v := range versions {
		for i := range rows {
			tb.put(churnEntity(tb, i, v))
		}
	}
	if tb.tree.Len() != rows {
		t.Fatalf("%d rows, want %d", tb.tree.Len(), rows)
	}
	live := 0
	for i := range rows {
		e := tb.get(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i))
		want := churnEntity(tb, i, versions-1)
		if e == nil || string(e.appendFragment(nil)) != string(want.appendFragment(nil)) || e.ts != want.ts {
			t.Fatalf("row %d: %v, want its last version", i, e)
		}
		live += recordLen(e)
	}
	if tb.slab.live != live {
		t.Errorf("the slab counts %d live bytes, the rows take %d", tb.slab.live, live)
	}
	// Compaction starts past two chunks of dead records or a third of the slab.
	if limit := max(live*3/2, live+2*chunkMax) + chunkMax; tb.slab.mapped > limit {
		t.Errorf("%d bytes mapped for %d live after %d versions of each row, want at most %d", tb.slab.mapped, live, versions, limit)
	}
}

// TestSlabReleases checks that deleting every row and dropping a table
// give their memory back.
func TestSlabReleases(t *testing.T) {
	tb := newTable("gone")
	for i := range 20000 {
		tb.put(churnEntity(tb, i, 0))
	}
	if tb.slab.mapped < 20000*300 {
		t.Fatalf("%d bytes mapped for 20,000 rows of 300 bytes", tb.slab.mapped)
	}
	for i := range 20000 {
		tb.remove(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i))
	}
	// Only the chunk new rows go to may stay.
	if tb.tree.Len() != 0 || tb.slab.live != 0 || tb.slab.mapped > chunkMax {
		t.Errorf("after deleting every row: %d rows, %d live bytes, %d mapped", tb.tree.Len(), tb.slab.live, tb.slab.mapped)
	}
	st := newStore(time.Now)
	st.create("t")
	dropped := st.table("t")
	dropped.put(churnEntity(dropped, 1, 0))
	dropped.put(&entity{pk: "big", rk: "r", props: make([]byte, chunkMax)}) // a chunk of its own
	if !st.drop("t") || dropped.slab.mapped != 0 || len(dropped.slab.byID) != 0 || dropped.tree.Len() != 0 {
		t.Errorf("a dropped table keeps %d bytes in %d chunks, %d rows", dropped.slab.mapped, len(dropped.slab.byID), dropped.tree.Len())
	}
}

// Tests zero dead records (see zeroFreed).
func init() { zeroFreed = true }

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
	tb := s.store.table("churn")
	tb.mu.RLock()
	defer tb.mu.RUnlock()
	if tb.slab.live > 2*rows*(len(data)+100) || tb.slab.mapped < tb.slab.live {
		t.Errorf("%d live bytes in %d mapped for at most %d rows", tb.slab.live, tb.slab.mapped, rows)
	}
}
