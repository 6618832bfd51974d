package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// capture is an azcore transport that keeps the request and answers it
// with an error, so aztables' request bodies can be read without a
// network.
type capture struct {
	contentType string
	body        []byte
}

func (c *capture) Do(r *http.Request) (*http.Response, error) {
	c.contentType = r.Header.Get("Content-Type")
	c.body, _ = io.ReadAll(r.Body)
	body := errorBody(errMethod, "", fixedNow())
	return &http.Response{StatusCode: errMethod.status, Request: r, Body: io.NopCloser(bytes.NewReader(body)),
		Header: http.Header{"Content-Type": {"application/json"}}}, nil
}

// aztablesBatch returns the Content-Type and body aztables sends for a
// transaction on table "batch".
func aztablesBatch(t testing.TB, acts []aztables.TransactionAction) (string, []byte) {
	t.Helper()
	c := &capture{}
	cred, _ := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	svc, err := aztables.NewServiceClientWithSharedKey("http://127.0.0.1:1/"+DevAccount, cred,
		&aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: c, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = svc.NewClient("batch").SubmitTransaction(context.Background(), acts, nil) // the captured answer is an error
	if c.body == nil {
		t.Fatal("aztables refused the transaction before sending it")
	}
	return c.contentType, c.body
}

func act(kind aztables.TransactionType, pk, rk string, etag string) aztables.TransactionAction {
	a := aztables.TransactionAction{ActionType: kind, Entity: []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"V":1}`, pk, rk))}
	if etag != "" {
		e := azcore.ETag(etag)
		a.IfMatch = &e
	}
	return a
}

func TestParseBatchFromAztables(t *testing.T) {
	ct, body := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p", "a", ""),
		act(aztables.TransactionTypeUpdateMerge, "p", "b", `W/"datetime'x'"`),
		act(aztables.TransactionTypeUpdateReplace, "p", "c", "*"),
		act(aztables.TransactionTypeInsertMerge, "p", "d", ""),
		act(aztables.TransactionTypeInsertReplace, "p", "e", ""),
		act(aztables.TransactionTypeDelete, "p", "f", ""),
		act(aztables.TransactionTypeDelete, "p", "g", `W/"datetime'y'"`),
	})
	ops, err := parseBatch(ct, body, DevAccount)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"batch p/a insert merge=false if-match=",                  // Add
		"batch p/b write merge=true if-match=W/\"datetime'x'\"",   // UpdateMerge with an ETag
		"batch p/c write merge=false if-match=*",                  // UpdateReplace
		"batch p/d write merge=true if-match=",                    // InsertMerge: no If-Match
		"batch p/e write merge=false if-match=",                   // InsertReplace: no If-Match
		"batch p/f delete merge=false if-match=*",                 // Delete of any version
		"batch p/g delete merge=false if-match=W/\"datetime'y'\"", // Delete with an ETag
	}
	kinds := map[opKind]string{opInsert: "insert", opWrite: "write", opDelete: "delete"}
	if len(ops) != len(want) {
		t.Fatalf("%d operations, want %d", len(ops), len(want))
	}
	for i, o := range ops {
		got := fmt.Sprintf("%s %s/%s %s merge=%v if-match=%s", o.table, o.pk, o.rk, kinds[o.kind], o.merge, o.ifMatch)
		if got != want[i] {
			t.Errorf("operation %d: %s, want %s", i, got, want[i])
		}
	}
	if len(ops[0].props) != 1 || ops[0].props[0].Name != "V" {
		t.Errorf("insert properties %+v, want V", ops[0].props)
	}
}

// batchRequest signs a transaction body for the handler.
func batchRequest(s *Server, ct string, body []byte) *http.Request {
	r := signed(s, http.MethodPost, "/$batch", "", body)
	r.Header.Set("Content-Type", ct)
	return r
}

// innerError reads the status line and the JSON error of a failed
// transaction's answer.
func innerError(t *testing.T, body string) (status, code, msg string) {
	t.Helper()
	i := strings.Index(body, "HTTP/1.1 ")
	j := strings.Index(body, `{"odata.error"`)
	if i < 0 || j < 0 {
		t.Fatalf("no failing operation in %q", body)
	}
	status = strings.TrimSpace(body[i+9 : i+9+strings.Index(body[i+9:], "\r\n")])
	var e struct {
		Err struct {
			Code    string
			Message struct{ Value string }
		} `json:"odata.error"`
	}
	end := strings.Index(body[j:], "\r\n")
	if err := json.Unmarshal([]byte(body[j:j+end]), &e); err != nil {
		t.Fatalf("the error is not JSON: %v in %q", err, body[j:])
	}
	return status, e.Err.Code, e.Err.Message.Value
}

func TestBatchRefusals(t *testing.T) {
	many := make([]aztables.TransactionAction, 101)
	for i := range many {
		many[i] = act(aztables.TransactionTypeAdd, "p", fmt.Sprintf("%03d", i), "")
	}
	tests := []struct {
		name    string
		acts    []aztables.TransactionAction
		status  string // of the failing operation
		code    string
		prefix  string // of the message: the failing operation's index
		statKey string
	}{
		{"101 operations", many, "400 Bad Request", "InvalidInput", "99:The batch request operation exceeds the maximum 100 changes", "400 InvalidInput"},
		{"two partitions", []aztables.TransactionAction{act(aztables.TransactionTypeAdd, "p", "a", ""), act(aztables.TransactionTypeAdd, "q", "a", "")},
			"400 Bad Request", "CommandsInBatchActOnDifferentPartitions", "1:All commands in a batch must operate on same entity group.", "400 CommandsInBatchActOnDifferentPartitions"},
		{"one entity twice", []aztables.TransactionAction{act(aztables.TransactionTypeInsertMerge, "p", "a", ""), act(aztables.TransactionTypeInsertMerge, "p", "b", ""), act(aztables.TransactionTypeDelete, "p", "a", "")},
			"400 Bad Request", "InvalidDuplicateRow", "2:The batch request contains multiple changes with same row key.", "400 InvalidDuplicateRow"},
		{"existing entity", []aztables.TransactionAction{act(aztables.TransactionTypeAdd, "p", "new", ""), act(aztables.TransactionTypeAdd, "p", "old", "")},
			"409 Conflict", "EntityAlreadyExists", "1:The specified entity already exists.", "409 EntityAlreadyExists"},
		{"missing entity", []aztables.TransactionAction{act(aztables.TransactionTypeUpdateReplace, "p", "nope", "*")},
			"404 Not Found", "ResourceNotFound", "0:The specified resource does not exist.", "404 ResourceNotFound"},
		{"entity over 1 MiB", []aztables.TransactionAction{act(aztables.TransactionTypeAdd, "p", "a", ""),
			{ActionType: aztables.TransactionTypeInsertReplace, Entity: []byte(`{"PartitionKey":"p","RowKey":"big",` + bigStrings(16) + `}`)}},
			"400 Bad Request", "EntityTooLarge", "1:The entity is larger than the maximum allowed size (1MB).", "400 EntityTooLarge"},
		{"property name too long", []aztables.TransactionAction{act(aztables.TransactionTypeAdd, "p", "a", ""), act(aztables.TransactionTypeAdd, "p", "b", ""),
			{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"c","` + strings.Repeat("n", 256) + `":1}`)}},
			"400 Bad Request", "PropertyNameTooLong", "2:The property name exceeds the maximum allowed length (255).", "400 PropertyNameTooLong"},
		{"stale ETag", []aztables.TransactionAction{act(aztables.TransactionTypeDelete, "p", "old", `W/"datetime'2020-01-01T00%3A00%3A00.0000000Z'"`)},
			"412 Precondition Failed", "UpdateConditionNotSatisfied", "0:The update condition specified in the request was not satisfied.", "412 UpdateConditionNotSatisfied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			s.store.Create("batch")
			do(t, s, signed(s, http.MethodPost, "/batch", "", []byte(`{"PartitionKey":"p","RowKey":"old"}`)), http.StatusNoContent)
			s.ResetStats()
			ct, body := aztablesBatch(t, tt.acts)
			w := do(t, s, batchRequest(s, ct, body), http.StatusAccepted)
			if got := w.Header().Get("Content-Type"); !strings.HasPrefix(got, "multipart/mixed; boundary=batchresponse_") {
				t.Errorf("Content-Type %q", got)
			}
			status, code, msg := innerError(t, w.Body.String())
			if status != tt.status || code != tt.code || !strings.HasPrefix(msg, tt.prefix) || !strings.Contains(msg, "\nRequestId:") {
				t.Errorf("answered %s %s %q, want %s %s %q...", status, code, msg, tt.status, tt.code, tt.prefix)
			}
			if n, _ := s.Rows("batch"); n != 1 {
				t.Errorf("the table holds %d entities after a failed transaction, want 1", n)
			}
			p := s.Stats().Tables["batch"].Partitions["p"]
			if p == nil || p.Requests[tt.statKey] != 1 || len(p.Requests) != 1 || p.Entities != 0 {
				t.Errorf("counted %+v, want one %s and no entity", p, tt.statKey)
			}
		})
	}
}

