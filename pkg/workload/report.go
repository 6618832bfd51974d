package workload

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/threshold"
)

// RunInfo is how the run was driven, as the report records it.
func (c *Config) RunInfo() report.RunInfo {
	l := c.Load
	info := report.RunInfo{Mode: "closed", Workers: c.Workers, WarmupS: c.Warmup.Seconds(), DurationS: c.Duration.Seconds(),
		MaxOps: c.MaxOps, Seed: c.Seed, Retry: c.Retry.String(), PartitionTarget: c.partitionTarget(), PartitionUnits: c.PartitionUnits,
		ScenarioSHA256: c.SourceSHA256, Notes: c.Notes}
	if l.Open {
		info.Mode, info.Rate = "open", l.Rate
		if c.Warmup > 0 {
			info.WarmupRate = l.WarmupRate
		}
		for _, st := range l.Stages {
			info.Stages = append(info.Stages, report.Stage{DurationS: st.Duration.Seconds(), Rate: st.Target})
		}
	}
	if c.Shards > 1 {
		info.Shard = fmt.Sprintf("%d/%d", c.Shard, c.Shards)
	}
	return info
}

func (c *Config) partitionTarget() float64 {
	if c.PartitionTarget > 0 {
		return c.PartitionTarget
	}
	return azure.PartitionEntitiesPerSec
}

// Meta is what a report says about a run besides its measurements.
type Meta struct {
	Target report.Target
	// RunID names the run its shards share (--run-id), if any.
	RunID string
	// Source is the scenario file as run, for the HTML report.
	Source string
	// Model names the service model the target answered with (the
	// embedded service's spec, like "azure" or "cosmos,ru=10000"); "" when
	// the target is a real service.
	Model string
	// InProcess is set when the target ran in this process (the embedded
	// service reached in process): the process's CPU is the service's too.
	InProcess bool
	// Virtual is set when the run lived on a virtual clock.
	Virtual bool
}

// clientReport is the report's account of the CPU the run used, nil when
// the run phase did not measure.
func clientReport(res *Result, rep *report.Report, inProcess bool) *report.Client {
	u := res.CPU
	if u.Wall <= 0 || u.Cores <= 0 {
		return nil
	}
	c := &report.Client{CPUSeconds: u.Process.Seconds(), Cores: u.Cores, WithService: inProcess, Workers: res.Workers,
		Busy: u.Process.Seconds() / (float64(u.Cores) * u.Wall.Seconds())}
	if u.MachineBusy >= 0 {
		c.MachineBusy = &u.MachineBusy
	}
	if n := rep.Totals.Ops; n > 0 {
		c.CPUPerOpUs = u.Process.Seconds() * 1e6 / float64(n)
	}
	return c
}

// Report builds the report of a run of c and judges the scenario's
// thresholds on its final figures. err is the run's error, if any.
func (c *Config) Report(res *Result, err error, m Meta) *report.Report {
	failure := res.Failure
	if err != nil && failure == "" {
		failure = err.Error()
	}
	info := c.RunInfo()
	info.ID = m.RunID
	info.Clock = "wall"
	if m.Virtual {
		info.Clock = "virtual"
	}
	rep := report.Build(report.Meta{
		Scenario: c.Scenario.DisplayName(), Scheme: c.Schemes[c.Scheme].Name, Target: m.Target, Table: res.Table, Run: info,
		Seed:        seedInfo(res),
		Interrupted: res.Interrupted, Aborted: res.Aborted, Failure: failure, ScenarioSource: m.Source,
		Verify: verifyReport(res.Verify), Outages: outages(res.Outages), Questions: c.QuestionPlans(),
	}, res.Summary)
	rep.Model = m.Model
	if m.Virtual && res.CPU.Wall > 0 {
		// The measured window's virtual seconds per second of wall time
		// (the seed phase, which the model does not time, left out).
		rep.Run.VirtualPerWall = rep.DurationS / res.CPU.Wall.Seconds()
	}
	rep.Client = clientReport(res, rep, m.InProcess)
	if rep.Client != nil {
		rep.Client.Limit = report.JudgeClient(rep)
	}
	if res.Summary != nil {
		// The expressions were validated with the scenario.
		_, _ = rep.EvaluateThresholds(c.Scenario.Exprs())
	}
	return rep
}

// abortCheck returns the check of the scenario's abort_on_fail thresholds
// on the figures so far, or nil when there are none: it names the first
// threshold an observed figure fails. A threshold with nothing observed yet
// does not abort (the run may still observe it).
func (c *Config) abortCheck() func(*metrics.Summary) string {
	var abort []threshold.Threshold
	for _, t := range c.Scenario.Thresholds {
		if th, err := threshold.Parse(t.Expr, nil); err == nil && t.AbortOnFail {
			abort = append(abort, th)
		}
	}
	if len(abort) == 0 {
		return nil
	}
	info := report.RunInfo{PartitionTarget: c.partitionTarget(), PartitionUnits: c.PartitionUnits}
	return func(sum *metrics.Summary) string {
		live := report.Build(report.Meta{Run: info}, sum)
		for _, th := range abort {
			if r := th.Eval(live); !r.OK && r.Missing == "" {
				return fmt.Sprintf("threshold %q failed during the run (observed %s%s)", th.Expr, strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", r.Observed), "0"), "."), th.Unit())
			}
		}
		return ""
	}
}

func verifyReport(v *VerifyResult) *report.Verify {
	if v == nil {
		return nil
	}
	return &report.Verify{Checked: v.Checked, Missing: v.Missing, Mismatched: v.Mismatched, Resurrected: v.Resurrect,
		Unreadable: v.Unreadable, Examples: v.Examples}
}

func outages(os []Outage) []report.Outage {
	var out []report.Outage
	for _, o := range os {
		out = append(out, report.Outage{StartS: o.Start.Seconds(), EndS: o.End.Seconds(), Cause: o.Cause})
	}
	return out
}

// seedInfo is the report's account of the seed phase: what it wrote, or the
// rows counted in a table seeded before.
func seedInfo(res *Result) report.SeedInfo {
	if res.Seed.Reused {
		return report.SeedInfo{Reused: true, Rows: max(res.SeedCounted, 0)}
	}
	return report.SeedInfo{Entities: res.Seed.Entities, Rows: res.Seed.Rows, Partitions: res.Seed.Partitions,
		DurationS: res.Seed.Duration.Seconds(), Throttled: res.Seed.Throttled, Status: res.Seed.Status}
}
