package report

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVHeader is the header of the partitions CSV.
// The request units columns are empty for a partition charged none; failed
// counts the partition's operations that failed after their retries
// (their latency is in none of the partition's figures), and the latency
// columns are empty when none of its operations was answered.
var CSVHeader = []string{"scheme", "partition_key", "ops", "requests", "entities", "entities_per_sec", "peak_entities_per_sec",
	"throttled", "errors", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "over_target",
	"request_units", "request_units_per_sec", "peak_request_units_per_sec", "failed"}

// WriteCSV writes one row per partition of each report, busiest first.
func WriteCSV(w io.Writer, reports ...*Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range reports {
		for _, p := range r.Partitions {
			lat := func(v float64) string { // none when no operation on it was answered
				if p.Answered() == 0 {
					return ""
				}
				return f(v)
			}
			rec := []string{r.Scheme, p.PartitionKey, i(p.Ops), i(p.Requests), i(p.Entities), f(p.EntitiesPerSec), f(p.PeakEntitiesPerSec),
				i(p.Throttled), i(p.Errors), lat(p.Latency.P50), lat(p.Latency.P90), lat(p.Latency.P99), lat(p.Latency.P999), lat(p.Latency.Max),
				strconv.FormatBool(p.OverTarget), "", "", "", i(p.Failed)}
			if p.RequestUnitsPerSec != nil {
				rec[15], rec[16], rec[17] = f(p.RequestUnits), f(*p.RequestUnitsPerSec), f(peakUnits(p))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
