package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// sumPartitions adds up the counts of a report's partitions, listed and
// summed.
func sumPartitions(r *Report) metrics.Counts {
	var c metrics.Counts
	for _, p := range r.Partitions {
		c.Add(p.Counts)
	}
	if r.OtherPartitions != nil {
		c.Add(r.OtherPartitions.Counts)
	}
	return c
}

// A summarised report lists the busiest partitions, and always the one of
// the highest peak, the most throttled, those over their target and those
// a threshold judged; it sums the others, so that its counts add up
// exactly to what every partition counted, and it still says how many
// partitions the run touched.
func TestSummarisedAddsUp(t *testing.T) {
	r := bigRun("user-idx", 3_000, 10_000)
	r.Partitions[2_500].OverTarget = true
	r.Partitions[2_600].Throttled = 1_000_000
	r.Partitions[2_700].PeakEntitiesPerSec = 1e9
	r.Thresholds = append(r.Thresholds, Threshold{Expr: "x", Partition: r.Partitions[2_800].PartitionKey})
	full := sumPartitions(r)
	s := Summarised(r, 100)
	if len(r.Partitions) != 3_000 || r.OtherPartitions != nil {
		t.Fatal("Summarised changed the report it was given")
	}
	if got := sumPartitions(s); got != full {
		t.Errorf("listed and summed: %+v, every partition: %+v", got, full)
	}
	if s.PartitionCount() != 3_000 || len(s.Partitions) != 104 || s.OtherPartitions.Partitions != 2_896 {
		t.Errorf("%d listed, %d summed, count %d: want 104, 2,896 and 3,000", len(s.Partitions), s.OtherPartitions.Partitions, s.PartitionCount())
	}
	listed := map[string]bool{}
	for _, p := range s.Partitions {
		listed[p.PartitionKey] = true
	}
	for _, i := range []int{0, 99, 2_500, 2_600, 2_700, 2_800} {
		if !listed[r.Partitions[i].PartitionKey] {
			t.Errorf("partition %d (%s) left out", i, r.Partitions[i].PartitionKey)
		}
	}
	if v, _ := s.ThresholdValue("partitions", ""); v != 3_000 {
		t.Errorf("the partitions a summarised report touched: %v", v)
	}
}

// The JSON of a comparison of three schemes over 30,000 partitions each
// stays under 20 MB by default, its size following what it lists rather
// than how many partitions the runs touched (a longer run adds only its
// seconds, a few hundred bytes each); the full
// record (every partition) is what --all-partitions writes. A saved
// summary reads back, renders with every partition counted and merges
// with another shard's, the counts still adding up.
func TestSummarisedJSONIsSizedToWhatItSays(t *testing.T) {
	reps := []*Report{bigRun("user-idx", 30_000, 10_000), bigRun("kind-hour", 30_000, 4_000), bigRun("hash-16", 30_000, 50)}
	small := []*Report{bigRun("user-idx", 3_000, 10_000), bigRun("kind-hour", 3_000, 4_000), bigRun("hash-16", 3_000, 50)}
	size := func(c *Compare) int {
		var b bytes.Buffer
		if err := WriteJSON(&b, c); err != nil {
			t.Fatal(err)
		}
		return b.Len()
	}
	full := size(NewCompare(reps, nil, nil))
	summed := size(SummarisedCompare(NewCompare(reps, nil, nil), KeptPartitions))
	summedSmall := size(SummarisedCompare(NewCompare(small, nil, nil), KeptPartitions))
	t.Logf("JSON of 3 x 30,000 partitions: %d bytes in full, %d summarised (%d for 3 x 3,000)", full, summed, summedSmall)
	if summed >= 20_000_000 || full < 10*summed || summed > 2*summedSmall {
		t.Errorf("summarised %d bytes (3 x 3,000 partitions: %d), in full %d: want under 20 MB, a tenth of the full, and about the size of the smaller run's", summed, summedSmall, full)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, SummarisedCompare(NewCompare(reps, nil, nil), KeptPartitions)); err != nil {
		t.Fatal(err)
	}
	doc, err := Decode(js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	back := doc.Compare.Runs[0]
	if back.PartitionCount() != 30_000 || sumPartitions(back) != sumPartitions(reps[0]) {
		t.Errorf("read back: %d partitions counting %+v, want 30,000 counting %+v", back.PartitionCount(), sumPartitions(back), sumPartitions(reps[0]))
	}
	var text bytes.Buffer
	if err := WriteCompareDoc(&text, doc.Compare, textfit.Style{}); err != nil || !strings.Contains(rowOf(text.String(), "1  hash-16"), "30,000") {
		t.Errorf("the text of a saved summary: %v\n%s", err, text.String())
	}
	a, b := Summarised(bigRun("s", 3_000, 10_000), 100), Summarised(bigRun("s", 3_000, 10_000), 100)
	a.Run.Shard, b.Run.Shard = "0/2", "1/2"
	m, err := Merge(shardsOf(a, b), false)
	if err != nil {
		t.Fatal(err)
	}
	want := sumPartitions(a)
	want.Add(sumPartitions(b))
	if got := sumPartitions(m); got != want || m.PartitionCount() < 3_000 {
		t.Errorf("merged summaries: %+v over %d partitions, want %+v", got, m.PartitionCount(), want)
	}
}
