package model

import (
	"math"
	"testing"
)

// The exported charges are the published figures the model bills: a 1 KB
// write 4.95 RU, a 1 KB read 1 RU, a 2 KB read 1.04 RU, and a query page
// 2.5 RU plus a read per entity returned and 0.05 RU per other entity
// visited.
func TestExportedUnits(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"write of 1 KB, 12 properties", WriteUnits(1024, 12), 4.95 + 0.2},
		{"read of 1 KB", ReadUnits(1024), 1},
		{"read of 2 KB", ReadUnits(2048), 1.04},
		{"one page visiting 100, returning 10 of 500 B", QueryUnits(1, 100, 10, 500), 2.5 + 10*1 + 90*0.05},
		{"three pages returning 20 of 2 KB", QueryUnits(3, 20, 20, 2048), 3*2.5 + 20*1.04},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s: %v RU, want %v", c.name, c.got, c.want)
		}
	}
}
