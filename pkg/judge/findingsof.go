package judge

import "github.com/tablestress/tablestress/pkg/azure"

// Findings are every figure of prediction p at the horizon held against
// its limit, Over or not, in Kind order: under Azure Storage's model the
// partition, pass, server and throttling findings, under Cosmos DB's the
// logical partition's and the throttling; the deletion's and monotonic
// keys'; the account's under Azure, the table's request units and
// size under Cosmos DB; the questions' bounds, the batch fill, the
// collisions and the largest partition's rows. The Over ones are what
// keeps the scheme from serving the load.
func (in *Input) Findings(p *Prediction, l Limits) []Finding {
	return in.FindingsAt(p, &p.Figures, l)
}

// FindingsAt are Findings with the figures of one size of the table
// taken from f (p.Seeded: on the seeded table).
func (in *Input) FindingsAt(p *Prediction, f *Figures, l Limits) []Finding {
	h, m := l.Headroom, in.Opts.Model
	var out []Finding
	add := func(x Finding) {
		x.Size = f.Size
		if x.Headroom == 0 {
			x.Headroom = 1
		}
		out = append(out, x)
	}
	t := in.PartitionTarget()
	if in.Cosmos() {
		if c := f.Cosmos; c != nil {
			add(Finding{Kind: HotLogical, Partition: c.BusiestPartition, Value: c.BusiestPerSec, Limit: h * m.Cosmos.LogicalRU, Target: m.Cosmos.LogicalRU, Headroom: h})
		}
	} else {
		add(Finding{Kind: HotPartition, Partition: f.BusiestPartition, Value: f.BusiestEntitiesPerSec, Limit: h * t, Target: t, Headroom: h})
		add(Finding{Kind: PassBurst, Partition: f.BurstPartition, Of: f.BurstOf, Value: f.BurstRows, Limit: in.PassLimit(), Target: in.PassLimit()})
		add(Finding{Kind: ServerBurst, Of: f.ServerPassOf, Value: f.ServerPassRows, Limit: in.ServerPassLimit(), Target: in.ServerPassLimit()})
	}
	add(Finding{Kind: Throttled, Partition: f.ThrottledPartition, Value: f.ThrottledShare, Limit: l.MaxThrottled, Target: l.MaxThrottled, Part: f.ServerThrottledShare})
	if d := p.Deletion; d != nil && !in.Cosmos() {
		if part, v := d.live(); v > 0 {
			add(Finding{Kind: DeletionLoad, Partition: part, Of: d.Retention, Value: v, Limit: h * t, Target: t, Headroom: h})
		}
	}
	if p.Monotonic && p.WriteEntitiesPerSec > 0 {
		add(Finding{Kind: Monotonic, Of: p.MonotonicOrder, Value: p.RangeEntitiesPerSec, Limit: h * m.RangeTarget, Target: m.RangeTarget, Headroom: h})
	}
	if !in.Cosmos() {
		add(in.accountFinding(p, f, h))
	} else if c := f.Cosmos; c != nil {
		add(Finding{Kind: TableUnits, Value: c.TotalPerSec, Limit: h * m.Cosmos.RU, Target: m.Cosmos.RU, Headroom: h})
		b := float64(m.Cosmos.LogicalBytes)
		add(Finding{Kind: LogicalBytes, Value: p.BytesAfterHorizon, Limit: b, Target: b})
	}
	for _, q := range f.Questions {
		add(Finding{Kind: QuestionRequests, Of: q.Name, Plan: q.Label, Value: q.RequestsPerQuestion, Limit: l.MaxQuestionRequests, Target: l.MaxQuestionRequests})
		add(Finding{Kind: QuestionRows, Of: q.Name, Plan: q.Label, Value: q.RowsVisitedPerQuestion, Limit: l.MaxQuestionRows, Target: l.MaxQuestionRows})
	}
	if p.BatchSize > 1 {
		add(Finding{Kind: BatchFill, Value: p.BatchFill, Limit: 0.5 * float64(p.BatchSize), Target: float64(p.BatchSize), Headroom: 0.5})
	}
	add(Finding{Kind: Collisions, Value: float64(p.Collisions)})
	add(Finding{Kind: PartitionRows, Partition: f.LargestPartition, Table: f.largestTable, Bucket: f.largestBucket,
		Value: f.LargestPartitionRows, Limit: l.MaxPartitionRows, Target: l.MaxPartitionRows})
	if !in.Cosmos() {
		// The model's bandwidth (azure.AccountIngressGbps and
		// azure.AccountEgressGbps unless its spec says otherwise), which
		// the embedded service enforces.
		in2, out2 := azure.BytesPerSec(m.IngressGbps), azure.BytesPerSec(m.EgressGbps)
		add(Finding{Kind: AccountIngress, Value: f.IngressBytesPerSec, Limit: h * in2, Target: in2, Headroom: h})
		add(Finding{Kind: AccountEgress, Value: f.EgressBytesPerSec, Limit: h * out2, Target: out2, Headroom: h})
	}
	return out
}

// accountFinding holds the account's requests at size f (deleting old
// data's included) to the headroom's share of its target.
func (in *Input) accountFinding(p *Prediction, f *Figures, h float64) Finding {
	r, part, of := f.AccountRequestsPerSec, 0.0, ""
	if d := p.Deletion; d != nil {
		r += d.AccountRequestsPerSec
		part, of = d.AccountRequestsPerSec, d.Retention
	}
	t := in.Opts.Model.AccountTarget
	return Finding{Kind: AccountRequests, Of: of, Value: r, Limit: h * t, Target: t, Headroom: h, Part: part}
}

// Problems are the findings that are Over.
func Problems(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Over() {
			out = append(out, f)
		}
	}
	return out
}
