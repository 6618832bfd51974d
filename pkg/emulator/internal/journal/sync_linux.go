package journal

import (
	"os"
	"syscall"
)

// datasync flushes the file's data (and the size that reads it) to the
// disk: fdatasync(2), which skips the times fsync(2) also writes.
func datasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
