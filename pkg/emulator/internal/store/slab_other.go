//go:build !unix

package store

// mapChunk returns nil: chunks come from the Go heap on this system.
func mapChunk(int) []byte { return nil }

// unmapChunk is never called with memory mapChunk returned.
func unmapChunk([]byte) {}
