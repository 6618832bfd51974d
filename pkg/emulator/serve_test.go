package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// bandwidthServer is a service whose account receives or sends
// 0.0008 Gbps (100,000 bytes/s, its bucket 10,000 bytes: five requests), on a clock the
// test moves (*at), with table t.
func bandwidthServer(t *testing.T, spec string, at *time.Time) *Server {
	t.Helper()
	mc, err := model.Parse(spec + ",timeouts=0%,latency=off")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Model: mc, Now: func() time.Time { return *at }})
	if err != nil {
		t.Fatal(err)
	}
	s.store.Create("t")
	return s
}

// bandwidthBytes is the bytes a second of bandwidthServer's account.
const bandwidthBytes = 100000

// served counts the answers to requests of a test: those served and
// the bytes they moved (bytes, the most one moved in one), and those
// refused with Azure's 503 ServerBusy and the test's message.
type served struct {
	bytes, one, ok, refused int
}

// add counts the answer w to a request that moved n bytes if served.
func (c *served) add(t *testing.T, w *httptest.ResponseRecorder, n, okStatus int, msg string) {
	t.Helper()
	res, body := w.Result(), w.Body.String()
	switch {
	case res.StatusCode == okStatus:
		c.ok++
		c.bytes += n
		c.one = max(c.one, n)
	case res.StatusCode == 503 && res.Header.Get("x-ms-error-code") == "ServerBusy" && strings.Contains(body, msg):
		c.refused++
	default:
		t.Fatalf("answer %d %s, want %d or 503 ServerBusy %q", res.StatusCode, body, okStatus, msg)
	}
}

// checkServed holds what 10 s at 100 requests a second admitted to the
// account's 100,000 bytes a second: 1,000,000 bytes and the bucket's 10,000,
// give or take one request's; and the refusals to the service's counters,
// under the partition and the model's cause.
func checkServed(t *testing.T, s *Server, c served, cause string) {
	t.Helper()
	t.Logf("%d served (%d bytes), %d refused", c.ok, c.bytes, c.refused)
	if lo, hi := 10*bandwidthBytes-c.one, 10*bandwidthBytes+bandwidthBytes/10+c.one; c.bytes < lo || c.bytes > hi {
		t.Errorf("%d bytes admitted in 10 s, want %d to %d", c.bytes, lo, hi)
	}
	st := s.Stats()
	if n := st.Tables["t"].Partitions["p"].Requests["503 ServerBusy"]; c.refused == 0 || n != int64(c.refused) || st.Model.RefusedBy[cause] != n {
		t.Errorf("%d refused; counted %d under the partition, %d by %s (%v)", c.refused, n, st.Model.RefusedBy[cause], cause, st.Model.RefusedBy)
	}
}

// A point read's answer is billed to the account's egress: reads of an
// entity of about 2,000 bytes, 100 a second, are answered 100,000 bytes a
// second, the rest refused with Azure's egress message and counted.
func TestAnswersAreBilledToTheEgress(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := bandwidthServer(t, "azure,egress=0.0008", &at)
	entity := fmt.Sprintf(`{"PartitionKey":"p","RowKey":"r","Data":%q}`, strings.Repeat("x", 1900))
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(entity)), http.StatusNoContent)
	at = at.Add(time.Second) // the bucket full again
	var c served
	for range 1000 {
		w := serve(s, signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='r')", "", nil))
		c.add(t, w, w.Body.Len(), http.StatusOK, model.MsgEgress)
		at = at.Add(10 * time.Millisecond)
	}
	checkServed(t, s, c, "egress")
}

// A write's body is taken from the account's ingress: inserts of about
// 2,000 bytes, 100 a second, are stored 100,000 bytes a second, the rest
// refused with Azure's ingress message and counted.
func TestBodiesAreTakenFromTheIngress(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := bandwidthServer(t, "azure,ingress=0.0008", &at)
	var c served
	for i := range 1000 {
		body := []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%04d","Data":%q}`, i, strings.Repeat("x", 1900)))
		w := serve(s, signed(s, http.MethodPost, "/t", "", body))
		c.add(t, w, len(body), http.StatusNoContent, model.MsgIngress)
		at = at.Add(10 * time.Millisecond)
	}
	checkServed(t, s, c, "ingress")
	if rows, _ := s.Rows("t"); rows != c.ok {
		t.Errorf("%d rows stored for %d acknowledged inserts", rows, c.ok)
	}
}

// A transaction's whole body is taken from the account's ingress: one of
// 20 entities (about 25,000 bytes, over the bucket's 10,000) passes a full
// bucket and leaves it a quarter of a second in debt, so the next is
// refused with Azure's ingress message until the debt is paid.
func TestTransactionBodiesAreTakenFromTheIngress(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := bandwidthServer(t, "azure,ingress=0.0008", &at)
	s.store.Create("batch")
	tx := func(first int) *http.Request {
		var acts []aztables.TransactionAction
		for i := first; i < first+20; i++ {
			e := fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%04d","Data":%q}`, i, strings.Repeat("x", 1000))
			acts = append(acts, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: []byte(e)})
		}
		ct, body := aztablesBatch(t, acts)
		if len(body) <= bandwidthBytes/10 {
			t.Fatalf("a transaction of %d bytes fits the bucket", len(body))
		}
		return batchRequest(s, ct, body)
	}
	do(t, s, tx(0), http.StatusAccepted)
	w := do(t, s, tx(20), http.StatusServiceUnavailable)
	if w.Header().Get("x-ms-error-code") != "ServerBusy" || !strings.Contains(w.Body.String(), model.MsgIngress) {
		t.Errorf("the second transaction: %s %s, want ServerBusy %q", w.Header().Get("x-ms-error-code"), w.Body.String(), model.MsgIngress)
	}
	at = at.Add(300 * time.Millisecond)
	do(t, s, tx(40), http.StatusAccepted)
	if rows, _ := s.Rows("batch"); rows != 40 {
		t.Errorf("%d rows stored, want the 40 of the two transactions served", rows)
	}
}
