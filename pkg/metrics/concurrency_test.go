package metrics

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// tally is what one worker knows it recorded.
type tally struct {
	c      Counts
	status map[string]int64
	ents   map[string]map[int32]int64 // partition -> second -> entities
}

func (w *tally) request(q Request) {
	w.c.request(&q)
	w.status[q.Outcome.Key()]++
	if n := servedEntities(&q); n > 0 {
		if w.ents[q.Partition] == nil {
			w.ents[q.Partition] = map[int32]int64{}
		}
		// The window ends at 6 s: later records count in second 5.
		w.ents[q.Partition][min(int32(q.At.Sub(t0)/time.Second), 5)] += n
	}
}

var mixOutcomes = []outcome.Outcome{ok200, ok201, ok202, busy, opTimedOut, exists, notFound, connReset}

// 32 workers record while another goroutine ticks (run under -race): the
// summary's totals, partitions, intervals, statuses and peaks are exactly
// the sums of what the workers recorded. Workers run at their own pace
// through 6 s of fake time, so seconds arrive late and out of order across
// workers; every 250 records a worker waits for a tick, so ticks interleave
// with recording whatever the scheduler does.
func TestConcurrentRecording(t *testing.T) {
	const workers, per = 32, 3000
	reg := NewRegistry(Options{Start: t0, End: t0.Add(6 * time.Second)})
	var ticks atomic.Int64
	stop := make(chan struct{})
	var ticker sync.WaitGroup
	ticker.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond): // pacing only; nothing depends on it
				reg.Tick(t0.Add(time.Duration(ticks.Load()) * 50 * time.Millisecond))
				reg.Live()
				ticks.Add(1)
			}
		}
	})
	tallies := make([]*tally, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tallies[w] = &tally{status: map[string]int64{}, ents: map[string]map[int32]int64{}}
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			rec, me := reg.NewRecorder(), tallies[w]
			for i := range per {
				if i%250 == 0 {
					for seen := ticks.Load(); ticks.Load() == seen; {
						time.Sleep(50 * time.Microsecond)
					}
				}
				now := t0.Add(time.Duration(i)*2*time.Millisecond + time.Duration(w)*100*time.Microsecond)
				op := Op(r.IntN(int(NumOps)))
				part := strconv.Itoa(r.IntN(40))
				if r.IntN(10) == 0 {
					part = CrossPartition
				}
				q := Request{Op: op, Partition: part, Outcome: mixOutcomes[r.IntN(len(mixOutcomes))], Entities: r.IntN(100),
					Retry: r.IntN(4) == 0, Page: r.IntN(5) == 0, At: now}
				rec.Request(q)
				me.request(q)
				ok := r.IntN(3) > 0
				start := now.Add(-min(time.Duration(r.IntN(5000))*time.Microsecond, now.Sub(t0))) // started in the measured window
				rec.Done(op, part, start, now, ok)
				me.c.done(ok, 0)
				if r.IntN(20) == 0 {
					rec.Dropped(op, now)
					me.c.Dropped++
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	ticker.Wait()
	s := reg.Finish(t0.Add(6 * time.Second))
	if len(s.Intervals) != 6 { // 6 s; the last workers' last records, past 6 s, count in second 5
		t.Errorf("%d intervals, want 6", len(s.Intervals))
	}
	checkSums(t, s, tallies)
}

// checkSums checks a summary against what the workers recorded.
func checkSums(t *testing.T, s *Summary, tallies []*tally) {

	var want Counts
	wantStatus := map[string]int64{}
	wantEnts := map[string]map[int32]int64{}
	for _, w := range tallies {
		want.Add(w.c)
		addMap(wantStatus, w.status)
		for p, secs := range w.ents {
			if wantEnts[p] == nil {
				wantEnts[p] = map[int32]int64{}
			}
			for sec, n := range secs {
				wantEnts[p][sec] += n
			}
		}
	}
	wantCounts := counts{want.Ops, want.Requests, want.Entities, want.Throttled, want.Errors, want.Failed, want.Dropped, want.Retries, want.Pages}
	if got := statsCounts(s.Totals); got != wantCounts || !equalMaps(s.Totals.Status, wantStatus) {
		t.Errorf("totals %v status %v\nwant   %v status %v", got, s.Totals.Status, wantCounts, wantStatus)
	}
	if s.Totals.Latency.TotalCount() != want.Ops-want.Failed {
		t.Errorf("latency histogram holds %d operations, want the %d answered", s.Totals.Latency.TotalCount(), want.Ops-want.Failed)
	}
	var ops, parts, ivs Counts
	for _, st := range s.Ops {
		ops.Add(Counts{Ops: st.Ops, Requests: st.Requests, Entities: st.Entities, Dropped: st.Dropped})
	}
	for _, p := range s.Partitions {
		parts.Add(Counts{Ops: p.Ops, Requests: p.Requests, Entities: p.Entities})
		peak := int64(0)
		for _, n := range wantEnts[p.Key] {
			peak = max(peak, n)
		}
		if p.Peak != peak || !p.PeakExact || sum(p.Status) != p.Requests {
			t.Errorf("partition %q: peak %d exact %v, want %d", p.Key, p.Peak, p.PeakExact, peak)
		}
	}
	for _, iv := range s.Intervals {
		ivs.Add(Counts{Ops: iv.Ops, Requests: iv.Requests, Entities: iv.Entities, Dropped: iv.Dropped})
	}
	for name, c := range map[string]Counts{"operations": ops, "partitions": parts, "intervals": ivs} {
		if c.Ops != want.Ops || c.Requests != want.Requests || c.Entities != want.Entities || (name != "partitions" && c.Dropped != want.Dropped) {
			t.Errorf("%s sum to %+v, want %+v", name, c, want)
		}
	}
}

// Recorders made one after the other never share a cache line: two workers
// recording at once on two cores would pass it back and forth on every
// record.
func TestRecordersOwnTheirCacheLines(t *testing.T) {
	const line = 64
	reg := NewRegistry(Options{Start: t0})
	owner := map[uintptr]int{}
	for i := range 64 {
		rec := reg.NewRecorder()
		from := uintptr(unsafe.Pointer(rec))
		for l := from / line; l <= (from+unsafe.Sizeof(*rec)-1)/line; l++ {
			if j, ok := owner[l]; ok {
				t.Fatalf("recorders %d and %d share the cache line at %#x (a recorder is %d bytes)", j, i, l*line, unsafe.Sizeof(*rec))
			}
			owner[l] = i
		}
	}
}
