// Package report is tablestress's report: the tablestress.report/v1 JSON
// document and its text, CSV and HTML renderings, comparisons of schemes and
// threshold evaluation. Renderers are func(io.Writer, ...) error and never
// touch anything else.
package report

import (
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
)

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
	Schema   string `json:"schema"`
	Scenario string `json:"scenario"`
	Scheme   string `json:"scheme"`
	// Result is, in a comparison, what its decision found of the scheme
	// (a Result value: pick, passed, failed, stopped), said before any of
	// its figures; empty outside a comparison.
	Result string `json:"result,omitempty"`
	Target Target `json:"target"`
	// Model names the service model the run's target answered with (the
	// embedded service's, like "azure"); empty when not known.
	Model      string           `json:"model,omitempty"`
	Table      string           `json:"table"`
	StartedAt  time.Time        `json:"started_at"`
	DurationS  float64          `json:"duration_s"`
	Run        RunInfo          `json:"run"`
	Seed       SeedInfo         `json:"seed"`
	Totals     Stats            `json:"totals"`
	Operations map[string]Stats `json:"operations"`
	// Questions are the application's questions the run asked, by name,
	// as the run's scheme answered them.
	Questions  map[string]Question `json:"questions,omitempty"`
	Partitions []Partition         `json:"partitions"`
	// OtherPartitions sums the partitions a summarised report leaves out
	// of Partitions (Summarised); nil when it lists every one.
	OtherPartitions *OtherPartitions `json:"other_partitions,omitempty"`
	Intervals       []Interval       `json:"intervals"`
	Heatmap         *Heatmap         `json:"heatmap,omitempty"`
	Thresholds      []Threshold      `json:"thresholds"`
	Interrupted     bool             `json:"interrupted,omitempty"`
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
	// MergedShards is how many shards' reports a merged report combines;
	// MissingShards names the shards a partial merge lacks ("2/3").
	MergedShards  int      `json:"merged_shards,omitempty"`
	MissingShards []string `json:"missing_shards,omitempty"`
	// Find is the search for the highest sustainable rate this run ended
	// (tablestress find), when it was one.
	Find *Find `json:"find,omitempty"`
	// ScenarioSource is the scenario file as run, for the HTML report.
	ScenarioSource string `json:"scenario_source,omitempty"`
	// Client is the CPU the run used on the client's machine.
	Client *Client `json:"client,omitempty"`
}

// Target is where the run went. Endpoint never contains a secret.
type Target struct {
	Kind     string `json:"kind"`
	Endpoint string `json:"endpoint"`
}

// RunInfo records how the run was driven: everything two shards of one run
// share, but for Shard.
type RunInfo struct {
	Mode    string `json:"mode"` // "open" or "closed"
	Workers int    `json:"workers"`
	// Rate is the constant open-loop rate, or the rate the stages start from.
	Rate float64 `json:"rate,omitempty"`
	// Stages are the open-loop ramps after the warm-up, as run.
	Stages  []Stage `json:"stages,omitempty"`
	WarmupS float64 `json:"warmup_s"`
	// WarmupRate is the open-loop rate during the warm-up.
	WarmupRate float64 `json:"warmup_rate,omitempty"`
	// DurationS is the planned measured duration (the report's duration_s
	// is what was measured).
	DurationS float64 `json:"planned_duration_s,omitempty"`
	// MaxOps is the planned number of measured operations (0: no limit).
	MaxOps          int64   `json:"max_operations,omitempty"`
	Seed            uint64  `json:"seed"`
	Retry           string  `json:"retry"`
	PartitionTarget float64 `json:"partition_target"`
	// PartitionUnits is the request units per second a partition of a
	// target that charges them is judged against instead: a Cosmos DB
	// physical partition's share of the provisioned throughput (0: not
	// known, or not such a target).
	PartitionUnits float64 `json:"partition_request_units,omitempty"`
	// Shard is "I/N" for shard I of a run of N shards.
	Shard string `json:"shard,omitempty"`
	// ID names the run the shards belong to (--run-id), if given.
	ID string `json:"id,omitempty"`
	// ScenarioSHA256 is the hash of the scenario file as run.
	ScenarioSHA256 string `json:"scenario_sha256,omitempty"`
	// Notes say how the command line changed the scenario's workload.
	Notes []string `json:"notes,omitempty"`
	// Clock is the time the run lived on: "virtual" (the client and the
	// embedded service's model on one virtual clock: every figure is the
	// model's, whatever the machine) or "wall" ("" in reports written
	// before it was recorded: the wall clock).
	Clock string `json:"clock,omitempty"`
	// VirtualPerWall is, on a virtual clock, the seconds of virtual time
	// the measured window advanced per second of wall time it took: a fact
	// about the machine it ran on, not about the run.
	VirtualPerWall float64 `json:"virtual_per_wall,omitempty"`
}

// Stage is one open-loop ramp: the rate moves linearly to Rate over
// DurationS seconds.
type Stage struct {
	DurationS float64 `json:"duration_s"`
	Rate      float64 `json:"rate"`
}

