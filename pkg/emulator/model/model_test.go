package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// clock is a fake clock advanced by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

// offer sends rate single-entity requests per second for secs seconds,
// spread evenly, and returns the entities admitted in each second.
func offer(m *Model, c *clock, rate, secs int, req func(i int) Request) []int {
	per := make([]int, secs)
	step := time.Second / time.Duration(rate)
	i := 0
	for s := 0; s < secs; s++ {
		for k := 0; k < rate; k++ {
			r := req(i)
			if m.Admit(r).Allow {
				per[s] += r.Entities
			}
			i++
			c.add(step)
		}
	}
	return per
}

func quiet() Config {
	c := Default()
	c.BalanceDelay = time.Hour // no load balancing unless a test wants it
	return c
}

func TestHotPartitionCappedAtTarget(t *testing.T) {
	c := newClock()
	m := New(quiet(), c.now)
	per := offer(m, c, 6000, 10, func(int) Request { return Request{Table: "t", Partition: "Orders", Entities: 1, Write: true} })
	for s, n := range per[1:] { // the first second includes the initial burst
		if math.Abs(float64(n)-2000) > 200 {
			t.Errorf("second %d: %d entities admitted, want 2000 ± 10%%", s+1, n)
		}
	}
}

func TestSpreadPartitionsNotThrottled(t *testing.T) {
	c := newClock()
	m := New(quiet(), c.now)
	per := offer(m, c, 6000, 5, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("partition-%03d", i%16), Entities: 1, Write: true}
	})
	for s, n := range per {
		if n != 6000 {
			t.Errorf("second %d: %d of 6000 admitted over 16 partitions", s, n)
		}
	}
}

func TestAppendOnlyCappedScatteredNot(t *testing.T) {
	c := newClock()
	m := New(quiet(), c.now)
	per := offer(m, c, 6000, 6, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("%010d", i), Entities: 1, Write: true, Extends: +1}
	})
	for s, n := range per[1:] {
		if math.Abs(float64(n)-2000) > 200 {
			t.Errorf("append-only second %d: %d admitted, want about 2000", s+1, n)
		}
	}
	c2 := newClock()
	m2 := New(quiet(), c2.now)
	per = offer(m2, c2, 6000, 6, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15), Entities: 1, Write: true}
	})
	for s, n := range per {
		if n != 6000 {
			t.Errorf("scattered second %d: %d of 6000 admitted", s, n)
		}
	}
	c3 := newClock()
	m3 := New(quiet(), c3.now)
	per = offer(m3, c3, 6000, 4, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("%010d", 1_000_000-i), Entities: 1, Write: true, Extends: -1}
	})
	if n := per[2]; math.Abs(float64(n)-2000) > 200 {
		t.Errorf("prepend-only: %d admitted, want about 2000", n)
	}
}

func TestAccountTarget(t *testing.T) {
	c := newClock()
	cfg := quiet()
	cfg.ServerTarget = 1e9
	m := New(cfg, c.now)
	refusedAccount := 0
	per := make([]int, 3)
	for s := 0; s < 3; s++ {
		for k := 0; k < 25000; k++ {
			d := m.Admit(Request{Table: "t", Partition: fmt.Sprintf("p%d", k%5000), Entities: 1})
			if d.Allow {
				per[s]++
			} else if d.Message == MsgAccount {
				refusedAccount++
			}
			c.add(time.Second / 25000)
		}
	}
	if math.Abs(float64(per[2])-20000) > 1000 || refusedAccount == 0 {
		t.Errorf("account: %d admitted in second 2, %d refused over the account limit", per[2], refusedAccount)
	}
}

func TestTimeoutShare(t *testing.T) {
	c := newClock()
	m := New(quiet(), c.now)
	busy, timeouts := 0, 0
	for k := 0; k < 20000; k++ {
		d := m.Admit(Request{Table: "t", Partition: "p", Entities: 1})
		switch {
		case d.Status == 503 && d.Code == "ServerBusy":
			busy++
		case d.Status == 500 && d.Code == "OperationTimedOut" && d.Message == MsgTimeout:
			timeouts++
		}
	}
	if total := busy + timeouts; total == 0 || math.Abs(float64(timeouts)/float64(total)-0.1) > 0.01 {
		t.Errorf("%d ServerBusy, %d OperationTimedOut: want 10%% timeouts", busy, timeouts)
	}
}

