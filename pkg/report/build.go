package report

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// Meta is what the report says about the run besides its measurements.
type Meta struct {
	Scenario       string
	Scheme         string
	Target         Target
	Table          string
	Run            RunInfo
	Seed           SeedInfo
	Interrupted    bool
	Aborted        string
	Failure        string
	Verify         *Verify
	Outages        []Outage
	ScenarioSource string
	// Questions are the scheme's plans for the questions the run asks.
	Questions []QuestionPlan
}

// Build turns a run's metrics summary into a report. A nil summary (the run
// never reached its run phase) gives a report with zero figures.
func Build(m Meta, s *metrics.Summary) *Report {
	r := &Report{Schema: SchemaReport, Scenario: m.Scenario, Scheme: m.Scheme, Target: m.Target, Table: m.Table,
		Run: m.Run, Seed: m.Seed, Interrupted: m.Interrupted, Aborted: m.Aborted, Failure: m.Failure, Verify: m.Verify, Outages: m.Outages, ScenarioSource: m.ScenarioSource,
		Operations: map[string]Stats{}, Partitions: []Partition{}, Intervals: []Interval{}, Thresholds: []Threshold{}}
	if s == nil {
		r.Totals.Status = map[string]int64{}
		r.buildQuestions(m.Questions, nil, 0)
		return r
	}
	r.StartedAt = s.Start.UTC()
	secs := s.Duration().Seconds()
	r.DurationS = secs
	r.Histograms = map[string]string{}
	r.Totals = stats(s.Totals, secs)
	if enc, err := s.Totals.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err == nil {
		r.Histograms["total"] = string(enc)
	}
	for op, st := range s.Ops {
		r.Operations[op.String()] = stats(st, secs)
		if enc, err := st.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err == nil {
			r.Histograms[op.String()] = string(enc)
		}
	}
	r.buildQuestions(m.Questions, s, secs)
	target := s.PartitionTarget
	for _, p := range s.Partitions {
		eps := perSec(p.Entities, secs)
		peak := metrics.PeakRate(p.Peak, eps)
		part := Partition{
			PartitionKey: p.Key, Counts: p.Counts,
			EntitiesPerSec: eps, PeakEntitiesPerSec: peak, ThrottledPeakEntitiesPerSec: float64(p.ThrottledPeak),
			Status: p.Status,
			Latency: Latency{P50: usMs(p.Latency.Quantile(0.5)), P90: usMs(p.Latency.Quantile(0.9)), P99: usMs(p.Latency.Quantile(0.99)),
				P999: usMs(p.Latency.Quantile(0.999)), Max: usMs(p.Latency.Max())},
			OverTarget: metrics.OverTarget(p.Key, peak, float64(p.ThrottledPeak), target),
			Hist:       p.Latency.Encode(),
		}
		if p.Charged > 0 {
			part.setUnits(secs, p.PeakUnits, p.ThrottledPeakUnits, s.PartitionUnits)
		}
		r.Partitions = append(r.Partitions, part)
	}
	for _, iv := range s.Intervals {
		r.Intervals = append(r.Intervals, Interval{Second: iv.Second, Counts: iv.Counts, P50: iv.P50, P90: iv.P90, P99: iv.P99, Max: iv.Max,
			Hottest: iv.Hottest, HottestEntities: iv.HottestEntities})
	}
	if len(s.Series) > 0 {
		h := &Heatmap{BinSeconds: s.BinWidth.Seconds()}
		for _, se := range s.Series {
			h.Partitions = append(h.Partitions, se.Partition)
			h.Entities = append(h.Entities, se.Entities)
		}
		r.Heatmap = h
	}
	return r
}

func stats(s metrics.Stats, secs float64) Stats {
	out := Stats{Counts: s.Counts, Status: s.Status, RequestUnitsPerSec: unitsRate(s.Counts, secs),
		Latency: Latency{P50: s.LatencyMs(50), P90: s.LatencyMs(90), P99: s.LatencyMs(99), P999: s.LatencyMs(99.9), Max: s.LatencyMs(100)}}
	out.setRates(secs)
	return out
}

// setRates sets the per-second figures of s's counts over secs.
func (s *Stats) setRates(secs float64) {
	s.OpsPerSec, s.EntitiesPerSec = perSec(s.Ops, secs), perSec(s.Entities, secs)
	s.AnsweredPerSec, s.AnsweredEntitiesPerSec = perSec(s.Answered(), secs), perSec(s.AnsweredEntities, secs)
}

func perSec(n int64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(n) / secs
}

func usMs(us int64) float64 { return float64(us) / 1000 }

// SecondsOf converts a duration for RunInfo and SeedInfo.
func SecondsOf(d time.Duration) float64 { return d.Seconds() }
