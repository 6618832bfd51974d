package main

import (
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/tablestress/tablestress/pkg/report"
)

// compare --out lists the busiest partitions and sums the others, the
// counts adding up to what every partition counted; --all-partitions
// lists every one; tablestress report reads both. The runs are in a
// bubble, so that the partitions they touch do not depend on this
// machine's load.
func TestCompareJSONSummarisesPartitions(t *testing.T) {
	dir := t.TempDir()
	args := []string{"compare", "../../scenarios/guid-partitions.yaml", "--scheme", "guid", "--duration", "1s", "--warmup", "0s", "--quiet", "--entities", "1000", "--rate", "400"}
	read := func(name string, extra ...string) *report.Report {
		path := filepath.Join(dir, name)
		synctest.Test(t, func(t *testing.T) {
			if code, _, errs := runBubbled(t, append(append(args, "--out", path), extra...)...); code != exitOK {
				t.Fatalf("compare exit %d: %s", code, errs)
			}
		})
		doc, err := report.ReadFile(path)
		if err != nil || doc.Compare == nil {
			t.Fatalf("%s: %v", name, err)
		}
		if code, out, errs := runCLI(t, "report", path); code != exitOK || out == "" {
			t.Errorf("tablestress report %s: exit %d: %s", name, code, errs)
		}
		return doc.Compare.Runs[0]
	}
	summed, full := read("summed.json"), read("full.json", "--all-partitions")
	if full.OtherPartitions != nil || full.PartitionCount() < 3*report.KeptPartitions {
		t.Fatalf("--all-partitions: %d listed, others %+v: a run of a GUID PartitionKey per insert touches more", len(full.Partitions), full.OtherPartitions)
	}
	if summed.OtherPartitions == nil || len(summed.Partitions) > report.KeptPartitions+5 || summed.PartitionCount() < 3*report.KeptPartitions {
		t.Fatalf("by default: %d listed of %d", len(summed.Partitions), summed.PartitionCount())
	}
	c := summed.OtherPartitions.Counts
	for _, p := range summed.Partitions {
		c.Add(p.Counts)
	}
	var all report.Partition
	for _, p := range full.Partitions {
		all.Counts.Add(p.Counts)
	}
	// Every request of this workload addresses a partition: the
	// partitions' requests are the totals'.
	if c.Ops == 0 || c.Requests != summed.Totals.Requests || all.Requests != full.Totals.Requests {
		t.Errorf("listed and summed partitions count %+v, the totals %+v", c, summed.Totals.Counts)
	}
}
