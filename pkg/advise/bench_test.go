package advise

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// BenchmarkAdviseNotifications times the judgement alone (every candidate
// at the horizon, no proof) on the slowest ready scenario, as
// `tablestress advise scenarios/notifications.yaml --no-prove` runs it:
// ns/op is the wall time, cpu-ns/op the process's CPU time (user and
// system, every core), which a machine busy with other work inflates
// less than the wall time.
//
//	go test ./pkg/advise -run '^$' -bench AdviseNotifications -benchtime 1x
func BenchmarkAdviseNotifications(b *testing.B) {
	path := "../../scenarios/notifications.yaml"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime(b)
	for b.Loop() {
		sc, errs := scenario.Parse(path, src)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		in, err := Prepare(sc, Defaults())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := in.Advise(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
