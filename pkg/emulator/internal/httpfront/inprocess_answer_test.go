package httpfront

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// answerCase is an answer a handler gives, and whether the in-process
// front converts it itself (plain) or has the socket front write it.
type answerCase struct {
	name  string
	plain bool
	write func(w http.ResponseWriter)
	// anyOrder: the values of a name come in any order (the handler's
	// map's), even over a socket.
	anyOrder bool
}

// set assigns header values as given, any spelling.
func set(w http.ResponseWriter, kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		w.Header()[kv[i]] = append(w.Header()[kv[i]], kv[i+1])
	}
}

// answerCases are the answers the service gives (headers set under
// canonical names and others, a body or none, every status class) and
// answers it does not.
func answerCases() []answerCase {
	entity := `{"odata.metadata":"x","PartitionKey":"p","RowKey":"r"}`
	gz := func() []byte {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		io.WriteString(z, entity)
		z.Close()
		return b.Bytes()
	}()
	return []answerCase{ // name, plain, write
		{name: "200 with an entity", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8", "X-Ms-Version", "2019-02-02",
				"X-Ms-Request-Id", "0000-1", "Etag", `W/"datetime'2026-01-02T03%3A04%3A05Z'"`, "Content-Length", "52", "Dataserviceversion", "3.0;")
			w.WriteHeader(200)
			io.WriteString(w, entity)
		}},
		{name: "204 with headers and a stated length", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Preference-Applied", "return-no-content", "Content-Length", "0", "Location", "http://h/t(PartitionKey='p')")
			w.WriteHeader(204)
		}},
		{name: "201, body in two writes", plain: true, write: func(w http.ResponseWriter) {
			w.WriteHeader(201)
			io.WriteString(w, entity[:10])
			io.WriteString(w, entity[10:])
		}},
		{name: "an error", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Content-Type", "application/json", "X-Ms-Error-Code", "ResourceNotFound")
			w.WriteHeader(404)
			io.WriteString(w, `{"odata.error":{}}`)
		}},
		{name: "Write without WriteHeader", plain: true, write: func(w http.ResponseWriter) { io.WriteString(w, "ok") }},
		{name: "nothing written", plain: true, write: func(w http.ResponseWriter) {}},
		{name: "a header set after WriteHeader", plain: true, write: func(w http.ResponseWriter) {
			w.WriteHeader(200)
			set(w, "X-Late", "1")
			io.WriteString(w, "ok")
		}},
		{name: "lower-case and odd spellings", plain: true, write: func(w http.ResponseWriter) {
			set(w, "x-lower", "v", "dataServiceVersion", "3.0;", "X-Two", "a", "X-Two", "b")
			w.WriteHeader(200)
		}},
		{name: "the handler's Date", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Date", fixedDate)
			w.WriteHeader(200)
		}},
		{name: "Content-Type twice", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Content-Type", "a/b", "Content-Type", "c/d")
			io.WriteString(w, "x")
		}},
		{name: "a stated length the body does not have", plain: true, write: func(w http.ResponseWriter) {
			set(w, "Content-Length", "5")
			w.WriteHeader(200)
		}},
		{name: "an unknown status", plain: true, write: func(w http.ResponseWriter) { w.WriteHeader(599) }},
		{name: "a value with a space", plain: false, write: func(w http.ResponseWriter) { set(w, "X-A", "a "); w.WriteHeader(200) }},
		{name: "an empty value", plain: false, write: func(w http.ResponseWriter) { set(w, "X-A", ""); w.WriteHeader(200) }},
		{name: "Connection: close", plain: false, write: func(w http.ResponseWriter) { set(w, "Connection", "close"); io.WriteString(w, "x") }},
		{name: "a Server", plain: false, write: func(w http.ResponseWriter) { set(w, "Server", "s"); io.WriteString(w, "x") }},
		{name: "a cookie", plain: false, write: func(w http.ResponseWriter) { set(w, "Set-Cookie", "a=1; Path=/"); io.WriteString(w, "x") }},
		{name: "a gzip body", plain: false, write: func(w http.ResponseWriter) {
			set(w, "Content-Encoding", "gzip")
			w.Write(gz)
		}},
		{name: "304", plain: false, write: func(w http.ResponseWriter) { w.WriteHeader(304) }},
		// fasthttp writes the 103 as the answer, net/http waits for one
		// after it: the client waits until its deadline.
		{name: "a 1xx first", plain: false, write: func(w http.ResponseWriter) { w.WriteHeader(103); io.WriteString(w, "x") }},
		{name: "a bad name", plain: false, write: func(w http.ResponseWriter) { set(w, "Bad Name", "1"); w.WriteHeader(200) }},
		{name: "one name spelled twice", write: func(w http.ResponseWriter) { set(w, "X-A", "1", "x-a", "2"); w.WriteHeader(200) }, anyOrder: true},
		{name: "a length that is not a number", plain: false, write: func(w http.ResponseWriter) { set(w, "Content-Length", "five"); w.WriteHeader(200) }},
		{name: "dropped", plain: true, write: func(w http.ResponseWriter) {
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close()
			}
		}},
		{name: "an aborted handler", plain: true, write: func(w http.ResponseWriter) { panic(http.ErrAbortHandler) }},
	}
}

// TestInProcessAnswerAsSocket: the client reads from the in-process front
// the response net/http's Transport reads from the socket front's bytes
// for the same answer (status line, headers with canonical names and the
// front's Date and Content-Length, body and its framing), to a GET, a
// HEAD and a POST, served on the client's goroutine and detached; a
// closed connection fails as it does over a socket. Answers of a shape the
// conversion leaves to the socket front (and only those) are written by
// it.
func TestInProcessAnswerAsSocket(t *testing.T) {
	cases := answerCases()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, c := range cases {
			if r.URL.Query().Get("case") == c.name {
				c.write(w)
				return
			}
		}
		http.NotFound(w, r)
	})
	base := "http://" + serveFastOn(t, h)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	for _, detach := range []bool{false, true} {
		in := NewInProcess(h, func() bool { return detach })
		for _, c := range cases {
			for _, method := range []string{"GET", "HEAD", "POST"} {
				req := func() *http.Request {
					u := base + "/a?case=" + strings.ReplaceAll(c.name, " ", "+")
					var r *http.Request
					if method == "POST" {
						r = clientRequest(method, u, strings.NewReader("{}"), 2, nil, nil)
					} else {
						r = clientRequest(method, u, nil, 0, nil, nil)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
					t.Cleanup(cancel)
					return r.WithContext(ctx)
				}
				want := dumpResponse(tr.RoundTrip(req()))
				before := in.pipe.used.Load()
				got := dumpResponse(in.RoundTrip(req()))
				if c.anyOrder {
					got, want = sortedLines(got), sortedLines(want)
				}
				if got != want {
					t.Errorf("%s to a %s (detached %v):\ngot (in process)\n%s\nwant (socket)\n%s", c.name, method, detach, got, want)
				}
				if piped := in.pipe.used.Load() > before; piped == c.plain {
					t.Errorf("%s to a %s: written by the socket front %v, want %v", c.name, method, piped, !c.plain)
				}
			}
		}
		if err := in.Close(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

// sortedLines is a dump with each header's values sorted.
func sortedLines(dump string) string {
	lines := strings.Split(dump, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "header ") {
			k, v, _ := strings.Cut(strings.TrimPrefix(l, "header "), " ")
			vs := strings.Fields(strings.Trim(v, "[]"))
			slices.Sort(vs)
			lines[i] = "header " + k + " " + strings.Join(vs, " ")
		}
	}
	return strings.Join(lines, "\n")
}
