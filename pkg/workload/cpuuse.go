package workload

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// CPUUse is the CPU time used over a run's measured window: by this
// process (the client, and the embedded service when it runs in the same
// process) and by the whole machine (every process), so a report can say
// when the client ran out of CPU.
type CPUUse struct {
	// Process is this process's CPU time, user and system.
	Process time.Duration
	// Wall is the window's length on the system clock.
	Wall time.Duration
	// Cores is the CPUs this process may use at once (GOMAXPROCS).
	Cores int
	// MachineBusy is the share of the machine's CPU time that was busy
	// (any process), from /proc/stat; -1 where it cannot be read.
	MachineBusy float64
}

// cpuSample is the CPU time used so far, at an instant.
type cpuSample struct {
	at          time.Time
	process     time.Duration
	busy, total uint64 // the machine's, in clock ticks; total 0: unknown
}

// sampleCPU reads the CPU time used so far.
func sampleCPU() cpuSample {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	s := cpuSample{at: time.Now(), process: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
	s.busy, s.total = machineTicks()
	return s
}

// since is the CPU used from s to now.
func (s cpuSample) since(now cpuSample) CPUUse {
	u := CPUUse{Process: now.process - s.process, Wall: now.at.Sub(s.at), Cores: runtime.GOMAXPROCS(0), MachineBusy: -1}
	if s.total > 0 && now.total > s.total {
		u.MachineBusy = float64(now.busy-s.busy) / float64(now.total-s.total)
	}
	return u
}

// machineTicks reads the machine's busy and total CPU time from
// /proc/stat; 0, 0 where it cannot.
func machineTicks() (busy, total uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return statTicks(line)
}

// statTicks reads the first line of /proc/stat, "cpu user nice system
// idle iowait irq softirq steal [guest guest_nice]" in clock ticks: idle
// and iowait are not busy, guest time is already in user. 0, 0 for a
// line of another form.
func statTicks(line []byte) (busy, total uint64) {
	f := bytes.Fields(line)
	if len(f) < 5 || string(f[0]) != "cpu" {
		return 0, 0
	}
	for i, v := range f[1:min(len(f), 9)] {
		n, err := strconv.ParseUint(string(v), 10, 64)
		if err != nil {
			return 0, 0
		}
		total += n
		if i != 3 && i != 4 {
			busy += n
		}
	}
	return busy, total
}
