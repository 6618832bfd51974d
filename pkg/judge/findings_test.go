package judge

import (
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// A prediction's findings hold each figure to its limit at the headroom
// given, in one order, and say it in words: each row is a kind, whether
// it is over, how far, and words it must say.
func TestFindings(t *testing.T) {
	in := &Input{Opts: Options{Model: model.Default(), Horizon: 365 * 24 * time.Hour}}
	p := &Prediction{Figures: Figures{Size: "horizon", BusiestPartition: "Orders", BusiestEntitiesPerSec: 1500,
		BurstPartition: "dev-1", BurstOf: "newest", BurstRows: 6000, ThrottledShare: 0.02, ThrottledPartition: "dev-2",
		AccountRequestsPerSec: 10_000, LargestPartition: "Orders", LargestPartitionRows: 2e6,
		IngressBytesPerSec: 1e9, EgressBytesPerSec: 5e9,
		Questions: []QuestionCost{{Name: "q", Label: "scan", RequestsPerQuestion: 30, RowsVisitedPerQuestion: 50}}},
		Monotonic: true, MonotonicOrder: "append-only", WriteEntitiesPerSec: 100, RangeEntitiesPerSec: 100,
		BatchSize: 20, BatchFill: 1, Collisions: 3}
	fs := in.Findings(p, Limits{Headroom: 0.7, MaxThrottled: 0.01, MaxQuestionRequests: 10, MaxPartitionRows: 1e6})
	want := []struct {
		kind  Kind
		over  bool
		ratio float64
		words string
	}{
		{HotPartition, true, 1500 / 1400.0, `hot: partition "Orders" would take 1,500 entities/s at the peak, over 70% of the 2,000 entities/s partition target`},
		{PassBurst, true, 2, `hot: newest visits 6,000 rows of partition "dev-1" at once, over the 3,000 one query can read`},
		{ServerBurst, false, 0, ""},
		{Throttled, true, 2, `2% of the requests (0% on partition servers), most on partition "dev-2"`},
		{Monotonic, true, 1 + 1e-9, "append-only PartitionKeys: all 100 new entities/s"},
		{AccountRequests, false, 10_000 / 14_000.0, "the account would take 10,000 requests/s, over 70% of its 20,000 requests/s target"},
		{QuestionRequests, true, 3, "q takes 30 requests a question (scan), over the bound of 10"},
		{QuestionRows, false, 0, ""},
		{BatchFill, true, 10, "entity group transactions hold 1 of the 20 entities asked"},
		{Collisions, true, 4, "3 RowKey collisions"},
		{PartitionRows, true, 2, `its partitions keep growing: the largest, "Orders", holds 2,000,000 rows after a year, over the bound of 1,000,000`},
		{AccountIngress, false, 1e9 / (0.7 * 25e9 / 8), ""},
		{AccountEgress, true, 5e9 / (0.7 * 50e9 / 8), "the account would send 4.7 GB/s, over 70% of the 50 Gbps egress target of a standard storage account"},
	}
	if len(fs) != len(want) {
		t.Fatalf("%d findings, want %d: %+v", len(fs), len(want), fs)
	}
	for k, w := range want {
		f := fs[k]
		if f.Kind != w.kind || f.Over() != w.over || (w.ratio > 0 && f.Ratio() != w.ratio) {
			t.Errorf("finding %d: %v over %v ratio %v; want %v over %v ratio %v", k, f.Kind, f.Over(), f.Ratio(), w.kind, w.over, w.ratio)
		}
		if got := in.Words(f); w.words != "" && !strings.Contains(got, w.words) {
			t.Errorf("%v in words: %q, want it to say %q", f.Kind, got, w.words)
		}
	}
	if got := len(Problems(fs)); got != 9 {
		t.Errorf("%d problems, want the 9 over their limits", got)
	}
	// The whole target (keys): no share in the words, and 1,500 is under it.
	whole := in.Findings(p, Limits{Headroom: 1})
	if whole[0].Over() || !strings.Contains(in.Words(Finding{Kind: HotPartition, Partition: "p", Value: 3000, Limit: 2000, Target: 2000, Headroom: 1}), "over the 2,000 entities/s partition target") {
		t.Errorf("at the whole target: %+v", whole[0])
	}
	if s := in.Words(Finding{Kind: HotPartition, Partition: "p", Value: 3000, Limit: 2000, Target: 2000, Headroom: 1, Size: "seeded"}); !strings.HasSuffix(s, "(on the seeded table)") {
		t.Errorf("a finding on the seeded table does not say so: %q", s)
	}
}
