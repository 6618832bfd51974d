package httpfront

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
)

// holdingHandler answers once released; it tells arrived of each request,
// watches the in-process client (ClientGone) when asked, and counts the
// requests it finished.
type holdingHandler struct {
	arrived  chan struct{}
	release  chan struct{}
	finished atomic.Int64
	ended    chan struct{} // told of each request finished
}

func newHoldingHandler() *holdingHandler {
	return &holdingHandler{arrived: make(chan struct{}, 1), release: make(chan struct{}), ended: make(chan struct{}, 1)}
}

func (h *holdingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.arrived <- struct{}{}
	select {
	case <-h.release:
	case <-ClientGone(r.Context()):
	}
	h.finished.Add(1)
	h.ended <- struct{}{}
	w.WriteHeader(http.StatusNoContent)
}

// TestInProcessClientLeaves: a client whose context ends while the
// handler holds its answer gets context.Cause of it at once, as net/http
// returns over a socket, and the handler goes on to its end (the socket
// front never tells it the client left): detached, the handler is still
// holding when the client has its error; on the client's goroutine, it
// learns of it through ClientGone. A context ended before the request
// sends nothing.
func TestInProcessClientLeaves(t *testing.T) {
	type way struct {
		name   string
		send   func(h *holdingHandler, r *http.Request) (*http.Response, error)
		holds  bool // the handler is still holding when the client has its error
		closer func()
	}
	base := ""
	ways := func(h *holdingHandler) []way {
		addr := serveFastOn(t, h)
		base = "http://" + addr
		tr := &http.Transport{}
		detached := NewInProcess(h, func() bool { return true })
		inline := NewInProcess(h, nil)
		return []way{
			{"socket", func(_ *holdingHandler, r *http.Request) (*http.Response, error) { return tr.RoundTrip(r) }, true, tr.CloseIdleConnections},
			{"detached", func(_ *holdingHandler, r *http.Request) (*http.Response, error) { return detached.RoundTrip(r) }, true,
				func() { detached.Close(context.Background()) }},
			{"on the client's goroutine", func(_ *holdingHandler, r *http.Request) (*http.Response, error) { return inline.RoundTrip(r) }, false,
				func() { inline.Close(context.Background()) }},
		}
	}
	h := newHoldingHandler()
	var want string
	for _, w := range ways(h) {
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() { <-h.arrived; cancel(context.DeadlineExceeded) }()
		resp, err := w.send(h, clientRequest("GET", base+"/x", nil, 0, nil, nil).WithContext(ctx))
		got := dumpResponse(resp, err)
		if w.name == "socket" {
			want = got
		} else if got != want {
			t.Errorf("%s: %s, want (socket) %s", w.name, got, want)
		}
		if err == nil || err != context.DeadlineExceeded {
			t.Errorf("%s: %v, want the context's cause", w.name, err)
		}
		before := h.finished.Load()
		if holding := before == 0; holding != w.holds {
			t.Errorf("%s: the handler still holding when the client left: %v, want %v", w.name, holding, w.holds)
		}
		close(h.release)
		<-h.ended
		h.release = make(chan struct{})
		h.finished.Store(0)
		ctx, cancel2 := context.WithCancel(context.Background())
		cancel2()
		_, err = w.send(h, clientRequest("GET", base+"/x", nil, 0, nil, nil).WithContext(ctx))
		if err != context.Canceled {
			t.Errorf("%s, a context ended before: %v, want context.Canceled", w.name, err)
		}
		w.closer()
	}
}

// TestInProcessClose: Close ends the context of the handlers in flight,
// as the socket front's shutdown does, and later requests are refused as
// a stopped service's address refuses them.
func TestInProcessClose(t *testing.T) {
	held, arrived := make(chan error, 1), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
		held <- r.Context().Err()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	in := NewInProcess(h, func() bool { return true })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go in.RoundTrip(clientRequest("GET", base+"/x", nil, 0, nil, nil).WithContext(ctx))
	<-arrived
	if err := in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-held; err == nil {
		t.Error("the handler's context ended without an error")
	}
	_, gotErr := in.RoundTrip(clientRequest("GET", base+"/x", nil, 0, nil, nil))
	_, wantErr := (&http.Transport{}).RoundTrip(clientRequest("GET", base+"/x", nil, 0, nil, nil))
	if gotErr == nil || wantErr == nil || gotErr.Error() != wantErr.Error() {
		t.Errorf("after Close: %v, want (a stopped socket) %v", gotErr, wantErr)
	}
}
