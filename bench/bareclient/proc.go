package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times of /proc/PID/stat: Linux reports
// them in USER_HZ, 100 per second on every architecture (proc(5)).
const userHZ = 100

// processCPU is the CPU time (user + system) process pid has used, from
// /proc/PID/stat; 0 for pid 0.
func processCPU(pid int) (time.Duration, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("-server-pid: %w", err)
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields counted from 3 follow its last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("-server-pid: /proc/%d/stat has %d fields after the command, want at least 13", pid, len(f))
	}
	var ticks int64
	for _, v := range f[11:13] { // utime and stime, fields 14 and 15
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("-server-pid: /proc/%d/stat: %q is not a tick count", pid, v)
		}
		ticks += t
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
