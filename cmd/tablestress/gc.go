package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// gcPolicy is how the garbage collector runs in a tablestress process
// unless the user set GOGC or GOMEMLIMIT (theirs then win, untouched).
//
// A load generator's live heap is small (histograms, per-second series,
// the key space: tens of MiB) while its garbage per operation is fixed by
// the SDK (kilobytes for every point read). With the default GOGC of 100 the
// collector then runs every few milliseconds and its marking costs a
// tenth of the client's CPU; at 400 it runs a quarter as often, for a
// heap of a few hundred MiB, and while the live heap is small its percent is
// raised so that the heap may grow by clientHeadroom between collections
// (a live heap of a few MiB at 400 would otherwise be marked every few
// tens of MiB of garbage, a few times a second). A process that hosts the
// embedded Table service keeps 100 as the least: the entities are outside
// the heap, but their B-tree (about 20 bytes per entity) is on it, and 400
// would let a table of ten million take a gigabyte more. Its percent is raised while
// the live heap is small, so that the heap may always grow by Headroom
// between collections (see gcPercentFor): a service answering from a small
// table otherwise collects every few megabytes of garbage, a tenth of its
// CPU. Either way a memory limit of half the memory this process may use
// (the cgroup's limit, else the machine's) makes the collector work harder
// before the heap takes more than that.
type gcPolicy struct {
	Percent  int   // GOGC, the least when Headroom > 0
	Limit    int64 // bytes; 0: none
	Headroom int64 // bytes the heap may grow by between collections, at least; 0: none
}

// clientHeadroom is the least a tablestress client (a process that does
// not host the service) lets its heap grow between collections.
const clientHeadroom = 512 << 20

// serviceHeadroom is the least a process hosting the embedded service lets
// its heap grow between collections. The SDK and the service in process
// allocate about 14 KiB for every point read of a 1 KiB entity, some
// 570 MB/s at 40,000 reads/s: 64 MiB had the collector mark the live heap
// about nine times a second, 8% of the CPU (bench/throughput.sh read).
const serviceHeadroom = 256 << 20

// maxGCPercent bounds the percent gcPercentFor raises to.
const maxGCPercent = 2000

// gcFor returns the policy for a process that hosts the embedded service
// or not, given the memory it may use (0: unknown). ok is false when the
// user's GOGC or GOMEMLIMIT is set: the runtime already follows them.
func gcFor(getenv func(string) string, hostsService bool, memory int64) (p gcPolicy, ok bool) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return gcPolicy{}, false
	}
	p.Percent, p.Headroom = 400, clientHeadroom
	if hostsService {
		p.Percent, p.Headroom = 100, serviceHeadroom
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
	gcTuner.least.Store(int64(p.Percent))
	gcTuner.headroom.Store(p.Headroom)
	gcTuner.hosts.Store(hostsService && p.Headroom > 0)
	if p.Headroom > 0 {
		gcTuner.once.Do(func() { go gcTuner.run(time.Second) })
	}
}

// gcPercentFor is the GOGC that lets a heap of live bytes grow by headroom
// before the next collection, and never less than least nor more than
// maxGCPercent (live 0: unknown, least).
func gcPercentFor(live, least, headroom int64) int64 {
	if headroom <= 0 || live <= 0 {
		return least
	}
	p := (headroom*100 + live - 1) / live
	return min(max(p, least), max(least, maxGCPercent))
}

// gcTune follows the live heap once a period and sets GOGC to
// gcPercentFor it, when that differs from the last setting by more than a
// tenth. One runs for the life of the process (gcTuner), started by the
// first policy with a headroom; a later policy without one (headroom 0)
// makes it set the least percent and keep it.
//
// hosts is set when the policy is a service host's (measure then raises
// the headroom while the run measures); kick makes the tuner follow a new
// headroom at once rather than at its next period.
type gcTune struct {
	once            sync.Once
	least, headroom atomic.Int64
	hosts           atomic.Bool
	kick            chan struct{}
}

var gcTuner = gcTune{kick: make(chan struct{}, 1)}

func (g *gcTune) run(period time.Duration) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	last := g.least.Load()
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-g.kick:
		}
		metrics.Read(sample)
		var live int64
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = int64(sample[0].Value.Uint64())
		}
		p := gcPercentFor(live, g.least.Load(), g.headroom.Load())
		if p*10 > last*11 || p*11 < last*10 {
			debug.SetGCPercent(int(p))
			last = p
		}
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