func TestBatchTooLarge(t *testing.T) {
	s := newServer(t)
	s.store.Create("batch")
	big := strings.Repeat("x", 60_000)
	acts := make([]aztables.TransactionAction, 80)
	for i := range acts {
		acts[i] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd,
			Entity: []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%d","Data":%q}`, i, big))}
	}
	ct, body := aztablesBatch(t, acts)
	if len(body) <= maxBatchBytes {
		t.Fatalf("the body is %d bytes, want more than 4 MiB", len(body))
	}
	w := do(t, s, batchRequest(s, ct, body), http.StatusRequestEntityTooLarge)
	if w.Header().Get("x-ms-error-code") != "RequestBodyTooLarge" {
		t.Errorf("x-ms-error-code %q", w.Header().Get("x-ms-error-code"))
	}
}

func TestBatchAppliesEveryOperation(t *testing.T) {
	s := newServer(t)
	s.store.Create("batch")
	for _, rk := range []string{"m", "r", "d"} {
		do(t, s, signed(s, http.MethodPost, "/batch", "", []byte(`{"PartitionKey":"p","RowKey":"`+rk+`","Old":1}`)), http.StatusNoContent)
	}
	ct, body := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p", "a", ""),
		act(aztables.TransactionTypeUpdateMerge, "p", "m", "*"),
		act(aztables.TransactionTypeUpdateReplace, "p", "r", "*"),
		act(aztables.TransactionTypeDelete, "p", "d", ""),
	})
	w := do(t, s, batchRequest(s, ct, body), http.StatusAccepted)
	if n := strings.Count(w.Body.String(), "HTTP/1.1 204 No Content"); n != 4 {
		t.Errorf("%d inner 204 answers, want 4:\n%s", n, w.Body.String())
	}
	tb := s.store.Table("batch")
	got := map[string]string{}
	tb.Ascend("", "", func(e *store.Entity) bool { got[strings.Clone(e.RK())] = string(e.AppendFragment(nil)); return true })
	want := map[string]string{"a": `"V":1`, "m": `"Old":1,"V":1`, "r": `"V":1`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("table holds %v, want %v", got, want)
	}
}

