package session

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
)

// Embedded is an embedded Table service a session runs on: the service,
// the connection string that reaches it, how to connect (Dial: nil over
// the network; RoundTripper: the transport of a service in process, nil
// over a connection) and how to stop it.
type Embedded struct {
	Server       *emulator.Server
	Conn         string
	Dial         func(ctx context.Context, network, addr string) (net.Conn, error)
	RoundTripper http.RoundTripper
	Stop         func()
}

// StartEmbedded starts the embedded Table service of cfg: in process
// (transport InProcess or "": the SDK reaches it with no socket), or on a
// free loopback port (Socket).
func StartEmbedded(cfg emulator.Config, transport string) (*Embedded, error) {
	if transport != Socket {
		p, err := emulator.StartInProcess(cfg)
		if err != nil {
			return nil, err
		}
		return &Embedded{Server: p.Server, Conn: p.ConnectionString(), RoundTripper: p, Stop: stopper(p.Close)}, nil
	}
	in, err := emulator.Start("127.0.0.1:0", cfg)
	if err != nil {
		return nil, err
	}
	return &Embedded{Server: in.Server, Conn: in.ConnectionString(), Stop: stopper(in.Close)}, nil
}

// stopper stops a service with close, waiting at most 5 s for its
// requests in flight.
func stopper(close func(context.Context) error) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = close(ctx)
	}
}
