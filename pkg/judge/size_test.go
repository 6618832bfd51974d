package judge

import (
	"context"
	"math"
	"testing"
	"time"
)

// sparse are 60,000 sensors writing 1,000 readings a second in all, so
// each writes once a minute; the dashboard asks for a sensor's newest 50,
// the minute's readings, and scans the table for a status.
const sparse = `
name: sparse
population:
  entities: 20000
  interval: 1ms
  fields:
    sensor: {kind: id, count: 60000}
    status: {kind: choice, values: [ok, fail], weights: [99, 1]}
questions:
  - {name: newest, known: [sensor], want: newest, limit: 50}
  - {name: this-minute, want: all, window: 1m}
  - {name: failures, known: [status], want: all}
schemes:
  - {name: sensor-minute, partition_key: "{sensor}_{time:yyyy-MM-dd-HH-mm}", row_key: "{inverted_ticks}"}
  - {name: sensor, partition_key: "{sensor}", row_key: "{inverted_ticks}"}
workload:
  rate: 1003
  mix:
    - {op: insert, weight: 1000}
    - {question: newest}
    - {question: this-minute}
    - {question: failures}
`

// At the horizon the judge's figures follow the growth laws: a sensor
// that writes once a minute fills its newest 50 from 50 minute buckets
// (on the seeded table, 20 s of event time, from the one it has); a window
// returns the rate times the window; a scan of the table visits every row
// written over the year; a sensor's own partition holds its share of them.
func TestHorizonGrowthLaws(t *testing.T) {
	in := prepare(t, "sparse", []byte(sparse))
	year := DefaultHorizon.Seconds()
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		newest, minute, failures := p.Questions[0], p.Questions[1], p.Questions[2]
		seeded := p.Seeded.Questions[0]
		switch s.Name {
		case "sensor-minute":
			// 50 full minutes and the current one, part full: 50.5 buckets.
			if math.Abs(newest.RequestsPerQuestion-50.5) > 1 || math.Abs(newest.RowsVisitedPerQuestion-50) > 1 {
				t.Errorf("%s: the newest 50 at the horizon take %.2f requests, visit %.1f rows; want about 50.5 and 50", s.Name, newest.RequestsPerQuestion, newest.RowsVisitedPerQuestion)
			}
			if seeded.RequestsPerQuestion > 1.01 || seeded.RowsPerQuestion > 1.5 {
				t.Errorf("%s: on the seeded table %.2f requests, %.2f rows; want the one minute's bucket and the sensor's reading", s.Name, seeded.RequestsPerQuestion, seeded.RowsPerQuestion)
			}
		case "sensor":
			if newest.RequestsPerQuestion != 1 || newest.RowsVisitedPerQuestion != 50 {
				t.Errorf("%s: the newest 50 take %v requests, %v rows; want one range of 50", s.Name, newest.RequestsPerQuestion, newest.RowsVisitedPerQuestion)
			}
			if want := 1000 * year / 60000; math.Abs(p.LargestPartitionRows-want) > 1e-6*want {
				t.Errorf("%s: a sensor's partition holds %v rows after a year, want %v", s.Name, p.LargestPartitionRows, want)
			}
		}
		if want := 1000.0 * 60; math.Abs(minute.RowsPerQuestion-want) > 0.01*want {
			t.Errorf("%s: the minute's window returns %v rows at the horizon, want %v", s.Name, minute.RowsPerQuestion, want)
		}
		// Asked for the status of a picked reading: "ok" 99 times in 100.
		if want, ret := 1000*year, (0.99*0.99+0.01*0.01)*1000*year; math.Abs(failures.RowsVisitedPerQuestion-want) > 1e-6*want || math.Abs(failures.RowsPerQuestion-ret) > 1e-6*ret {
			t.Errorf("%s: the scan by status visits %v rows, returns %v; want every row of the year, %v, and %v", s.Name, failures.RowsVisitedPerQuestion, failures.RowsPerQuestion, want, ret)
		}
	}
	h := in.HorizonSize()
	if h.Entities != 1000*year || h.Span != DefaultHorizon {
		t.Errorf("horizon %+v: want a year at 1,000 entities/s", h)
	}
	in.Opts.Retention = 30 * 24 * time.Hour
	if h := in.HorizonSize(); h.Entities != 1000*30*86400 || h.Span != in.Opts.Retention {
		t.Errorf("with 30 days' retention: %+v", h)
	}
}