// FuzzBatch checks that no transaction body makes the service panic, and
// that every answer is one Azure could give.
func FuzzBatch(f *testing.F) {
	ct, body := aztablesBatch(f, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p", "a", ""), act(aztables.TransactionTypeUpdateMerge, "p", "b", "*"),
		act(aztables.TransactionTypeDelete, "p", "c", ""), act(aztables.TransactionTypeInsertReplace, "p", "d", ""),
	})
	boundary := ct[strings.Index(ct, "=")+1:]
	f.Add(boundary, body)
	f.Add(boundary, body[:len(body)/2])
	f.Add("b", []byte("--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n\r\nGET /x HTTP/1.1\r\n\r\n--c--\r\n--b--\r\n"))
	// The SDKs' own forms (see sdkBatch), and their line-end and blank-line variants.
	for _, sdk := range []string{"js", "python", "legacy"} {
		ct, body := sdkBatch(f, sdk)
		boundary := ct[strings.Index(ct, "=")+1:]
		f.Add(boundary, body)
		f.Add(boundary, bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")))
		f.Add(boundary, bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n")))
		f.Add(boundary, bytes.ReplaceAll(body, []byte("HTTP/1.1\r\n"), []byte("HTTP/1.1\r\n\r\n")))
		f.Add(boundary, bytes.ReplaceAll(body, []byte("\n\n{"), []byte("\n\n\n\n{")))
		f.Add(boundary, body[:len(body)*2/3])
	}
	s := newServer(f)
	s.store.Create("batch")
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		w := serve(s, batchRequest(s, "multipart/mixed; boundary="+boundary, body))
		switch w.Code {
		case http.StatusAccepted, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("answered %d %s", w.Code, w.Body.String())
		}
		if w.Code != http.StatusAccepted && w.Header().Get("x-ms-error-code") == "" {
			t.Fatalf("answered %d without x-ms-error-code", w.Code)
		}
	})
}

