package judge

import (
	"math"
	"slices"
	"time"
)

// Kind is what a Finding judges.
type Kind int

// The kinds of finding, in the order Findings lists them.
const (
	// HotPartition: the busiest partition's entities/s against the
	// headroom's share of the partition target.
	HotPartition Kind = iota + 1
	// HotLogical: under Cosmos DB, the busiest logical partition's RU/s
	// against the headroom's share of a logical partition's.
	HotLogical
	// PassBurst: the most rows one query visits of a partition at once
	// against what one pass can read (Input.PassLimit).
	PassBurst
	// ServerBurst: the most rows one question visits at once on one
	// partition server against Input.ServerPassLimit.
	ServerBurst
	// Throttled: the share of the requests partitions refuse while they
	// pay passes off, against Limits.MaxThrottled.
	Throttled
	// DeletionLoad: the partition deleting old data charges the most,
	// against the headroom's share of the partition target.
	DeletionLoad
	// Monotonic: new PartitionKeys all land beyond the existing ones, on
	// one range partition, whose target Value is held to: over whatever
	// its rate while the load writes (the end range takes every insert as
	// the load grows).
	Monotonic
	// AccountRequests: the account's requests/s (deleting old data's
	// included) against the headroom's share of its target.
	AccountRequests
	// TableUnits: under Cosmos DB, the table's RU/s against the
	// headroom's share of what is provisioned.
	TableUnits
	// LogicalBytes: under Cosmos DB, the bytes the busiest logical
	// partition holds at the horizon against the most it may hold.
	LogicalBytes
	// QuestionRequests and QuestionRows: a question's requests, and rows
	// visited, against Limits' bound (none when the bound is 0).
	QuestionRequests
	QuestionRows
	// BatchFill: the entities an entity group transaction gets, against
	// half those asked: a floor, not a ceiling.
	BatchFill
	// Collisions: RowKeys of a sample that repeat another's, against
	// none.
	Collisions
	// PartitionRows: the largest partition's rows at the horizon against
	// Limits.MaxPartitionRows (none when 0).
	PartitionRows
	// AccountIngress and AccountEgress: under Azure, the bytes a second
	// the account receives (rows written) and sends (rows returned)
	// against the headroom's share of a standard account's bandwidth
	// (azure.AccountIngressGbps, AccountEgressGbps): where entity size
	// matters, the account's limit is its bandwidth, not a count of rows.
	AccountIngress
	AccountEgress
)

// kindNames are the kinds' names, as JSON writes them.
var kindNames = [...]string{HotPartition: "hot_partition", HotLogical: "hot_logical_partition", PassBurst: "pass_burst",
	ServerBurst: "server_burst", Throttled: "throttled", DeletionLoad: "deletion_load", Monotonic: "monotonic",
	AccountRequests: "account_requests", TableUnits: "table_request_units", LogicalBytes: "logical_partition_bytes",
	QuestionRequests: "question_requests", QuestionRows: "question_rows", BatchFill: "batch_fill", Collisions: "rowkey_collisions",
	PartitionRows: "partition_rows", AccountIngress: "account_ingress", AccountEgress: "account_egress"}

// String is the kind's name: hot_partition, pass_burst, ...
func (k Kind) String() string {
	if k < 1 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// load are the kinds of a partition's (or a partition server's) load,
// which spreading keys over more partitions may relieve; hot adds the
// refusals such load causes.
var (
	load = [...]Kind{HotPartition, HotLogical, PassBurst, ServerBurst}
	hot  = [...]Kind{HotPartition, HotLogical, PassBurst, ServerBurst, Throttled}
	// sized are the kinds whose figures depend on the table's size (the
	// others are the workload's, or the horizon's).
	sized = [...]Kind{HotPartition, HotLogical, PassBurst, ServerBurst, Throttled, AccountRequests, TableUnits, QuestionRequests, QuestionRows}
)

// Finding is one figure the judge holds against its limit: what it is,
// where, its value, the limit it is judged by and the target that limit
// is the Headroom's share of. Input.Words says it in words.
type Finding struct {
	Kind Kind `json:"kind"`
	// Partition is the partition it names ("" when none); Table, for
	// PartitionRows, the index table it is in ("" for the main table) and
	// Bucket that table's time bucket.
	Partition string        `json:"partition,omitempty"`
	Table     string        `json:"table,omitempty"`
	Bucket    time.Duration `json:"-"`
	// Of is the query or question it concerns (a burst's, a question
	// bound's), the order of monotonic keys, the retention of a deletion,
	// or the scheme whose partitions stay under the bound; Plan a
	// question's plan, in words.
	Of   string `json:"of,omitempty"`
	Plan string `json:"plan,omitempty"`
	// Value is the figure judged and Limit what it is judged against,
	// Headroom's share of Target (1 for a bound: Limit is Target).
	Value    float64 `json:"value"`
	Limit    float64 `json:"limit"`
	Target   float64 `json:"target"`
	Headroom float64 `json:"headroom"`
	// Part is the part of Value a second cause makes: the share of
	// refusals partition servers make, the requests deleting old data
	// asks of the account.
	Part float64 `json:"part,omitempty"`
	// Size is the table it was judged on: "horizon", "seeded" or "depth".
	Size string `json:"size"`
}

// Over reports whether the finding is a problem: its value over its
// limit (a batch fill under it; any collision; monotonic keys whenever
// the load writes).
func (f Finding) Over() bool {
	switch f.Kind {
	case Monotonic:
		return true
	case BatchFill:
		return f.Value > 0 && f.Value < f.Limit
	case Collisions:
		return f.Value > 0
	}
	return f.Limit > 0 && f.Value > f.Limit
}

// Ratio is how far the finding is from its limit: 1 at it, more beyond
// (monotonic keys just beyond 1 however light their load, so that they
// are never recommended; a collision 2); 0 without a limit.
func (f Finding) Ratio() float64 {
	switch f.Kind {
	case Monotonic:
		return math.Max(1+1e-9, f.Value/f.Limit)
	case BatchFill:
		if f.Value > 0 {
			return f.Limit / f.Value
		}
		return 0
	case Collisions:
		return 1 + f.Value
	}
	if f.Limit > 0 {
		return f.Value / f.Limit
	}
	return 0
}

// Load reports whether the finding is of a partition's (or server's)
// load, which spreading keys over more partitions may relieve.
func (f Finding) Load() bool { return slices.Contains(load[:], f.Kind) }

// Hot reports whether the finding makes partitions hot: their load, or
// the refusals it causes.
func (f Finding) Hot() bool { return slices.Contains(hot[:], f.Kind) }

// Sized reports whether the finding's figure depends on the table's size.
func (f Finding) Sized() bool { return slices.Contains(sized[:], f.Kind) }

// Limits are what Findings hold a prediction to.
type Limits struct {
	// Headroom is the share of each target a figure may take (1: all of
	// it).
	Headroom float64
	// MaxThrottled is the largest share of the requests partitions may
	// refuse.
	MaxThrottled float64
	// MaxQuestionRequests and MaxQuestionRows bound a question's requests
	// and rows visited, MaxPartitionRows a partition's rows at the
	// horizon (0: no bound).
	MaxQuestionRequests, MaxQuestionRows, MaxPartitionRows float64
}
