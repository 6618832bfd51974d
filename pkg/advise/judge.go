package advise

import (
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// Prediction is what the judge says of one scheme at the peak, without a
// server.
type Prediction struct {
	// BusiestPartition is the partition charged the most; its entities/s
	// count what the Table service charges it: entities written, read,
	// and visited by queries. BusiestWriteEntitiesPerSec is the new
	// entities' share of it.
	BusiestPartition           string  `json:"busiest_partition"`
	BusiestEntitiesPerSec      float64 `json:"busiest_entities_per_sec"`
	BusiestWriteEntitiesPerSec float64 `json:"busiest_write_entities_per_sec"`
	// AccountEntitiesPerSec and AccountRequestsPerSec are the whole
	// workload's, against the account's 20,000 requests/s (an entity group
	// transaction counting once).
	AccountEntitiesPerSec float64 `json:"account_entities_per_sec"`
	AccountRequestsPerSec float64 `json:"account_requests_per_sec"`
	// WriteEntitiesPerSec are the new entities written a second (rows
	// included), PartitionsWritten the partitions they go to at once.
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
	// partition's after the horizon of event time, as the population
	// grows (an entity per interval; a time bucket stops growing when it
	// closes).
	RowsAfterHorizon  float64 `json:"rows_per_partition_after_horizon"`
	BytesAfterHorizon float64 `json:"bytes_per_partition_after_horizon"`
	// Questions are the scheme's plans and their cost per question.
	Questions []QuestionCost `json:"questions"`
	// QuestionMs is the weighted mean service time of a question, from
	// the model's latency parameters: the cost axis of the ranking.
	QuestionMs float64 `json:"question_ms"`
	// Collisions are the entities of a sample whose keys repeat another's,
	// as validate counts them.
	Collisions int `json:"rowkey_collisions"`
	// Cosmos holds the request units, under the Cosmos DB model.
	Cosmos *CosmosUnits `json:"cosmos,omitempty"`

	loads *loads
	write shape
}

// QuestionCost is one question's plan under a scheme and its predicted
// cost per question.
type QuestionCost struct {
	Name                   string  `json:"name"`
	Plan                   string  `json:"plan"`
	Label                  string  `json:"label"`
	Why                    string  `json:"why"`
	PartitionsPerQuestion  float64 `json:"partitions_per_question"`
	RequestsPerQuestion    float64 `json:"requests_per_question"`
	RowsVisitedPerQuestion float64 `json:"rows_visited_per_question"`
	RowsPerQuestion        float64 `json:"rows_returned_per_question"`
	// PartitionsAfterHorizon and RequestsAfterHorizon are what a question
	// that asks every time bucket of its partitions takes once the data
	// spans the horizon (0 when it does not grow).
	PartitionsAfterHorizon float64 `json:"partitions_per_question_after_horizon,omitempty"`
	RequestsAfterHorizon   float64 `json:"requests_per_question_after_horizon,omitempty"`
	// RequestUnitsPerQuestion is under the Cosmos DB model only.
	RequestUnitsPerQuestion float64 `json:"request_units_per_question,omitempty"`
	// Ms is the modelled service time of one question (after the
	// horizon, for one that grows).
	Ms float64 `json:"ms"`
	// rounds are the requests per question one after another (serviceMs).
	rounds float64
}

// judging is one scheme being judged.
type judging struct {
	in     *Input
	scheme *keygen.Scheme
	seeded *seededTable
	now    keygen.Entity // the first new entity
	rows   float64       // main-table rows per entity
	item   itemSize
	fill   map[int]float64 // batch fill by mix entry
	picks  map[string][]float64
	l      *loads
	p      *Prediction
}

// Judge predicts scheme's load and costs at the peak.
func (in *Input) Judge(scheme *keygen.Scheme) (*Prediction, error) {
	j := &judging{in: in, scheme: scheme, rows: float64(scheme.RowsPerEntity()), fill: map[int]float64{},
		picks: map[string][]float64{}, l: newLoads(), p: &Prediction{}}
	j.seeded = newSeeded(in.Pop, scheme, in.Seeded)
	in.Pop.Entity(in.Seeded, &j.now)
	j.item = sizeOf(in.Pop, scheme, &j.now)
	if err := j.batches(); err != nil {
		return nil, fmt.Errorf("scheme %q: %w", scheme.Name, err)
	}
	j.writes()
	for _, o := range in.Mix {
		switch o.Kind {
		case metrics.Insert, metrics.Batch:
		case metrics.TableScan:
			j.tableScan(o)
		case metrics.Question:
		default:
			j.picked(o)
		}
	}
	if err := j.questions(); err != nil {
		return nil, fmt.Errorf("scheme %q: %w", scheme.Name, err)
	}
	j.summarize()
	res, err := scheme.Check(in.Pop, max(in.Seeded, 1))
	if err != nil {
		return nil, err
	}
	j.p.Collisions = res.Collisions
	return j.p, nil
}

// span is the event time a second of new entities covers at the peak.
func (j *judging) span(w float64) time.Duration {
	return time.Duration(w * float64(j.in.Pop.Spec().Interval))
}