// TestBatchSubResponses holds R9: each operation's inner response carries
// the headers of the operation's own answer, as in Azure's recorded
// answers: an insert's its entity's URL in Location and DataServiceId
// (the JavaScript SDK reads subResponses[i].rowKey from it) and its ETag,
// an update's and an upsert's their ETag, a delete's neither.
func TestBatchSubResponses(t *testing.T) {
	s := newServer(t)
	s.store.Create("batch")
	for _, rk := range []string{"m", "d"} {
		do(t, s, signed(s, http.MethodPost, "/batch", "", []byte(`{"PartitionKey":"p q","RowKey":"`+rk+`"}`)), http.StatusNoContent)
	}
	ct, body := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p q", "a'😀", ""),
		act(aztables.TransactionTypeUpdateMerge, "p q", "m", "*"),
		act(aztables.TransactionTypeInsertReplace, "p q", "u", ""),
		act(aztables.TransactionTypeDelete, "p q", "d", ""),
	})
	w := do(t, s, batchRequest(s, ct, body), http.StatusAccepted)
	parts := strings.Split(w.Body.String(), "HTTP/1.1 ")[1:]
	if len(parts) != 4 {
		t.Fatalf("%d inner answers, want 4:\n%s", len(parts), w.Body)
	}
	url := "http://127.0.0.1/devstoreaccount1/batch(PartitionKey='p%20q',RowKey='a''%F0%9F%98%80')"
	etag := func(rk string) string {
		e := s.store.Table("batch").Get("p q", rk)
		if e == nil {
			t.Fatalf("%s was not stored", rk)
		}
		return e.ETag()
	}
	want := []string{
		"204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nPreference-Applied: return-no-content\r\n" +
			"DataServiceVersion: 3.0;\r\nLocation: " + url + "\r\nDataServiceId: " + url + "\r\nETag: " + etag("a'😀") + "\r\n\r\n",
		"204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 1.0;\r\nETag: " + etag("m") + "\r\n\r\n",
		"204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 1.0;\r\nETag: " + etag("u") + "\r\n\r\n",
		"204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 1.0;\r\n\r\n",
	}
	for i, p := range parts {
		if !strings.HasPrefix(p, want[i]) {
			t.Errorf("inner answer %d:\n%q\nwant it to begin\n%q", i, p, want[i])
		}
	}
}
