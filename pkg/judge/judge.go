package judge

import (
	"context"
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// Figures are what the judge says of a scheme at one size of its table.
type Figures struct {
	// Size is "seeded", "horizon" or "depth"; Entities the entities the
	// table holds; EventTime the event time they span.
	Size      string  `json:"size"`
	Entities  float64 `json:"entities"`
	EventTime string  `json:"event_time"`
	// BusiestPartition is the partition charged the most; its entities/s
	// count what the Table service charges it: entities written, read,
	// and visited by queries. BusiestWriteEntitiesPerSec is the new
	// entities' share of it.
	BusiestPartition           string  `json:"busiest_partition"`
	BusiestEntitiesPerSec      float64 `json:"busiest_entities_per_sec"`
	BusiestWriteEntitiesPerSec float64 `json:"busiest_write_entities_per_sec"`
	// BurstPartition is the partition one query visits the most rows of
	// at once: BurstRows the rows, BurstOf the question (or operation of
	// the mix), BurstEntities those and the partition's load a second
	// besides. A pass over PassLimit is refused part way.
	BurstPartition string  `json:"burst_partition,omitempty"`
	BurstOf        string  `json:"burst_of,omitempty"`
	BurstRows      float64 `json:"burst_rows,omitempty"`
	BurstEntities  float64 `json:"burst_entities,omitempty"`
	// ThrottledShare is the share of the account's requests that
	// partitions refuse while they pay off passes bigger than their
	// bucket holds (the service model's: a query may run a partition a
	// second into debt; its other requests wait), ThrottledPartition the
	// partition refusing the most.
	ThrottledShare     float64 `json:"throttled_share,omitempty"`
	ThrottledPartition string  `json:"throttled_partition,omitempty"`
	// ServerThrottledShare is the part of ThrottledShare that partition
	// servers refuse while they pay off questions that read many
	// partitions at once and the passes that read one partition at a
	// time (servers.go, debt.go); ServerPassRows are the most rows
	// one question visits at once on one server, ServerPassOf that
	// question. A pass over ServerPassLimit is refused part way.
	ServerThrottledShare float64 `json:"server_throttled_share,omitempty"`
	ServerPassRows       float64 `json:"server_pass_rows,omitempty"`
	ServerPassOf         string  `json:"server_pass_of,omitempty"`
	// AccountEntitiesPerSec and AccountRequestsPerSec are the whole
	// workload's, against the account's requests/s target (an entity group
	// transaction counting once, a query page once: pkg/azure).
	AccountEntitiesPerSec float64 `json:"account_entities_per_sec"`
	AccountRequestsPerSec float64 `json:"account_requests_per_sec"`
	// WriteRequestsPerSec are the requests of AccountRequestsPerSec that
	// write new entities (their rows and index rows).
	WriteRequestsPerSec float64 `json:"write_requests_per_sec"`
	// IngressBytesPerSec and EgressBytesPerSec are the bytes a second the
	// account receives (the rows written, index rows included) and sends
	// (the rows questions and reads return), each row weighing what the
	// run sends of it: against the account's bandwidth (azure's
	// AccountIngressGbps, AccountEgressGbps), where entity size matters.
	IngressBytesPerSec float64 `json:"ingress_bytes_per_sec"`
	EgressBytesPerSec  float64 `json:"egress_bytes_per_sec"`
	// LargestPartition is the partition of any of the scheme's tables
	// that holds the most rows, LargestPartitionRows its rows.
	LargestPartition     string  `json:"largest_partition"`
	LargestPartitionRows float64 `json:"largest_partition_rows"`
	// Questions are the scheme's plans and their cost per question.
	Questions []QuestionCost `json:"questions"`
	// QuestionMs is the weighted mean service time of a question, from
	// the model's latency parameters.
	QuestionMs float64 `json:"question_ms"`
	// Cosmos holds the request units, under the Cosmos DB model.
	Cosmos *CosmosUnits `json:"cosmos,omitempty"`

	loads *loads
	// largestTable is the index table LargestPartition is in ("" for the
	// main table), largestBucket that table's time bucket (0 for none).
	largestTable  string
	largestBucket time.Duration
}

// QuestionCost is one question's plan under a scheme and its predicted
// cost per question at one size, each figure the mean over the questions
// asked (weighed by how often each key is asked); RequestsSD and
// RowsVisitedSD are their spread from question to question.
type QuestionCost struct {
	Name                   string  `json:"name"`
	Plan                   string  `json:"plan"`
	Label                  string  `json:"label"`
	Why                    string  `json:"why"`
	PerSec                 float64 `json:"questions_per_sec"`
	PartitionsPerQuestion  float64 `json:"partitions_per_question"`
	RequestsPerQuestion    float64 `json:"requests_per_question"`
	RoundsPerQuestion      float64 `json:"rounds_per_question"`
	RowsVisitedPerQuestion float64 `json:"rows_visited_per_question"`
	RowsPerQuestion        float64 `json:"rows_returned_per_question"`
	RequestsSD             float64 `json:"requests_sd"`
	RowsVisitedSD          float64 `json:"rows_visited_sd"`
	// RefusedPerQuestion are the other requests the partitions refuse,
	// per question asked, while they pay off the debt its passes leave
	// (a pass bigger than a partition's bucket).
	RefusedPerQuestion float64 `json:"refused_per_question,omitempty"`
	// BurstRows are the most rows one of its queries visits of one
	// partition at once, BurstPartition that partition (a pass over
	// Input.PassLimit is refused part way); ServerPassRows the most rows
	// one question visits at once on one partition server (over
	// Input.ServerPassLimit, refused part way). Figures.BurstRows and
	// ServerPassRows are the largest of any question's.
	BurstRows      float64 `json:"burst_rows,omitempty"`
	BurstPartition string  `json:"burst_partition,omitempty"`
	ServerPassRows float64 `json:"server_pass_rows,omitempty"`
	// ChargedEntitiesPerSec are the most entities a second its own reads
	// charge one partition (rows visited, whether they match or not),
	// ChargedPartition that partition: however little else the load asks
	// or writes, that partition takes at least these.
	ChargedEntitiesPerSec float64 `json:"charged_entities_per_sec,omitempty"`
	ChargedPartition      string  `json:"charged_partition,omitempty"`
	// RequestUnitsPerQuestion is under the Cosmos DB model only.
	RequestUnitsPerQuestion float64 `json:"request_units_per_question,omitempty"`
	// Ms is the modelled service time of one question.
	Ms float64 `json:"ms"`
}

// Prediction is what the judge says of one scheme at the peak: its
// figures at the horizon (what advise ranks and judges, at the top
// level), on the seeded table, and what does not depend on the size.
type Prediction struct {
	Figures
	// Seeded are the same figures on the seeded table.
	Seeded *Figures `json:"seeded"`
	// WriteEntitiesPerSec are the new entities' rows written a second,
	// PartitionsWritten the partitions they go to at once.
	WriteEntitiesPerSec float64 `json:"write_entities_per_sec"`
	PartitionsWritten   int     `json:"partitions_written"`
	// Monotonic is set when nine new entities in ten get a PartitionKey
	// beyond every existing one, all served by one range partition;
	// MonotonicOrder says which end ("append-only" or "prepend-only").
	// RangeEntitiesPerSec is what that end range takes a second.
	Monotonic           bool    `json:"monotonic"`
	MonotonicOrder      string  `json:"monotonic_order,omitempty"`
	RangeEntitiesPerSec float64 `json:"range_entities_per_sec"`
	// BatchFill is the entities per entity group transaction the mix's
	// batches get, of BatchSize asked (0 without batches).
	BatchFill float64 `json:"batch_fill,omitempty"`
	BatchSize int     `json:"batch_size,omitempty"`
	// RowsAfterHorizon and BytesAfterHorizon are the busiest written
	// main-table partition's at the horizon (a time bucket stops growing
	// when it closes).
	RowsAfterHorizon  float64 `json:"rows_per_partition_after_horizon"`
	BytesAfterHorizon float64 `json:"bytes_per_partition_after_horizon"`
	// Deletion is what deleting data older than the retention costs
	// (nil without a retention).
	Deletion *Deletion `json:"deletion,omitempty"`
	// Collisions are the entities of a sample whose keys repeat another's,
	// as validate counts them.
	Collisions int `json:"rowkey_collisions"`
}

// judging is one scheme being judged.
type judging struct {
	in     *Input
	scheme *keygen.Scheme
	lays   []*layout // the main table's, then each index table's
	now    keygen.Entity
	item   itemSize
	fill   map[int]float64 // batch fill by mix entry
	p      *Prediction
}

// Judge predicts scheme's load and costs at the peak on the seeded table
// and at the horizon. It stops early when ctx is done.
func (in *Input) Judge(ctx context.Context, scheme *keygen.Scheme) (*Prediction, error) {
	return in.judge(ctx, scheme, nil)
}

// JudgeChecked is Judge of a scheme whose keys the caller has checked as
// Judge does (scheme.Check(in.Pop, max(in.Seeded, 1)), without an
// error): checked is that result, which Judge would work out again.
func (in *Input) JudgeChecked(ctx context.Context, scheme *keygen.Scheme, checked keygen.CheckResult) (*Prediction, error) {
	return in.judge(ctx, scheme, &checked)
}

// judge is Judge, with the keys' check when it is known.
func (in *Input) judge(ctx context.Context, scheme *keygen.Scheme, checked *keygen.CheckResult) (*Prediction, error) {
	j, err := in.judging(scheme)
	if err != nil {
		return nil, err
	}
	// The two sizes are judged at once: they share only what judging
	// prepared (read only) and the input's guarded caches.
	var seeded *Figures
	var seededErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		seeded, seededErr = j.at(ctx, in.SeededSize())
	}()
	h, err := j.at(ctx, in.HorizonSize())
	<-done
	if err == nil {
		err = seededErr
	}
	if err != nil {
		return nil, err
	}
	j.p.Seeded, j.p.Figures = seeded, *h
	j.sizes()
	if in.Opts.Retention > 0 {
		j.p.Deletion = j.deletion(in.HorizonSize())
	}
	if checked == nil {
		res, err := scheme.Check(in.Pop, max(in.Seeded, 1))
		if err != nil {
			return nil, err
		}
		checked = &res
	}
	j.p.Collisions = checked.Collisions
	return j.p, nil
}

