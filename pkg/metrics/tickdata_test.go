package metrics

import (
	"fmt"
	"testing"
)

// TestPartSlotsFollowTheirKeys looks partitions up in an order that
// exercises part's last-slot shortcut across evictions, slot reuse and
// the slot table's rebuild: every lookup must return the slot holding its
// key, and one slot per key.
func TestPartSlotsFollowTheirKeys(t *testing.T) {
	d := newTickData()
	check := func(key string) {
		t.Helper()
		p := d.part(key)
		if p.key != key {
			t.Fatalf("part(%q) returned the slot of %q", key, p.key)
		}
		if i := d.parts[key]; &d.slots[i] != p {
			t.Fatalf("part(%q) returned a slot other than its map's", key)
		}
	}
	for round := range 40 {
		// Many partitions in early rounds, one later: the others are
		// evicted, their slots reused, then the table rebuilt.
		n := 1
		if round < 3 {
			n = 2 * shrinkMin
		}
		for i := range n {
			key := fmt.Sprintf("p%d-%d", i, round%2)
			check(key)
			check(key) // the shortcut
			check("p0-0")
		}
		d.reset()
	}
	if len(d.slots) >= 2*shrinkMin {
		t.Errorf("%d slots after the partitions went idle: the table was not rebuilt", len(d.slots))
	}
}
