package scenario

import (
	"fmt"
	"time"
)

// Defaults of every optional scenario value. applyDefaults is the only place
// that fills them in.
const (
	DefaultSeed     = 1
	DefaultEntities = 10_000
	DefaultInterval = time.Second
	DefaultPayload  = 512
	DefaultDuration = 30 * time.Second
	DefaultWorkers  = 16
	// DefaultOpenWorkers bounds an open loop's workers when the file
	// gives none: the loop starts a few and adds them as its operations
	// need (rate × latency), so the bound costs nothing until a slow
	// target needs it.
	DefaultOpenWorkers  = 1000
	DefaultTimeout      = 10 * time.Second
	DefaultRangeRows    = 50
	DefaultMaxPages     = 10
	DefaultBatchSize    = 50
	DefaultBatchKind    = "insert"
	DefaultRangeFrom    = "entity"
	DefaultDistribution = "uniform"
)

// DefaultStart is the event time of entity 0 unless population.start is set.
var DefaultStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// applyDefaults fills every value the file left out. A value the file gives
// explicitly (even 0) is kept: the decoder records which paths it saw.
func (s *Scenario) applyDefaults() {
	if !s.given("seed") {
		s.Seed = DefaultSeed
	}
	s.applyPopulationDefaults()
	for i := range s.Schemes {
		sc := &s.Schemes[i]
		if sc.Name == "" {
			sc.Name = sc.Builtin
		}
	}
	s.applyWorkloadDefaults()
	for i := range s.Workload.Mix {
		s.applyOpDefaults(i)
	}
}

// applyPopulationDefaults fills the population's entity count, start,
// interval and payload.
func (s *Scenario) applyPopulationDefaults() {
	p := &s.Population
	if !s.given("population.entities") {
		p.Entities = DefaultEntities
	}
	if !s.given("population.start") {
		p.Start = Time{DefaultStart}
	}
	if !s.given("population.interval") {
		p.Interval = Duration(DefaultInterval)
	}
	if !s.given("population.payload") {
		p.Payload = DefaultPayload
	}
}

// applyWorkloadDefaults fills the workload's own values: a staged run lasts
// as long as its stages, an unstaged one DefaultDuration; workers,
// timeout, key distribution and retry strategy ("none").
func (s *Scenario) applyWorkloadDefaults() {
	w := &s.Workload
	if !s.given("workload.duration") && len(w.Stages) == 0 {
		w.Duration = Duration(DefaultDuration)
	}
	if len(w.Stages) > 0 && !s.given("workload.duration") {
		var total time.Duration
		for _, st := range w.Stages {
			total += st.Duration.D()
		}
		w.Duration = Duration(total)
	}
	if !s.given("workload.workers") {
		w.Workers = DefaultWorkers
	}
	if !s.given("workload.timeout") {
		w.Timeout = Duration(DefaultTimeout)
	}
	if w.Distribution == "" {
		w.Distribution = DefaultDistribution
	}
	if w.Retry.Kind == "" {
		w.Retry.Kind = "none"
	}
}

// applyOpDefaults fills operation i of the mix with the defaults of its
// kind: an entry naming only a question asks it; a weight of 1; a range
// query's rows (when the file leaves them out: an explicit 0 is kept, for
// validation to refuse) and start; the page limit of the queries; a batch's size
// (likewise) and kind; an update's ETag check.
func (s *Scenario) applyOpDefaults(i int) {
	op := &s.Workload.Mix[i]
	path := fmt.Sprintf("workload.mix[%d]", i)
	if op.Op == "" && op.Question != "" {
		op.Op = "question"
	}
	if !s.given(path + ".weight") {
		op.Weight = 1
	}
	if !s.given(path+".rows") && op.Op == "range_query" {
		op.Rows = DefaultRangeRows
	}
	if op.From == "" && op.Op == "range_query" {
		op.From = DefaultRangeFrom
	}
	if !s.given(path+".max_pages") && (op.Op == "range_query" || op.Op == "partition_scan" || op.Op == "table_scan") {
		op.MaxPages = DefaultMaxPages
	}
	if op.Op == "batch" {
		if !s.given(path + ".size") {
			op.Size = DefaultBatchSize
		}
		if op.Kind == "" {
			op.Kind = DefaultBatchKind
		}
	}
	if op.Op == "update" && op.ETag == nil {
		t := true
		op.ETag = &t
	}
}
