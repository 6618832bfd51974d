package model

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a clock the test advances; safe for concurrent use.
type fakeClock struct {
	base time.Time
	ns   atomic.Int64
}

func newClock() *fakeClock {
	return &fakeClock{base: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time       { return c.base.Add(time.Duration(c.ns.Load())) }
func (c *fakeClock) add(d time.Duration)  { c.ns.Add(int64(d)) }
func (c *fakeClock) since() time.Duration { return time.Duration(c.ns.Load()) }

// outcome is one request's decision and when it was made (since the start).
type outcome struct {
	at time.Duration
	d  Decision
	n  int // entities of the request
}

// run offers rate requests per second, evenly spaced, for d, built by req
// from the request's index, and returns every decision.
func run(m *Model, c *fakeClock, rate int, d time.Duration, req func(i int) Request) []outcome {
	step := time.Second / time.Duration(rate)
	total := int(d / step)
	out := make([]outcome, 0, total)
	for i := range total {
		r := req(i)
		out = append(out, outcome{at: c.since(), d: m.Admit(r), n: r.Entities})
		c.add(step)
	}
	return out
}

// perSecond returns the entities admitted in each whole second of outs,
// counted from from.
func perSecond(outs []outcome, from time.Duration, secs int) []int {
	per := make([]int, secs)
	for _, o := range outs {
		s := int((o.at - from) / time.Second)
		if o.at >= from && s < secs && o.d.Allow {
			per[s] += o.n
		}
	}
	return per
}

// within fails unless got is want ± slack. The fake clock leaves one
// source of spread: run spaces requests by a whole number of nanoseconds
// (1e9/rate rounded down), so a second's window may hold one request more
// or less than rate; slack is that one request (its entities, where
// entities are counted).
func within(t *testing.T, what string, got, want, slack float64) {
	t.Helper()
	if got < want-slack || got > want+slack {
		t.Errorf("%s = %.0f, want %.0f ± %.0f", what, got, want, slack)
	}
}

// testConfig is Default with load balancing out of the way unless a test
// sets it.
func testConfig() Config {
	c := Default()
	c.BalanceDelay = time.Hour
	return c
}

// one returns a request builder for one PartitionKey.
func one(pk string, entities int) func(int) Request {
	return func(int) Request { return Request{Table: "t", Partition: pk, Entities: entities, Write: true} }
}

// keysOnServer returns n PartitionKeys of table t whose home server is srv.
func keysOnServer(m *Model, srv, n int) []string {
	var keys []string
	for i := 0; len(keys) < n; i++ {
		k := fmt.Sprintf("k%04d", i)
		if m.ServerOf("t", k) == srv {
			keys = append(keys, k)
		}
	}
	return keys
}

// isBusy reports whether d is the 503 ServerBusy answer with Azure's
// message for a partition or server.
func isBusy(d Decision) bool {
	return !d.Allow && d.Status == 503 && d.Code == "ServerBusy" && d.Message == MsgBusy
}
