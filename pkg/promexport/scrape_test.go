package promexport

import (
	"bytes"
	"flag"
	"fmt"
	"testing"

	"github.com/tablestress/tablestress/internal/testenv"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/tablestress/tablestress/pkg/metrics"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// A scrape serves the run's info, each operation's counters, requests by
// status, request units where charged and latency histogram (bucket
// counts and the sum of the recorded latencies), and the counters and
// peaks of the TopPartitions busiest partitions, no more. The exposition
// is checked against a golden file; run
// `go test ./pkg/promexport -run Golden -update` after an intended change.
func TestScrapeGolden(t *testing.T) {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, us := range []int64{300, 800, 800, 4000, 15000, 250000} { // the 6 answered of the 7 inserts
		if err := h.RecordValue(us); err != nil {
			t.Fatal(err)
		}
	}
	sum := &metrics.Summary{Ops: map[metrics.Op]metrics.Stats{
		metrics.Insert: {Counts: metrics.Counts{Ops: 7, Requests: 9, Entities: 6, Throttled: 2, Errors: 1, Failed: 1, Dropped: 3, Retries: 2, Charged: 9, RequestUnits: 45.5},
			Status: map[string]int64{"201": 6, "503 ServerBusy": 2, "409 EntityAlreadyExists": 1}, Latency: h},
		metrics.PointRead: {Counts: metrics.Counts{Ops: 4, Requests: 4, Entities: 4}, Status: map[string]int64{"200": 4}},
	}}
	for i := range TopPartitions + 2 {
		p := metrics.PartitionStats{Key: fmt.Sprintf("p%02d", i), Counts: metrics.Counts{Requests: int64(100 - i), Entities: int64(200 - i), Throttled: int64(i % 3)}, Peak: int64(50 - i)}
		if i == 1 {
			p.Charged, p.RequestUnits, p.PeakUnits = 3, 12.5, 7.25
		}
		sum.Partitions = append(sum.Partitions, p)
	}
	e := New()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	var b bytes.Buffer
	scrape := func() {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if err := expfmt.NewEncoder(&b, expfmt.NewFormat(expfmt.TypeTextPlain)).Encode(mf); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.WriteString("# before a run is set\n")
	scrape()
	e.Set("hot", "constant", "embedded", func() *metrics.Summary { return sum })
	b.WriteString("# during the run\n")
	scrape()
	testenv.Golden(t, "testdata/scrape.golden", b.Bytes(), *update)
}
