package pipenet

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
)

// A dialled connection reaches the listener's Accept, both ways; once the
// listener is closed, Accept and Dial fail with net.ErrClosed.
func TestDialReachesAccept(t *testing.T) {
	l := Listen()
	done := make(chan error, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			_, err = io.Copy(c, io.LimitReader(c, 4))
			c.Close()
		}
		done <- err
	}()
	c, err := l.Dial(context.Background(), "tcp", "anywhere:1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q, %v", buf, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v", err)
	}
	if _, err := l.Dial(context.Background(), "tcp", "x"); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Dial after Close: %v", err)
	}
	if l.Addr().String() != "127.0.0.1:10002" {
		t.Errorf("Addr %v", l.Addr())
	}
}
