package emulator

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
)

// Instance is a Server listening on a TCP address. Its methods are safe
// for concurrent use; Close once.
type Instance struct {
	*Server // the first account's
	servers []*Server
	ln      net.Listener
	srv     *fasthttp.Server
	done    chan error
}

// ErrNotLoopback refuses to listen beyond this machine unless allowed.
var ErrNotLoopback = errors.New("emulator: refusing to listen on a non-loopback address")

// Start listens on addr (like "127.0.0.1:0" for a free port) and serves
// the service of cfg in a goroutine until Close. It refuses an address
// that is not loopback (127.0.0.0/8, ::1, localhost) with ErrNotLoopback
// unless cfg.AllowRemote, and a malformed address with ErrConfig.
func Start(addr string, cfg Config) (*Instance, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if ip := net.ParseIP(host); !cfg.AllowRemote && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%w: %q (use 127.0.0.1)", ErrNotLoopback, addr)
	}
	servers, err := newServers(cfg)
	if err != nil {
		return nil, err
	}
	in, err := serveOn(addr, servers...)
	if err != nil {
		for _, s := range servers {
			s.Close()
		}
	}
	return in, err
}

// serveOn listens on addr and serves the services in a goroutine (one
// account's, or each of several by the account a request names), over TLS
// when the first one's Config had TLS.
func serveOn(addr string, servers ...*Server) (*Instance, error) {
	s := servers[0]
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	var h http.Handler = s
	if len(servers) > 1 {
		h = newAccountMux(servers)
	}
	in := &Instance{Server: s, servers: servers, ln: ln, done: make(chan error, 1), srv: httpfront.NewServer(h, s.idle)}
	go func() { in.done <- in.srv.Serve(ln) }()
	return in, nil
}

// Servers are the services the instance serves: one per account.
func (i *Instance) Servers() []*Server { return i.servers }

// Addr is the address the service listens on.
func (i *Instance) Addr() string { return i.ln.Addr().String() }

// URL is the table service endpoint, path-style like Azurite's.
func (i *Instance) URL() string { return i.scheme + "://" + i.Addr() + "/" + i.account }

// ConnectionString is a connection string for the account, with its key,
// as aztables.NewServiceClientFromConnectionString reads it. It holds the
// key: do not log it.
func (i *Instance) ConnectionString() string {
	return "DefaultEndpointsProtocol=" + i.scheme + ";AccountName=" + i.account + ";AccountKey=" + encodeKey(i.key) + ";TableEndpoint=" + i.URL() + ";"
}

// PrintableConnectionString is ConnectionString as it may be shown: in
// full for the development account, whose key is public and documented
// (so the string works when pasted), and with "<the account key>" in place
// of any other key.
func (i *Instance) PrintableConnectionString() string {
	if i.account == DevAccount && encodeKey(i.key) == DevKey {
		return i.ConnectionString()
	}
	return strings.Replace(i.ConnectionString(), encodeKey(i.key), "<the account key>", 1)
}

// PrintableConnectionStrings are PrintableConnectionString for each
// account the instance serves, in the order of Config.Accounts.
func (i *Instance) PrintableConnectionStrings() []string {
	var out []string
	for _, s := range i.servers {
		url := s.scheme + "://" + i.Addr() + "/" + s.account
		key := encodeKey(s.key)
		if s.account != DevAccount || key != DevKey {
			key = "<the account key>"
		}
		out = append(out, "DefaultEndpointsProtocol="+s.scheme+";AccountName="+s.account+";AccountKey="+key+";TableEndpoint="+url+";")
	}
	return out
}

// Close stops the service, waiting for in-flight requests until ctx ends.
func (i *Instance) Close(ctx context.Context) error {
	err := i.srv.ShutdownWithContext(ctx)
	// Shutdown closes only the listeners Serve has registered: one that
	// Serve has not reached yet is closed here, or Serve would accept on
	// it for ever. Serve returns nil for a closed listener.
	i.ln.Close()
	if serr := <-i.done; serr != nil && err == nil {
		err = serr
	}
	for _, s := range i.servers {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}
