package httpfront

import (
	"net"
	"sync/atomic"
	"unsafe"
)

// addrTexts caches the text of peer addresses (net.Addr.String's), so a
// connection's address is written once, not at every request on it: a
// connection's net.Addr is one value for its life, the slot is chosen by
// its pointer, and a slot names the address it holds (which it keeps
// alive, so the pointer is not another address's while it is cached).
var addrTexts [256]atomic.Pointer[addrTextEntry]

type addrTextEntry struct {
	addr *net.TCPAddr
	text string
}

// addrText is a.String(), from the cache for a TCP address.
func addrText(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || tcp == nil {
		return a.String()
	}
	slot := &addrTexts[uint64(uintptr(unsafe.Pointer(tcp)))*0x9e3779b97f4a7c15>>56]
	if e := slot.Load(); e != nil && e.addr == tcp {
		return e.text
	}
	e := &addrTextEntry{tcp, tcp.String()}
	slot.Store(e)
	return e.text
}
