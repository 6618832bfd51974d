package model

import (
	"fmt"
	"testing"
	"time"
)

// The service time of each kind of request, by the formula on Latency,
// with Azure's defaults and no load: exact to the nanosecond.
func TestServiceTime(t *testing.T) {
	const kib = 20 * time.Microsecond
	tests := []struct {
		name string
		w    Work
		want time.Duration
	}{
		{"point read of a 1 KiB entity", Work{Op: OpRead, Entities: 1, Bytes: 1024}, 5*time.Millisecond + 50*time.Microsecond + kib},
		{"insert of a 2 KiB entity", Work{Op: OpWrite, Entities: 1, Bytes: 2048}, 10*time.Millisecond + 50*time.Microsecond + 2*kib},
		{"delete", Work{Op: OpDelete, Entities: 1}, 10*time.Millisecond + 50*time.Microsecond},
		{"transaction of 100, 50 KiB", Work{Op: OpBatch, Entities: 100, Bytes: 50 << 10}, 10*time.Millisecond + 100*50*time.Microsecond + 50*kib},
		{"query page visiting 1,000 and returning 10 (5 KiB)", Work{Op: OpQuery, Visited: 1000, Bytes: 5 << 10}, 5*time.Millisecond + 1000*50*time.Microsecond + 5*kib},
		{"query page visiting nothing", Work{Op: OpQuery}, 5 * time.Millisecond},
		{"refused read: its base alone", Work{Op: OpRead, Entities: 1, Bytes: 1 << 20, Refused: true}, 5 * time.Millisecond},
		{"refused transaction: its base alone", Work{Op: OpBatch, Entities: 100, Refused: true}, 10 * time.Millisecond},
		{"read at its target: ρ = 0.5, M/M/1 adds one base", Work{Op: OpRead, Load: 1}, 10 * time.Millisecond},
		{"write at 1.5 times its target (in debt): ρ = 0.75, three bases more", Work{Op: OpWrite, Load: 1.5}, 40 * time.Millisecond},
		{"read at 0.8 of its target: ρ = 0.4, two thirds of a base", Work{Op: OpRead, Load: 0.8}, 5*time.Millisecond + 3333333},
		{"read at four times the target: ρ capped at 0.95, 19 bases more", Work{Op: OpRead, Load: 4}, 100 * time.Millisecond},
	}
	m := New(Default(), newClock().now)
	for _, tt := range tests {
		if got := m.ServiceTime(tt.w); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// No service time with the latency model off, the whole model off, or
// the model paused (a run's seed phase); Cosmos DB has its own bases and
// no queueing.
func TestServiceTimeSwitches(t *testing.T) {
	read := Work{Op: OpRead, Entities: 1, Load: 1}
	noLatency := Default()
	noLatency.Latency.On = false
	paused := New(Default(), nil)
	paused.SetPaused(true)
	tests := []struct {
		name string
		m    *Model
		want time.Duration
	}{
		{"azure", New(Default(), nil), 10*time.Millisecond + 50*time.Microsecond},
		{"azure,latency=off", New(noLatency, nil), 0},
		{"off", New(Off(), nil), 0},
		{"paused", paused, 0},
		{"cosmos: 3 ms, no queueing", New(CosmosDefault(), nil), 3*time.Millisecond + 50*time.Microsecond},
	}
	for _, tt := range tests {
		if got := tt.m.ServiceTime(read); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Admit reports how busy what judged the request is, so the same point
// read takes longer as its partition, or its server, nears its target:
// 2,000 entities/s on a 2,000 target (ρ = 0.5) doubles a read's base, and
// the server's load counts when it is the busier.
func TestLoadRaisesLatency(t *testing.T) {
	t.Run("partition", func(t *testing.T) {
		c := newClock()
		m := New(testConfig(), c.now)
		run(m, c, 2000, time.Second, one("p", 1)) // 2,000 in the first second
		d := m.Admit(Request{Table: "t", Partition: "p", Op: OpRead, Entities: 1})
		if !d.Allow || d.Load != 1 {
			t.Fatalf("at 2,000 entities/s: %+v, want admitted at load 1", d)
		}
		if got, want := m.ServiceTime(Work{Op: OpRead, Entities: 1, Load: d.Load}), 10*time.Millisecond+50*time.Microsecond; got != want {
			t.Errorf("point read at the target: %v, want %v", got, want)
		}
	})
	t.Run("server", func(t *testing.T) {
		c := newClock()
		cfg := testConfig()
		cfg.Servers = 1 // every partition on one server of 10,000/s
		m := New(cfg, c.now)
		run(m, c, 7500, time.Second, func(i int) Request { // 7,500/s over 10 partitions: 750 each
			return Request{Table: "t", Partition: fmt.Sprint(i % 10), Entities: 1}
		})
		d := m.Admit(Request{Table: "t", Partition: "quiet", Op: OpRead, Entities: 1})
		if !d.Allow || d.Load != 0.75 {
			t.Fatalf("a quiet partition on a server at 7,500/s: %+v, want load 0.75", d)
		}
	})
	t.Run("end range", func(t *testing.T) {
		c := newClock()
		m := New(testConfig(), c.now)
		run(m, c, 1500, time.Second, func(i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%010d", i), Entities: 1, Extends: +1}
		})
		d := m.Admit(Request{Table: "t", Partition: "9999999999", Entities: 1, Extends: +1})
		if !d.Allow || d.Load != 0.75 {
			t.Fatalf("append-only insert with its end range at 1,500/s: %+v, want load 0.75", d)
		}
	})
}

// A page may visit what five seconds of execution allow.
func TestPageVisits(t *testing.T) {
	if got := New(Default(), nil).PageVisits(); got != 100_000 {
		t.Errorf("default: %d, want 100,000", got)
	}
	c := Default()
	c.Latency.Entity = time.Millisecond
	if got := New(c, nil).PageVisits(); got != 5000 {
		t.Errorf("entity=1ms: %d, want 5,000", got)
	}
}
