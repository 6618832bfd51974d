package httpfront

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// serveFastOn serves h with the service's fasthttp front on a loopback
// port until the test ends, and returns the port's address.
func serveFastOn(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(h, 0)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Shutdown()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

// TestFastFrontPanic: a handler's panic closes that request's connection
// without an answer, as net/http does, and the service goes on serving.
func TestFastFrontPanic(t *testing.T) {
	addr := serveFastOn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/abort":
			panic(http.ErrAbortHandler)
		case "/bug":
			panic("a bug")
		}
		w.Header()["Content-Length"] = []string{"2"}
		w.Write([]byte("ok"))
	}))
	send := func(path string) net.Conn {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	for _, path := range []string{"/abort", "/bug"} {
		conn := send(path)
		b, err := io.ReadAll(conn)
		conn.Close()
		if err != nil || len(b) != 0 {
			t.Errorf("%s: read %q, %v; want nothing, then the connection closed", path, b, err)
		}
		conn = send("/ok")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("after %s: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "ok" {
			t.Errorf("after %s: %d %q, want 200 ok", path, resp.StatusCode, body)
		}
	}
}
