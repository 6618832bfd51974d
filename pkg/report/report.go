// Package report is tablestress's report: the tablestress.report/v1 JSON
// document and its text, CSV and HTML renderings, comparisons of schemes and
// threshold evaluation. Renderers are func(io.Writer, ...) error and never
// touch anything else.
package report

import "time"

// Schema names of the JSON documents.
const (
	SchemaReport  = "tablestress.report/v1"
	SchemaCompare = "tablestress.compare/v1"
)

// Report is one run of one scheme: the tablestress.report/v1 document.
//
// Counting rules: a request is one HTTP request (an attempt, or a page of a
// query); an operation is what a worker set out to do and may take several
// requests. status counts requests and sums to requests; throttled counts
// the requests answered with throttling and errors those that failed
// otherwise; entities count what successful requests served (a
// batch its entities, a query the entities returned); latency is per
// operation from its scheduled start to its last response.
type Report struct {
	Schema      string           `json:"schema"`
	Scenario    string           `json:"scenario"`
	Scheme      string           `json:"scheme"`
	Target      Target           `json:"target"`
	Table       string           `json:"table"`
	StartedAt   time.Time        `json:"started_at"`
	DurationS   float64          `json:"duration_s"`
	Run         RunInfo          `json:"run"`
	Seed        SeedInfo         `json:"seed"`
	Totals      Stats            `json:"totals"`
	Operations  map[string]Stats `json:"operations"`
	Partitions  []Partition      `json:"partitions"`
	Intervals   []Interval       `json:"intervals"`
	Heatmap     *Heatmap         `json:"heatmap,omitempty"`
	Thresholds  []Threshold      `json:"thresholds"`
	Interrupted bool             `json:"interrupted,omitempty"`
	// Outages are the periods the target did not answer (--reconnect).
	Outages []Outage `json:"outages,omitempty"`
	// Verify is the read-back of acknowledged writes (--verify).
	Verify *Verify `json:"verify,omitempty"`
	// Aborted says which abort_on_fail threshold stopped the run early.
	Aborted string `json:"aborted,omitempty"`
	Failure string `json:"failure,omitempty"`
	// Histograms carries the encoded latency histograms, so that reports of
	// shards of one run merge exactly (tablestress merge).
	Histograms map[string]string `json:"histograms,omitempty"`
	// ScenarioSource is the scenario file as run, for the HTML report.
	ScenarioSource string `json:"scenario_source,omitempty"`
}

// Target is where the run went. Endpoint never contains a secret.
type Target struct {
	Kind     string `json:"kind"`
	Endpoint string `json:"endpoint"`
}

// RunInfo records how the run was driven.
type RunInfo struct {
	Mode            string  `json:"mode"` // "open" or "closed"
	Workers         int     `json:"workers"`
	Rate            float64 `json:"rate,omitempty"`
	WarmupS         float64 `json:"warmup_s"`
	Seed            uint64  `json:"seed"`
	Retry           string  `json:"retry"`
	PartitionTarget float64 `json:"partition_target"`
	Shard           string  `json:"shard,omitempty"`
}

// SeedInfo describes the seed phase.
type SeedInfo struct {
	Entities   int64   `json:"entities"`
	Rows       int64   `json:"rows"`
	Partitions int     `json:"partitions"`
	DurationS  float64 `json:"duration_s"`
	Throttled  int64   `json:"throttled"`
}

// Stats are the totals of the run or of one operation.
type Stats struct {
	Ops            int64            `json:"ops"`
	Requests       int64            `json:"requests"`
	Entities       int64            `json:"entities"`
	OpsPerSec      float64          `json:"ops_per_sec"`
	EntitiesPerSec float64          `json:"entities_per_sec"`
	Throttled      int64            `json:"throttled"`
	Errors         int64            `json:"errors"`
	Failed         int64            `json:"failed"`
	Dropped        int64            `json:"dropped"`
	Retries        int64            `json:"retries"`
	Pages          int64            `json:"pages"`
	Status         map[string]int64 `json:"status"`
	Latency        Latency          `json:"latency_ms"`
}

// Latency percentiles in milliseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// Partition is one partition's figures. Partitions are listed busiest first.
type Partition struct {
	PartitionKey       string           `json:"partition_key"`
	Ops                int64            `json:"ops"`
	Requests           int64            `json:"requests"`
	Entities           int64            `json:"entities"`
	EntitiesPerSec     float64          `json:"entities_per_sec"`
	PeakEntitiesPerSec float64          `json:"peak_entities_per_sec"`
	Throttled          int64            `json:"throttled"`
	Errors             int64            `json:"errors"`
	Status             map[string]int64 `json:"status,omitempty"`
	Latency            Latency          `json:"latency_ms"`
	OverTarget         bool             `json:"over_target"`
	// Hist is the partition's latency histogram (metrics.Compact, encoded),
	// so merged shards keep exact percentiles.
	Hist string `json:"hist,omitempty"`
}

// Interval is one second of the measured run.
type Interval struct {
	Second          int     `json:"second"`
	Ops             int64   `json:"ops"`
	Requests        int64   `json:"requests"`
	Entities        int64   `json:"entities"`
	Throttled       int64   `json:"throttled"`
	Errors          int64   `json:"errors"`
	Dropped         int64   `json:"dropped"`
	P50             float64 `json:"p50_ms"`
	P90             float64 `json:"p90_ms"`
	P99             float64 `json:"p99_ms"`
	Max             float64 `json:"max_ms"`
	Hottest         string  `json:"hottest_partition,omitempty"`
	HottestEntities int64   `json:"hottest_entities,omitempty"`
}

// Heatmap is entities per partition per time bin for the busiest partitions.
type Heatmap struct {
	BinSeconds float64   `json:"bin_s"`
	Partitions []string  `json:"partitions"`
	Entities   [][]int64 `json:"entities"` // [partition][bin]
}

// Threshold is one pass/fail condition with what was observed.
type Threshold struct {
	Expr     string  `json:"expr"`
	OK       bool    `json:"ok"`
	Observed float64 `json:"observed"`
	Unit     string  `json:"unit,omitempty"`
}

// Compare is the tablestress.compare/v1 document: one report per scheme.
type Compare struct {
	Schema   string    `json:"schema"`
	Scenario string    `json:"scenario"`
	Runs     []*Report `json:"runs"`
}

// ThresholdsOK reports whether every threshold passed (and none aborted
// the run).
func (r *Report) ThresholdsOK() bool {
	if r.Aborted != "" {
		return false
	}
	for _, t := range r.Thresholds {
		if !t.OK {
			return false
		}
	}
	return true
}

// Verify is what reading back every acknowledged write found.
type Verify struct {
	Checked     int64    `json:"checked"`
	Missing     int64    `json:"missing"`
	Mismatched  int64    `json:"mismatched"`
	Resurrected int64    `json:"resurrected"`
	Unreadable  int64    `json:"unreadable"`
	Examples    []string `json:"examples,omitempty"`
}

// OK reports whether every acknowledged write was found as written.
func (v *Verify) OK() bool { return v.Missing+v.Mismatched+v.Resurrected+v.Unreadable == 0 }

// Outage is a period, in seconds of the measured run, when the target was
// down.
type Outage struct {
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	Cause  string  `json:"cause"`
}
