package model

import (
	"fmt"
	"testing"
	"time"
)

// Peaks are what the model admitted in its busiest aligned second: a
// partition offered three times its target peaks between the target and
// the target plus its bucket (2,000 to 2,200 entities, 50-entity
// transactions); an append-only end range likewise; a partition under its
// target peaks at what it was offered.
func TestPeaks(t *testing.T) {
	c := newClock()
	m := New(testConfig(), c.now)
	run(m, c, 120, 10*time.Second, func(i int) Request {
		switch i % 3 {
		case 0:
			return Request{Table: "t", Partition: "Orders", Entities: 50, Write: true}
		case 1:
			return Request{Table: "t", Partition: fmt.Sprintf("%010d", i), Entities: 100, Write: true, Extends: +1}
		}
		return Request{Table: "t", Partition: "quiet", Entities: 1, Write: true}
	})
	// Orders: 40 transactions of 50 a second offered, 2,000/s: at target.
	p := m.Peaks("t")
	if got := p.Partitions["Orders"]; got < 2000 || got > 2200 {
		t.Errorf("Orders peak %v, want 2,000 to 2,200", got)
	}
	// The end range: 40 inserts of 100 a second offered (4,000/s) against 2,000.
	if p.Last < 2000 || p.Last > 2200 || p.First != 0 {
		t.Errorf("end range peaks: last %v (want 2,000 to 2,200), first %v (want 0)", p.Last, p.First)
	}
	if got := p.Partitions["quiet"]; got != 40 {
		t.Errorf("quiet peak %v, want the 40 offered", got)
	}
	if got := m.Peaks("other"); len(got.Partitions) != 0 || got.Last != 0 {
		t.Errorf("another table: %+v", got)
	}
}

// A request that read the clock just before another one took the lock (it
// arrives second, but its reading lies in the window before) counts in its
// own window, not in the next one.
func TestMeterCountsLateReadingInItsWindow(t *testing.T) {
	var mt meter
	mt.add(int64(time.Second)+5, 10) // window 1
	mt.add(int64(time.Second)-5, 7)  // read the clock in window 0, counted after
	mt.add(int64(time.Second)+9, 10)
	if mt.peak != 20 || mt.prev != 7 || mt.cur != 20 {
		t.Errorf("peak %v, prev %v, cur %v; want 20, 7, 20", mt.peak, mt.prev, mt.cur)
	}
}
