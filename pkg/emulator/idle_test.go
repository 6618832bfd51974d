package emulator

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// Config.IdleTimeout (Azurite's --tableKeepAliveTimeout) closes a
// kept-alive connection once it has been idle that long: the server, not
// the client, ends it, well before the two minutes of the default.
func TestIdleTimeoutClosesKeptAliveConnections(t *testing.T) {
	in := startServer(t, Config{Model: model.Off(), IdleTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", in.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /_tablestress/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	// The server closes it: the read ends in EOF, not in the client's own
	// deadline (a minute, far beyond 200 ms, far below the default's two).
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("an idle kept-alive connection after 200 ms: %v, want the server to close it (EOF)", err)
	}
}
