//go:build !linux

package journal

import "os"

// datasync flushes the file to the disk.
func datasync(f *os.File) error { return f.Sync() }
