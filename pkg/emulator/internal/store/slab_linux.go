package store

import "syscall"

// mapPopulate makes mmap fault a chunk's pages in at once (4 KiB pages one
// by one cost about five times as much on a virtual machine; see
// mapChunk).
const mapPopulate = syscall.MAP_POPULATE
