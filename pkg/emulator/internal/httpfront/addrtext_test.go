package httpfront

import (
	"net"
	"testing"
)

// TestAddrText: addrText is the address's String, for TCP addresses (from
// the cache, however many share its slots) and others; a TCP address seen
// again is not written again.
func TestAddrText(t *testing.T) {
	addrs := make([]*net.TCPAddr, 2000) // more than the cache's slots: every slot is taken over
	for i := range addrs {
		addrs[i] = &net.TCPAddr{IP: net.IPv4(127, 0, byte(i>>8), byte(i)), Port: 1024 + i}
	}
	for round := range 3 {
		for i, a := range addrs {
			if got, want := addrText(a), a.String(); got != want {
				t.Fatalf("round %d, address %d: %q, want %q", round, i, got, want)
			}
		}
	}
	v6 := &net.TCPAddr{IP: net.ParseIP("::1"), Port: 80, Zone: ""}
	if got := addrText(v6); got != "[::1]:80" {
		t.Errorf("%q, want [::1]:80", got)
	}
	unix := &net.UnixAddr{Name: "/tmp/s", Net: "unix"}
	if got := addrText(unix); got != "/tmp/s" {
		t.Errorf("%q, want /tmp/s", got)
	}
	a := addrs[0]
	addrText(a)
	if n := testing.AllocsPerRun(100, func() { addrText(a) }); n != 0 {
		t.Errorf("%v allocations a call for an address just seen, want 0", n)
	}
}
