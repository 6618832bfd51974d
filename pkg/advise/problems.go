package advise

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// hot reports whether a prediction's busiest partition is over the
// headroom share of its target: Azure's entities/s per partition, or
// under Cosmos DB a logical partition's request units.
func (in *Input) hot(p *Prediction) bool {
	h := in.Opts.Headroom
	if in.Cosmos() {
		return p.Cosmos.BusiestPerSec > h*in.Opts.Model.Cosmos.LogicalRU
	}
	return p.BusiestEntitiesPerSec > h*in.PartitionTarget()
}

// problems says why a judged candidate cannot be recommended, each in
// words with the figures that decide it.
func (in *Input) problems(c *Candidate) []string {
	p, h := c.Prediction, in.Opts.Headroom
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	pct := textfit.Float(h*100) + "%"
	if in.hot(p) && in.Cosmos() {
		add("hot: logical partition %q would be charged %s RU/s at the peak, over %s of its %s RU/s", p.Cosmos.BusiestPartition,
			textfit.Rate(p.Cosmos.BusiestPerSec), pct, textfit.Rate(in.Opts.Model.Cosmos.LogicalRU))
	} else if in.hot(p) {
		add("hot: partition %q would take %s entities/s at the peak, over %s of the %s entities/s partition target", p.BusiestPartition,
			textfit.Rate(p.BusiestEntitiesPerSec), pct, textfit.Rate(in.PartitionTarget()))
	}
	if p.Monotonic && p.WriteEntitiesPerSec > 0 {
		add("%s PartitionKeys: all %s new entities/s land beyond every existing key, on one range partition, whose server caps them near %s entities/s however many partitions there are (seed 002, \"Range partitions\")",
			p.MonotonicOrder, textfit.Rate(p.RangeEntitiesPerSec), textfit.Rate(in.Opts.Model.RangeTarget))
	}
	if !in.Cosmos() && p.AccountRequestsPerSec > h*in.Opts.Model.AccountTarget {
		add("the account would take %s requests/s, over %s of its %s requests/s target", textfit.Rate(p.AccountRequestsPerSec), pct, textfit.Rate(in.Opts.Model.AccountTarget))
	}
	if in.Cosmos() && p.Cosmos.TotalPerSec > h*in.Opts.Model.Cosmos.RU {
		add("the table would be charged %s RU/s, over %s of the %s RU/s provisioned", textfit.Rate(p.Cosmos.TotalPerSec), pct, textfit.Rate(in.Opts.Model.Cosmos.RU))
	}
	if in.Cosmos() && p.BytesAfterHorizon > float64(in.Opts.Model.Cosmos.LogicalBytes) {
		add("a logical partition would hold %s after %s, over Cosmos DB's %s limit", bytesText(p.BytesAfterHorizon), durationText(in.Opts.Horizon),
			bytesText(float64(in.Opts.Model.Cosmos.LogicalBytes)))
	}
	for _, q := range p.Questions {
		if b := in.Opts.MaxQuestionRequests; b > 0 && q.RequestsPerQuestion > b {
			add("%s takes %s requests a question (%s), over the bound of %s", q.Name, textfit.Float(round1(q.RequestsPerQuestion)), q.Label, textfit.Float(b))
		}
		if b := in.Opts.MaxQuestionRows; b > 0 && q.RowsVisitedPerQuestion > b {
			add("%s visits %s rows a question (%s), over the bound of %s", q.Name, textfit.Rate(q.RowsVisitedPerQuestion), q.Label, textfit.Float(b))
		}
	}
	if p.BatchSize > 1 && p.BatchFill < 0.5*float64(p.BatchSize) {
		add("entity group transactions hold %s of the %d entities asked: too few new entities share a PartitionKey (a transaction needs one)", textfit.Float(round1(p.BatchFill)), p.BatchSize)
	}
	if p.Collisions > 0 {
		add("%d RowKey collisions in the sample validate checks: those inserts fail with 409", p.Collisions)
	}
	return out
}