// SeedInfo describes the seed phase.
type SeedInfo struct {
	Entities   int64   `json:"entities"`
	Rows       int64   `json:"rows"`
	Partitions int     `json:"partitions"`
	DurationS  float64 `json:"duration_s"`
	Throttled  int64   `json:"throttled"`
	// Status counts the seed phase's requests by status, as Stats.Status
	// counts the run's: every attempt, retried ones included.
	Status map[string]int64 `json:"status,omitempty"`
	// Reused is set when the run skipped the seed phase (--skip-seed) on a
	// table seeded before; Rows is then what was counted in it.
	Reused bool `json:"reused,omitempty"`
}

// Stats are the totals of the run or of one operation.
type Stats struct {
	metrics.Counts
	OpsPerSec      float64 `json:"ops_per_sec"`
	EntitiesPerSec float64 `json:"entities_per_sec"`
	// AnsweredPerSec and AnsweredEntitiesPerSec are what succeeded: the
	// operations answered (ops less failed) and their entities
	// (answered_entities), per second; what failed is failed, beside them.
	AnsweredPerSec         float64 `json:"answered_per_sec"`
	AnsweredEntitiesPerSec float64 `json:"answered_entities_per_sec"`
	// RequestUnitsPerSec is the request units charged per second; nil (and
	// absent from JSON) when the target charged none.
	RequestUnitsPerSec *float64         `json:"request_units_per_sec,omitempty"`
	Status             map[string]int64 `json:"status"`
	Latency            Latency          `json:"latency_ms"`
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
	PartitionKey string `json:"partition_key"`
	metrics.Counts
	EntitiesPerSec     float64 `json:"entities_per_sec"`
	PeakEntitiesPerSec float64 `json:"peak_entities_per_sec"`
	// ThrottledPeakEntitiesPerSec is the most entities the partition served
	// in a second in which it was throttled.
	ThrottledPeakEntitiesPerSec float64 `json:"throttled_peak_entities_per_sec,omitempty"`
	// RequestUnitsPerSec and PeakRequestUnitsPerSec are the request units
	// charged per second on average and in the busiest second, and
	// ThrottledPeakRequestUnitsPerSec the most in a second in which it was
	// throttled; absent when the partition was charged none.
	RequestUnitsPerSec              *float64         `json:"request_units_per_sec,omitempty"`
	PeakRequestUnitsPerSec          *float64         `json:"peak_request_units_per_sec,omitempty"`
	ThrottledPeakRequestUnitsPerSec float64          `json:"throttled_peak_request_units_per_sec,omitempty"`
	Status                          map[string]int64 `json:"status,omitempty"`
	Latency                         Latency          `json:"latency_ms"`
	// OverTarget is metrics.OverTarget: the partition's load reached its
	// target (its HOT verdicts say the same).
	OverTarget bool `json:"over_target"`
	// Hist is the partition's latency histogram (metrics.Compact, encoded),
	// so merged shards keep exact percentiles.
	Hist string `json:"hist,omitempty"`
}

// Interval is one second of the measured run.
type Interval struct {
	Second int `json:"second"`
	metrics.Counts
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

// Threshold is one pass/fail condition with what was observed. A condition
// on something the run did not observe (no operation of its kind completed,
// no request to take a share of) fails, with Missing saying what was not
// observed.
type Threshold struct {
	Expr     string  `json:"expr"`
	OK       bool    `json:"ok"`
	Observed float64 `json:"observed"`
	Unit     string  `json:"unit,omitempty"`
	Missing  string  `json:"missing,omitempty"`
	// Partition is the partition whose figure Observed is, for a threshold
	// on one partition's (max_partition_peak: the partition of the highest
	// peak), so that the report can show it beside the threshold.
	Partition string `json:"partition,omitempty"`
}

// Compare is the tablestress.compare/v1 document: the decision, and one
// report per scheme that ran.
type Compare struct {
	Schema   string `json:"schema"`
	Scenario string `json:"scenario"`
	// Decisions are what the comparison concludes, one per model (one
	// when it compared schemes under one model).
	Decisions []Decision `json:"decisions,omitempty"`
	// NotRun are the runs the comparison meant to make that did not start
	// (it was interrupted, or a run before them failed).
	NotRun []Planned `json:"not_run,omitempty"`
	// Facts are what the comparison knew of each scheme besides its run
	// (its index tables, its largest partition at the horizon), by name.
	Facts map[string]SchemeFacts `json:"facts,omitempty"`
	Runs  []*Report              `json:"runs"`
}

// NewCompare is the comparison of reps: decided (Decide), with each
// report's Result set; a search's (compare --find) is not decided, its
// limits say what each scheme sustains.
func NewCompare(reps []*Report, notRun []Planned, facts map[string]SchemeFacts) *Compare {
	c := &Compare{Schema: SchemaCompare, Runs: reps, NotRun: notRun, Facts: facts}
	if len(reps) > 0 {
		c.Scenario = reps[0].Scenario
	}
	c.Decided()
	return c
}

// Decided returns c's decisions, deciding a document written without
// them (by an earlier version) from its runs; none for a search.
func (c *Compare) Decided() []Decision {
	if len(c.Decisions) == 0 && !(len(c.Runs) > 0 && c.Runs[0].Find != nil) {
		c.Decisions = Decide(c.Runs, c.NotRun, c.Facts)
	}
	return c.Decisions
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
