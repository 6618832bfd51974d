package judge

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// parcels are n parcels of equal share scanned 1,000 times a second in
// all; the tracking page asks a parcel's history (of a picked scan's
// parcel) and the newest 5 scans of a parcel picked evenly.
func parcels(n string) string {
	return fmt.Sprintf(`
name: parcels
population:
  entities: 50000
  interval: 1ms
  fields:
    parcel: {kind: id, count: %s, prefix: P, width: 9}
questions:
  - {name: history, known: [parcel], want: all}
  - {name: tracked, known: [parcel], want: newest, limit: 5, pick: {parcel: uniform}}
schemes:
  - {name: by-parcel, partition_key: "{parcel}", row_key: "{inverted_ticks}"}
  - {name: hashed, partition_key: "{hash(parcel) %% 16}", row_key: "{parcel}_{inverted_ticks}"}
workload:
  rate: 1010
  mix:
    - {op: insert, weight: 1000}
    - {question: history, weight: 5}
    - {question: tracked, weight: 5}
`, n)
}

// No cliff at keygen.MaxSupport: a field of 2,000,000 or 100,000,000
// values is judged by its law, rows per key = entities ÷ keys. At the
// horizon (a year at 1,000 scans/s) a parcel's partition holds λ =
// 31,536,000,000 ÷ n scans; the history of a picked scan's parcel returns
// them and the picked scan (λ + 1: a parcel picked through one of its
// scans is one that has it); the newest 5 of a parcel picked evenly are a
// range of 5; 16 hash buckets of the parcel each take a sixteenth.
func TestCardinalityJudgedByItsLaw(t *testing.T) {
	for _, n := range []float64{2e6, 1e8} {
		in := prepare(t, "parcels", []byte(parcels(fmt.Sprintf("%.0f", n))))
		lambda := 1000 * DefaultHorizon.Seconds() / n
		for _, s := range in.Own {
			p, err := in.Judge(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			history, tracked := p.Questions[0], p.Questions[1]
			if math.Abs(history.RowsPerQuestion-(lambda+1)) > 0.01*lambda {
				t.Errorf("%v values, %s: the history returns %.1f rows at the horizon; want λ+1 = %.1f", n, s.Name, history.RowsPerQuestion, lambda+1)
			}
			if seeded := p.Seeded.Questions[0].RowsPerQuestion; math.Abs(seeded-(1+50000/n)) > 0.01 {
				t.Errorf("%v values, %s: the history returns %.3f rows on the seeded table; want %.3f", n, s.Name, seeded, 1+50000/n)
			}
			switch s.Name {
			case "by-parcel":
				if tracked.RowsVisitedPerQuestion != 5 || tracked.RequestsPerQuestion != 1 || tracked.Plan != "range" {
					t.Errorf("%v values: the newest 5 %s, %v requests, %v rows; want a range of 5", n, tracked.Plan, tracked.RequestsPerQuestion, tracked.RowsVisitedPerQuestion)
				}
				if math.Abs(p.LargestPartitionRows-lambda) > 1e-6*lambda || p.BusiestPartition == newPartition {
					t.Errorf("%v values: the largest partition %q holds %v rows; want a parcel's, λ = %v", n, p.BusiestPartition, p.LargestPartitionRows, lambda)
				}
			case "hashed":
				if want := 1000 * DefaultHorizon.Seconds() / 16; math.Abs(p.LargestPartitionRows-want) > 1e-3*want {
					t.Errorf("%v values: a hash bucket holds %v rows; want a sixteenth of the year's, %v", n, p.LargestPartitionRows, want)
				}
			}
		}
	}
}
