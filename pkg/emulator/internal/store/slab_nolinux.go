//go:build unix && !linux

package store

// mapPopulate is no flag: mmap has no MAP_POPULATE here.
const mapPopulate = 0
