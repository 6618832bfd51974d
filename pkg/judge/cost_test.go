package judge

import (
	"context"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// A table scan is one query whose pages follow each other (each waits for
// the continuation token of the one before), never a fan-out: under
// {order} (a partition per order), the last minute's orders are a scan
// of the table, its rounds its requests, and its modelled time at least their read latency one after
// another. A point read stays one round; the 25 hash buckets of
// {hash(order) % 25}, each scanned, go out at once (a round per page).
func TestTableScanPagesFollowEachOther(t *testing.T) {
	in := readyInput(t, "order-screen")
	judge := func(pk string) []QuestionCost {
		sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "s", PartitionKey: pk, RowKey: "{order}"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := in.JudgeAt(context.Background(), sch, in.DepthSize(1_000_000, 2*time.Second, 10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		return f.Questions
	}
	lat := float64(in.Opts.Model.Latency.Read) / float64(time.Millisecond)
	for _, q := range judge("{order}") {
		switch q.Name {
		case "last-minute":
			if q.Label != "scan (table)" || q.RequestsPerQuestion < 25 || q.RoundsPerQuestion != q.RequestsPerQuestion || q.Ms < q.RequestsPerQuestion*lat {
				t.Errorf("%s: %s, %.1f requests in %.1f rounds, %.1f ms (a read %.1f ms)", q.Name, q.Label, q.RequestsPerQuestion, q.RoundsPerQuestion, q.Ms, lat)
			}
		case "order":
			if q.RoundsPerQuestion != 1 {
				t.Errorf("%s: %.1f rounds, want 1", q.Name, q.RoundsPerQuestion)
			}
		}
	}
	for _, q := range judge("{hash(order) % 25}") {
		if q.Name == "last-minute" && (q.Label != "scan" || q.RoundsPerQuestion*25 > q.RequestsPerQuestion*1.01) {
			t.Errorf("25 buckets scanned at once: %s, %.1f requests in %.1f rounds", q.Label, q.RequestsPerQuestion, q.RoundsPerQuestion)
		}
	}
}
