package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPolicy is how the garbage collector runs in a tablestress process
// unless the user set GOGC or GOMEMLIMIT (theirs then win, untouched).
//
// A load generator's live heap is small (histograms, per-second series,
// the key space: tens of MiB) while its garbage per operation is fixed by
// the SDK (kilobytes for every point read). With the default GOGC of 100 the
// collector then runs every few milliseconds and its marking costs a
// tenth of the client's CPU; at 400 it runs a quarter as often, for a
// heap of a few hundred MiB. A process that hosts the embedded Table
// service keeps 100: its live heap is the table, and 400 would let the
// heap grow to five times the data. Either way a memory limit of half the
// memory this process may use (the cgroup's limit, else the machine's)
// makes the collector work harder before the heap takes more than that.
type gcPolicy struct {
	Percent int   // GOGC
	Limit   int64 // bytes; 0: none
}

// gcFor returns the policy for a process that hosts the embedded service
// or not, given the memory it may use (0: unknown). ok is false when the
// user's GOGC or GOMEMLIMIT is set: the runtime already follows them.
func gcFor(getenv func(string) string, hostsService bool, memory int64) (p gcPolicy, ok bool) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return gcPolicy{}, false
	}
	p.Percent = 400
	if hostsService {
		p.Percent = 100
	}
	if memory > 0 {
		p.Limit = memory / 2
	}
	return p, true
}

// applyGC sets the policy for this process (see gcPolicy).
func applyGC(getenv func(string) string, hostsService bool) {
	p, ok := gcFor(getenv, hostsService, memoryAvailable())
	if !ok {
		return
	}
	debug.SetGCPercent(p.Percent)
	if p.Limit > 0 {
		debug.SetMemoryLimit(p.Limit)
	}
}

// memoryAvailable is the memory this process may use: its cgroup's limit
// (cgroup v2 memory.max) when there is one, else the machine's MemTotal;
// 0 when neither can be read.
func memoryAvailable() int64 {
	mem := readMemTotal("/proc/meminfo")
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (mem == 0 || v < mem) {
			return v
		}
	}
	return mem
}

// readMemTotal returns the MemTotal line of a /proc/meminfo file in bytes,
// or 0.
func readMemTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kib, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kib << 10
		}
	}
	return 0
}
