package advise

import (
	"fmt"
	"math"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// hot reports whether a prediction's busiest partition is over the
// headroom share of its target (Azure's entities/s per partition, or
// under Cosmos DB a logical partition's request units), a query's pass
// overruns a partition's second, or passes run partitions into debt
// that refuses more than MaxThrottled of the requests.
func (in *Input) hot(p *Prediction) bool {
	h := in.Opts.Headroom
	if in.Cosmos() {
		return p.Cosmos.BusiestPerSec > h*in.Opts.Model.Cosmos.LogicalRU
	}
	return p.BusiestEntitiesPerSec > h*in.PartitionTarget() || in.burst(p) || in.serverBurst(p) || p.ThrottledShare > MaxThrottled
}

// burst reports whether a query visits more rows of one partition at
// once than the service model lets one pass run (PassLimit): the rest of
// the pass is refused.
func (in *Input) burst(p *Prediction) bool {
	return !in.Cosmos() && p.BurstRows > in.PassLimit()
}

// serverBurst reports whether a question visits more rows at once on one
// partition server than the service model lets it (ServerPassLimit).
func (in *Input) serverBurst(p *Prediction) bool {
	return !in.Cosmos() && p.ServerPassRows > in.ServerPassLimit()
}

// hotPartition is the partition that makes a prediction hot: the
// busiest when it is over the headroom, else the one a query's pass
// overruns, else the one refusing the most requests in debt.
func (in *Input) hotPartition(p *Prediction) string {
	switch {
	case p.BusiestEntitiesPerSec > in.Opts.Headroom*in.PartitionTarget():
		return p.BusiestPartition
	case in.burst(p):
		return p.BurstPartition
	case p.ThrottledShare > MaxThrottled:
		return p.ThrottledPartition
	}
	return p.BusiestPartition
}

// strainWords says what makes a prediction hot other than its busiest
// partition: a pass too big to serve, or refusals while partitions pay
// passes off.
func (in *Input) strainWords(p *Prediction) string {
	if in.burst(p) {
		return fmt.Sprintf("%s would visit %s rows of partition %q at once, over the %s one query can read", p.BurstOf, textfit.Big(p.BurstRows), p.BurstPartition, textfit.Big(in.PassLimit()))
	}
	return fmt.Sprintf("%s of the requests would be refused while partitions pay passes off, most on %q", pctText(p.ThrottledShare), p.ThrottledPartition)
}

// strain is how far a prediction's partitions are from hot, as the
// largest of its busiest partition's share of the headroom, its largest
// pass's share of PassLimit and its refused requests' share of
// MaxThrottled (1 at the limit).
func (in *Input) strain(p *Prediction) float64 {
	t := in.PartitionTarget()
	if in.Cosmos() {
		return p.Cosmos.BusiestPerSec / (in.Opts.Headroom * in.Opts.Model.Cosmos.LogicalRU)
	}
	return max(p.BusiestEntitiesPerSec/(in.Opts.Headroom*t), p.BurstRows/in.PassLimit(), p.ServerPassRows/in.ServerPassLimit(), p.ThrottledShare/MaxThrottled)
}

// accountRequests are the requests/s a prediction asks of the account at
// the horizon: the workload's and, with a retention, its deletion's.
func accountRequests(p *Prediction) float64 {
	r := p.AccountRequestsPerSec
	if p.Deletion != nil {
		r += p.Deletion.AccountRequestsPerSec
	}
	return r
}

// problems says why a judged candidate cannot be recommended, each in
// words with the figures that decide it, and sets how far over its
// limits it is (Candidate.Over: the largest ratio of a figure to its
// limit).
func (in *Input) problems(c *Candidate) []string {
	p, h := c.Prediction, in.Opts.Headroom
	var out []string
	c.Over = 0
	over := func(value, limit float64) bool {
		if limit > 0 && value > limit {
			c.Over = math.Max(c.Over, value/limit)
			return true
		}
		return false
	}
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	pct := textfit.Float(h*100) + "%"
	if in.Cosmos() && over(p.Cosmos.BusiestPerSec, h*in.Opts.Model.Cosmos.LogicalRU) {
		add("hot: logical partition %q would be charged %s RU/s at the peak, over %s of its %s RU/s", p.Cosmos.BusiestPartition,
			textfit.Big(p.Cosmos.BusiestPerSec), pct, textfit.Big(in.Opts.Model.Cosmos.LogicalRU))
	} else if !in.Cosmos() && over(p.BusiestEntitiesPerSec, h*in.PartitionTarget()) {
		add("hot: partition %q would take %s entities/s at the peak, over %s of the %s entities/s partition target", p.BusiestPartition,
			textfit.Big(p.BusiestEntitiesPerSec), pct, textfit.Big(in.PartitionTarget()))
	}
	if in.burst(p) && over(p.BurstRows, in.PassLimit()) {
		add("hot: %s visits %s rows of partition %q at once, over the %s one query can read before the partition, a second into debt at %s entities/s, refuses the rest",
			p.BurstOf, textfit.Big(p.BurstRows), p.BurstPartition, textfit.Big(in.PassLimit()), textfit.Big(in.PartitionTarget()))
	}
	if in.serverBurst(p) && over(p.ServerPassRows, in.ServerPassLimit()) {
		add("hot: %s visits about %s rows at once on its busiest partition server, over the %s one question can read before the server (%s servers of %s entities/s, a model assumption) refuses the rest",
			p.ServerPassOf, textfit.Big(p.ServerPassRows), textfit.Big(in.ServerPassLimit()), textfit.Int(int64(in.Opts.Model.Servers)), textfit.Big(in.Opts.Model.ServerTarget))
	}
	if over(p.ThrottledShare, MaxThrottled) {
		add("throttled: queries that visit more rows of a partition (or of a partition server) at once than its bucket holds run it into debt, and it refuses its other requests until paid: %s of the requests (%s on partition servers), most on partition %q",
			textfit.Float(textfit.Round2(100*p.ThrottledShare))+"%", textfit.Float(textfit.Round2(100*p.ServerThrottledShare))+"%", p.ThrottledPartition)
	}
	if d := p.Deletion; d != nil && !in.Cosmos() && over(d.BusiestEntitiesPerSec, h*in.PartitionTarget()) {
		add("deleting data older than %s would take %s entities/s of partition %q, over %s of the %s entities/s partition target", d.Retention,
			textfit.Big(d.BusiestEntitiesPerSec), d.BusiestPartition, pct, textfit.Big(in.PartitionTarget()))
	}
	if p.Monotonic && p.WriteEntitiesPerSec > 0 {
		// Never recommended for a load that writes, however light: the
		// end range partition takes every insert as the load grows.
		c.Over = math.Max(c.Over, math.Max(1+1e-9, p.RangeEntitiesPerSec/(h*in.Opts.Model.RangeTarget)))
		add("%s PartitionKeys: all %s new entities/s land beyond every existing key, on one range partition, whose server caps them near %s entities/s however many partitions there are (seed 002, \"Range partitions\")",
			p.MonotonicOrder, textfit.Big(p.RangeEntitiesPerSec), textfit.Big(in.Opts.Model.RangeTarget))
	}
	if r := accountRequests(p); !in.Cosmos() && over(r, h*in.Opts.Model.AccountTarget) {
		deletion := ""
		if p.Deletion != nil && p.Deletion.AccountRequestsPerSec > 0 {
			deletion = fmt.Sprintf(" (%s of them deleting data older than %s)", textfit.Big(p.Deletion.AccountRequestsPerSec), p.Deletion.Retention)
		}
		add("the account would take %s requests/s%s, over %s of its %s requests/s target", textfit.Big(r), deletion, pct, textfit.Big(in.Opts.Model.AccountTarget))
	}
	for _, b := range bandwidths(p) {
		if !in.Cosmos() && over(b.bytes, h*azure.BytesPerSec(b.gbps)) {
			add("the account would %s %s/s, over %s of the %s Gbps %s target of a storage account (Azure Storage scalability targets for standard storage accounts)",
				b.verb, bytesText(b.bytes), pct, textfit.Float(b.gbps), b.name)
		}
	}
	if in.Cosmos() && over(p.Cosmos.TotalPerSec, h*in.Opts.Model.Cosmos.RU) {
		add("the table would be charged %s RU/s, over %s of the %s RU/s provisioned", textfit.Big(p.Cosmos.TotalPerSec), pct, textfit.Big(in.Opts.Model.Cosmos.RU))
	}
	if in.Cosmos() && over(p.BytesAfterHorizon, float64(in.Opts.Model.Cosmos.LogicalBytes)) {
		add("a logical partition would hold %s after %s, over Cosmos DB's %s limit", bytesText(p.BytesAfterHorizon), durationText(in.Opts.Horizon),
			bytesText(float64(in.Opts.Model.Cosmos.LogicalBytes)))
	}
	for _, q := range p.Questions {
		if b := in.Opts.MaxQuestionRequests; over(q.RequestsPerQuestion, b) {
			add("%s takes %s requests a question (%s), over the bound of %s", q.Name, textfit.Float(round1(q.RequestsPerQuestion)), q.Label, textfit.Float(b))
		}
		if b := in.Opts.MaxQuestionRows; over(q.RowsVisitedPerQuestion, b) {
			add("%s visits %s rows a question (%s), over the bound of %s", q.Name, textfit.Big(q.RowsVisitedPerQuestion), q.Label, textfit.Float(b))
		}
	}
	if p.BatchSize > 1 && over(0.5*float64(p.BatchSize), p.BatchFill) {
		add("entity group transactions hold %s of the %d entities asked: too few new entities share a PartitionKey (a transaction needs one)", textfit.Float(round1(p.BatchFill)), p.BatchSize)
	}
	if p.Collisions > 0 {
		over(1+float64(p.Collisions), 1)
		add("%d RowKey collisions in the sample validate checks: those inserts fail with 409", p.Collisions)
	}
	return out
}

// bandwidth is one of the account's bandwidth targets and what a
// prediction asks of it.
type bandwidth struct {
	name, verb string
	gbps       float64 // the target, in gigabits a second
	bytes      float64 // asked, in bytes a second
}

// bandwidths are a prediction's ingress (rows written) and egress (rows
// returned) against the account's default targets (pkg/azure): where
// entities are large, the account's limit is its bandwidth, not a count
// of rows.
func bandwidths(p *Prediction) []bandwidth {
	return []bandwidth{
		{"ingress", "receive", azure.AccountIngressGbps, p.IngressBytesPerSec},
		{"egress", "send", azure.AccountEgressGbps, p.EgressBytesPerSec},
	}
}
