package soak

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/workload"
)

// point is one sample of the soak: after two collections (which also
// empty sync.Pools), the live heap and its objects, the goroutines, the
// requests the service has answered and the rows it stores.
type point struct {
	at             time.Duration
	requests, rows float64
	objects, bytes float64
	goroutines     int
}

// measure takes a sample of the process, which runs the client and the
// service in.
func measure(in *emulator.Instance, name string, since time.Time) point {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p := point{at: time.Since(since), objects: float64(ms.HeapObjects), bytes: float64(ms.HeapAlloc), goroutines: runtime.NumGoroutine()}
	if tb := in.Stats().Tables[name]; tb != nil {
		p.rows = float64(tb.Rows)
		for _, part := range tb.Partitions {
			for _, n := range part.Requests {
				p.requests += float64(n)
			}
		}
	}
	return p
}

// Allowances: what may grow with the work and the run's length. The
// report's one-second intervals cost about 550 bytes a second once sealed
// (BenchmarkSecondMemory), and each of the 16 partitions' series of
// one-second counts adds an entry of 16 bytes a second (32 with the
// slice's spare capacity) until its 240 bins are full, 4 minutes in:
// 1,536 bytes a second. One object and 16 bytes per 20 requests allow for
// maps that settle, and catch a leak of anything kept per request.
const (
	objectsPerRequest = 0.05
	bytesPerRequest   = 0.8
	objectsPerSecond  = 20
	bytesPerSecond    = 1024 + 16*32
)

// TestMemoryDoesNotGrow runs bench/soak.sh's scenario (reads, queries,
// updates, upserts, inserts balanced by deletes) at 500 operations a second
// for two minutes against the embedded service in this process, and
// samples the process every 5 s from 20 s on. The stored data is factored
// out with the objects and bytes per row that seeding it cost in the same
// process. It fails when the live heap's objects or bytes grow with the
// requests served beyond the allowances, that is when the lower bound of
// the trend's confidence interval (fitTrend) is above them: a loaded
// machine, which serves fewer requests and samples with more of them in
// flight, widens the interval, never the verdict. It fails too when the
// goroutines of the last third of the samples outnumber the first third's
// by more than the workers.
func TestMemoryDoesNotGrow(t *testing.T) {
	src, err := os.ReadFile("../../bench/scenarios/soak.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// 16 devices, not 200: each partition's one-second series (bounded at
	// 240 bins, so growing through a two-minute run) then adds 16 entries
	// a second.
	src = bytes.Replace(src, []byte("count: 200,"), []byte("count: 16,"), 1)
	if !bytes.Contains(src, []byte("count: 16,")) {
		t.Fatal("bench/scenarios/soak.yaml no longer has 200 devices: update this test")
	}
	sc, errs := scenario.Parse("soak.yaml", src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rate := 500.0
	sp, err := plan.Build(sc, src, plan.Overrides{Duration: 2 * time.Minute, Rate: &rate})
	if err != nil {
		t.Fatal(err)
	}
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	tg, _ := table.ParseTarget(in.ConnectionString())
	svc, err := table.Open(tg, table.Options{Workers: sp.Workers, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	const name = "soak"
	start := time.Now()
	empty := measure(in, name, start)
	var seeded point
	var samples []point
	done := make(chan struct{})
	sampled := make(chan struct{})
	c := workload.Config{Spec: sp, Service: workload.TableService{Service: svc, Measured: in}, Table: name}
	c.Events.Phase = func(p workload.Phase) {
		if p != workload.PhaseRun {
			return
		}
		seeded = measure(in, name, start)
		go func() { // samples from 20 s into the run on
			defer close(sampled)
			tick := time.NewTicker(5 * time.Second)
			defer tick.Stop()
			for k := 1; ; k++ {
				select {
				case <-done:
					return
				case <-tick.C:
					if k >= 4 {
						samples = append(samples, measure(in, name, start))
					}
				}
			}
		}()
	}
	res, err := workload.Run(context.Background(), c)
	close(done)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	perRowObjects := (seeded.objects - empty.objects) / seeded.rows
	perRowBytes := (seeded.bytes - empty.bytes) / seeded.rows
	t.Logf("seeding %.0f rows took %.2f objects and %.0f bytes of live heap each; %d operations, %d dropped",
		seeded.rows, perRowObjects, perRowBytes, res.Summary.Totals.Ops, res.Summary.Totals.Dropped)
	checkGrowth(t, samples, perRowObjects, perRowBytes, sp.Workers)
}

// checkGrowth fails on growth the stored rows and the run's length do not
// explain (see TestMemoryDoesNotGrow).
func checkGrowth(t *testing.T, samples []point, perRowObjects, perRowBytes float64, workers int) {
	t.Helper()
	if len(samples) < 15 {
		t.Fatalf("%d samples, want at least 15 (every 5 s from 20 s to 120 s)", len(samples))
	}
	req, objects, bytes := make([]float64, len(samples)), make([]float64, len(samples)), make([]float64, len(samples))
	for i, p := range samples {
		t.Logf("%5.0fs  %7.0f requests  %6.0f rows  %7.0f heap objects  %9.0f heap bytes  %d goroutines", p.at.Seconds(), p.requests, p.rows, p.objects, p.bytes, p.goroutines)
		req[i] = p.requests
		objects[i] = p.objects - perRowObjects*p.rows
		bytes[i] = p.bytes - perRowBytes*p.rows
	}
	first, last := samples[0], samples[len(samples)-1]
	perSecond := (last.requests - first.requests) / (last.at - first.at).Seconds() // requests a second
	if perSecond <= 0 {
		t.Fatalf("no request served between %v and %v", first.at, last.at)
	}
	fo, fb := fitTrend(req, objects), fitTrend(req, bytes)
	t.Logf("beyond the stored rows, per request: heap objects %.4f (%.4f to %.4f), heap bytes %.2f (%.2f to %.2f)", fo.slope, fo.lo, fo.hi, fb.slope, fb.lo, fb.hi)
	if f, allowed := fo, objectsPerRequest+objectsPerSecond/perSecond; f.grows(allowed) {
		t.Errorf("heap objects grow by %.3f (%.3f to %.3f) per request beyond the stored rows, over the %.3f allowed", f.slope, f.lo, f.hi, allowed)
	}
	if f, allowed := fb, bytesPerRequest+bytesPerSecond/perSecond; f.grows(allowed) {
		t.Errorf("the live heap grows by %.1f (%.1f to %.1f) bytes per request beyond the stored rows, over the %.1f allowed", f.slope, f.lo, f.hi, allowed)
	}
	third := len(samples) / 3
	most := func(ps []point) int {
		return slices.MaxFunc(ps, func(a, b point) int { return a.goroutines - b.goroutines }).goroutines
	}
	if a, b := most(samples[:third]), most(samples[len(samples)-third:]); b > a+workers {
		t.Errorf("goroutines grew from at most %d to %d, more than the %d workers", a, b, workers)
	}
}
