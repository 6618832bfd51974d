//go:build unix

package store

import "syscall"

// mapChunk returns n bytes of zeroed memory outside the Go heap, or nil
// when the system refuses (the caller then takes them from the heap). The
// garbage collector neither scans nor counts such memory: a table of ten
// million rows costs it nothing, and GOGC paces the collector by the
// process's own garbage, not by the stored data. The pages are faulted in
// at once where the system can (mapPopulate), which costs a fraction of
// faulting them one by one as records fill them.
func mapChunk(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapPopulate)
	if err != nil {
		return nil
	}
	return b
}

// unmapChunk returns memory mapChunk gave back to the system.
func unmapChunk(b []byte) { _ = syscall.Munmap(b) }