func TestHotPartitionMovesAndGoesOffline(t *testing.T) {
	c := newClock()
	cfg := Default()
	cfg.BalanceDelay, cfg.MoveOffline = 5*time.Second, 2*time.Second
	m := New(cfg, c.now)
	per := offer(m, c, 4000, 12, func(int) Request { return Request{Table: "t", Partition: "hot", Entities: 1} })
	// Hot for 5 s, then offline for 2 s (nothing admitted), then back at the target.
	offline := 0
	for _, n := range per {
		if n == 0 {
			offline++
		}
	}
	if offline < 1 || offline > 3 || m.State().Moves != 1 {
		t.Errorf("admitted per second %v: want a 2 s gap after 5 s (moves %d)", per, m.State().Moves)
	}
	if last := per[len(per)-1]; math.Abs(float64(last)-2000) > 200 {
		t.Errorf("after the move: %d per second, want the same 2000 target", last)
	}
}

func TestHotServerMovesItsHottestPartition(t *testing.T) {
	c := newClock()
	cfg := Default()
	cfg.Servers, cfg.ServerTarget = 2, 3000
	cfg.BalanceDelay, cfg.MoveOffline = 2*time.Second, time.Second
	m := New(cfg, c.now)
	// Find three partitions on server 0 of 2.
	var keys []string
	for i := 0; len(keys) < 3; i++ {
		k := fmt.Sprintf("k%d", i)
		if hash("t", k)%2 == 0 {
			keys = append(keys, k)
		}
	}
	offer(m, c, 4500, 6, func(i int) Request { return Request{Table: "t", Partition: keys[i%3], Entities: 1} })
	st := m.State()
	if st.Moves < 1 {
		t.Fatalf("no move: %+v", st)
	}
	moved := 0
	for _, p := range st.HotPartitions {
		if p.Server == 1 {
			moved++
		}
	}
	if moved < 1 {
		t.Errorf("no partition moved to the idle server: %+v", st.HotPartitions)
	}
}

func TestChargePutsBucketInDebt(t *testing.T) {
	c := newClock()
	m := New(quiet(), c.now)
	if !m.Admit(Request{Table: "t", Partition: "p"}).Allow {
		t.Fatal("a query on an idle partition must be admitted")
	}
	m.Charge("t", "p", 3000) // the query returned 3,000 entities
	if m.Admit(Request{Table: "t", Partition: "p", Entities: 1}).Allow {
		t.Error("a partition in debt must refuse")
	}
	c.add(1500 * time.Millisecond) // 3,000 - 200 burst = 2,800 of debt at 2,000/s
	if !m.Admit(Request{Table: "t", Partition: "p", Entities: 1}).Allow {
		t.Error("the debt should have been repaid")
	}
}

func TestOffAdmitsEverything(t *testing.T) {
	c := newClock()
	m := New(Off(), c.now)
	for k := 0; k < 100000; k++ {
		if !m.Admit(Request{Table: "t", Partition: "p", Entities: 100, Extends: 1}).Allow {
			t.Fatal("the model is off")
		}
	}
}

func TestParse(t *testing.T) {
	c, err := Parse("azure,partition=500,balance=10s,timeouts=20%,servers=4")
	if err != nil || c.PartitionTarget != 500 || c.BalanceDelay != 10*time.Second || c.TimeoutShare != 0.2 || c.Servers != 4 || !c.Enabled {
		t.Errorf("Parse = %+v, %v", c, err)
	}
	again, err := Parse(c.String())
	if err != nil || again != c {
		t.Errorf("round trip: %+v %v", again, err)
	}
	if c, err := Parse("off"); err != nil || c.Enabled {
		t.Errorf("off: %+v %v", c, err)
	}
	for spec, want := range map[string]string{
		"fast":               "start with azure or off",
		"azure,partition":    "is not key=value",
		"azure,partition=-1": "positive number",
		"azure,balance=soon": "a duration",
		"azure,timeouts=0.1": "a percentage",
		"azure,servers=2.5":  "whole number",
		"azure,color=red":    `unknown key "color"`,
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", spec, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("azure,partition=2000,balance=1s")
	f.Add("off")
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := Parse(spec)
		if err != nil {
			return
		}
		if again, err := Parse(c.String()); err != nil || again != c {
			t.Fatalf("%q: round trip %+v != %+v (%v)", spec, again, c, err)
		}
	})
}

func BenchmarkAdmitOnePartition(b *testing.B) {
	m := New(Off(), nil)
	m.cfg.Enabled = true
	m.cfg.PartitionTarget = 1e12
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Admit(Request{Table: "t", Partition: "p", Entities: 1})
		}
	})
}

func BenchmarkAdmit100kPartitions(b *testing.B) {
	m := New(Default(), nil)
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = fmt.Sprintf("p%06d", i)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.Admit(Request{Table: "t", Partition: keys[i%len(keys)], Entities: 1})
			i += 7
		}
	})
}
