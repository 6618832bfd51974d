package judge

import (
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Words says a finding in words, with the figures that decide it: the one
// place findings are written, for keys and advise. A finding on the
// seeded table says so.
func (in *Input) Words(f Finding) string {
	m := in.Opts.Model
	var s string
	switch f.Kind {
	case HotLogical:
		s = fmt.Sprintf("hot: logical partition %q would be charged %s RU/s at the peak, over %sits %s RU/s", f.Partition,
			textfit.Big(f.Value), f.share(), textfit.Big(f.Target))
	case HotPartition:
		s = fmt.Sprintf("hot: partition %q would take %s entities/s at the peak, over %sthe %s entities/s partition target", f.Partition,
			textfit.Big(f.Value), f.share(), textfit.Big(f.Target))
	case PassBurst:
		s = fmt.Sprintf("hot: %s visits %s rows of partition %q at once, over the %s one query can read before the partition, a second into debt at %s entities/s, refuses the rest",
			f.Of, textfit.Big(f.Value), f.Partition, textfit.Big(f.Limit), textfit.Big(in.PartitionTarget()))
	case ServerBurst:
		s = fmt.Sprintf("hot: %s visits about %s rows at once on its busiest partition server, over the %s one question can read before the server (%s servers of %s entities/s, a model assumption) refuses the rest",
			f.Of, textfit.Big(f.Value), textfit.Big(f.Limit), textfit.Int(int64(m.Servers)), textfit.Big(m.ServerTarget))
	case Throttled:
		s = fmt.Sprintf("throttled: queries that visit more rows of a partition (or of a partition server) at once than its bucket holds run it into debt, and it refuses its other requests until paid: %s of the requests (%s on partition servers), most on partition %q",
			percent(f.Value), percent(f.Part), f.Partition)
	case DeletionLoad:
		s = fmt.Sprintf("deleting data older than %s would take %s entities/s of partition %q, over %sthe %s entities/s partition target", f.Of,
			textfit.Big(f.Value), f.Partition, f.share(), textfit.Big(f.Target))
	case PartitionRows:
		s = in.rowsWords(f)
	default:
		s = workloadWords(f, in.Opts.Horizon)
	}
	if f.Size == "seeded" {
		s += " (on the seeded table)"
	}
	return s
}

// Brief says a pass burst or a throttling finding in a clause, as a
// reason a scheme with fewer hash buckets is hot: "Q would visit N rows
// of partition P at once, over the M one query can read", "S of the
// requests would be refused while partitions pay passes off, most on P";
// Words for any other kind.
func (in *Input) Brief(f Finding) string {
	switch f.Kind {
	case PassBurst:
		return fmt.Sprintf("%s would visit %s rows of partition %q at once, over the %s one query can read", f.Of, textfit.Big(f.Value), f.Partition, textfit.Big(f.Limit))
	case Throttled:
		return fmt.Sprintf("%s of the requests would be refused while partitions pay passes off, most on %q", textfit.Float(f.Value*100)+"%", f.Partition)
	}
	return in.Words(f)
}

// workloadWords says the findings of the workload as a whole: monotonic
// keys, the account, the table's request units and size over horizon,
// the questions' bounds, the batches and the collisions.
func workloadWords(f Finding, horizon time.Duration) string {
	switch f.Kind {
	case Monotonic:
		return fmt.Sprintf("%s PartitionKeys: all %s new entities/s land beyond every existing key, on one range partition, whose server caps them near %s entities/s however many partitions there are (the partitioning guide, \"Range partitions\")",
			f.Of, textfit.Big(f.Value), textfit.Big(f.Target))
	case AccountRequests:
		deletion := ""
		if f.Part > 0 {
			deletion = fmt.Sprintf(" (%s of them deleting data older than %s)", textfit.Big(f.Part), f.Of)
		}
		return fmt.Sprintf("the account would take %s requests/s%s, over %sits %s requests/s target", textfit.Big(f.Value), deletion, f.share(), textfit.Big(f.Target))
	case AccountIngress, AccountEgress:
		verb, name := "receive", "ingress"
		if f.Kind == AccountEgress {
			verb, name = "send", "egress"
		}
		return fmt.Sprintf("the account would %s %s/s, over %sthe %s Gbps %s target of a standard storage account (Azure Storage, \"Scalability and performance targets for standard storage accounts\")",
			verb, textfit.Bytes(f.Value), f.share(), textfit.Float(f.Target*8/1e9), name)
	case TableUnits:
		return fmt.Sprintf("the table would be charged %s RU/s, over %sthe %s RU/s provisioned", textfit.Big(f.Value), f.share(), textfit.Big(f.Target))
	case LogicalBytes:
		return fmt.Sprintf("a logical partition would hold %s after %s, over Cosmos DB's %s limit", textfit.Bytes(f.Value), textfit.Duration(horizon), textfit.Bytes(f.Target))
	case QuestionRequests:
		return fmt.Sprintf("%s takes %s requests a question (%s), over the bound of %s", f.Of, textfit.Float(round1(f.Value)), f.Plan, textfit.Float(f.Limit))
	case QuestionRows:
		return fmt.Sprintf("%s visits %s rows a question (%s), over the bound of %s", f.Of, textfit.Big(f.Value), f.Plan, textfit.Float(f.Limit))
	case BatchFill:
		return fmt.Sprintf("entity group transactions hold %s of the %d entities asked: too few new entities share a PartitionKey (a transaction needs one)",
			textfit.Float(round1(f.Value)), int(f.Target))
	case Collisions:
		return fmt.Sprintf("%d RowKey collisions in the sample validate checks: those inserts fail with 409", int(f.Value))
	}
	return fmt.Sprintf("%v: %s over %s", f.Kind, textfit.Big(f.Value), textfit.Big(f.Limit))
}

// rowsWords says how the largest partition outgrows the bound on rows: a
// PartitionKey without a time bucket keeps growing over the data's life
// (the horizon, or the retention when shorter); one with a time bucket
// fills each bucket past the bound. Of, when set, names a scheme that
// stays under it.
func (in *Input) rowsWords(f Finding) string {
	rows, bound := textfit.Big(f.Value), textfit.Big(f.Limit)
	table := ""
	if f.Table != "" {
		table = " of index table " + f.Table
	}
	life := in.Opts.Horizon
	if r := in.Opts.Retention; r > 0 && r < life {
		life = r
	}
	var s string
	if f.Bucket > 0 && f.Bucket < life {
		s = fmt.Sprintf("its partitions grow too large: the largest%s, %q, holds %s rows in its time bucket (%s of event time), over the bound of %s", table, f.Partition, rows, UnitWords(f.Bucket), bound)
	} else {
		s = fmt.Sprintf("its partitions keep growing: the largest%s, %q, holds %s rows after %s, over the bound of %s", table, f.Partition, rows, textfit.Duration(life), bound)
	}
	if f.Of != "" {
		s += "; " + f.Of + " stays under it"
	}
	return s
}

// share is the headroom before "the" or "its" of a target: "" when the
// limit is all of it, else "70% of ".
func (f Finding) share() string {
	if f.Headroom == 1 {
		return ""
	}
	return textfit.Float(f.Headroom*100) + "% of "
}

// percent writes a share as a percentage to a hundredth: 1.25%.
func percent(f float64) string { return textfit.Float(textfit.Round2(100*f)) + "%" }

// round1 rounds to one decimal.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// UnitWords names a length by its calendar unit when it is one's (a
// month's mean length is a month): "an hour", "a month"; else as a
// duration.
func UnitWords(d time.Duration) string {
	for u := keygen.Minute; u <= keygen.Year; u++ {
		if u.Mean() == d {
			return textfit.Article(u.String()) + " " + u.String()
		}
	}
	return textfit.Duration(d)
}
