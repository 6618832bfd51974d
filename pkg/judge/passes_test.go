package judge

import (
	"context"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// A partition scan of the mix visits a whole partition in one pass: the
// partition a pass visits the most rows of is named with the operation
// that visits it (query-types' partition_scan over 2 hash buckets: half
// the seeded table at once), not with a byte of its code.
func TestPassNamesTheOperation(t *testing.T) {
	in := readyInput(t, "query-types")
	sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "hash2", PartitionKey: "{hash(guid) % 2:01}", RowKey: "{inverted_ticks}"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := in.JudgeAt(context.Background(), sch, in.SeededSize())
	if err != nil {
		t.Fatal(err)
	}
	if f.BurstOf != "partition_scan" || f.BurstRows < 0.4*f.Entities {
		t.Errorf("the largest pass is %q's, %v rows of %q (of %v entities): want partition_scan's, half the table", f.BurstOf, f.BurstRows, f.BurstPartition, f.Entities)
	}
}