// JudgeAt predicts scheme's figures at size s (a proof's depth).
func (in *Input) JudgeAt(ctx context.Context, scheme *keygen.Scheme, s Size) (*Figures, error) {
	j, err := in.judging(scheme)
	if err != nil {
		return nil, err
	}
	return j.at(ctx, s)
}

// judging prepares scheme: its tables' layouts, the first new entity, an
// entity's size, the batches' fill and the writes' shape.
func (in *Input) judging(scheme *keygen.Scheme) (*judging, error) {
	j := &judging{in: in, scheme: scheme, fill: map[int]float64{}, p: &Prediction{}}
	j.lays = append(j.lays, in.newLayout("", scheme.PK, float64(scheme.RowsPerEntity())))
	for _, ix := range scheme.Indexes {
		j.lays = append(j.lays, in.newLayout(ix.Name, ix.PK, 1))
	}
	in.Pop.Entity(in.Seeded, &j.now)
	j.item = sizeOf(in.Pop, scheme, &j.now)
	if err := j.batches(); err != nil {
		return nil, fmt.Errorf("scheme %q: %w", scheme.Name, err)
	}
	j.shape()
	for _, l := range j.lays {
		l.keys() // counted now, not by judgings at once
	}
	return j, nil
}

// at judges the workload on the table at size s.
func (j *judging) at(ctx context.Context, s Size) (*Figures, error) {
	l := newLoads(j.lays, s, j.in.PartitionTarget(), j.in.bucketCap())
	f := &Figures{Size: s.Name, Entities: s.Entities, EventTime: spanText(s.Span), loads: l}
	j.writes(l, s)
	for _, o := range j.in.Mix {
		switch o.Kind {
		case metrics.Insert, metrics.Batch, metrics.Question:
		case metrics.TableScan:
			j.tableScan(l, s, o)
		default:
			j.picked(l, s, o)
		}
	}
	if err := j.questions(ctx, l, s, f); err != nil {
		return nil, fmt.Errorf("scheme %q: %w", j.scheme.Name, err)
	}
	j.summarize(f, s)
	return f, nil
}

// spanText writes an event time span: "3m20s", "365d".
func spanText(d time.Duration) string {
	day := 24 * time.Hour
	if d >= day {
		d = d.Round(time.Second) // a lifetime derived from rates is a float's
		return fmt.Sprintf("%gd", float64(d)/float64(day))
	}
	return d.Round(time.Millisecond).String()
}
