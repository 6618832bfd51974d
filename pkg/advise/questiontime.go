package advise

import (
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// MaxQuestionTime is the longest one question may take, of its modelled
// service time or of one partition's budget, before no design can serve
// it, however rarely it is asked: an application waiting minutes for an
// answer, or a partition spending minutes of its target on one question
// while its other requests are refused, is not served whatever the
// account can do.
const MaxQuestionTime = time.Minute

// questionTime is how long one question of cost qc takes: the longer of
// its modelled service time (its requests one after another, qc.Ms) and
// the time one of its partitions needs to visit its share of the rows at
// the partition target (its rows visited spread over the partitions it
// reads, at once). Under Cosmos DB only the service time counts.
func (in *Input) questionTime(qc judge.QuestionCost) time.Duration {
	secs := msSeconds(qc.Ms)
	if !in.Cosmos() && in.PartitionTarget() > 0 {
		secs = math.Max(secs, partitionSeconds(qc, in.PartitionTarget()))
	}
	return secondsDuration(secs)
}

// partitionSeconds is the seconds of one partition's target (entities/s)
// a question of cost qc spends: its rows visited over the partitions it
// reads.
func partitionSeconds(qc judge.QuestionCost, target float64) float64 {
	return qc.RowsVisitedPerQuestion / math.Max(qc.PartitionsPerQuestion, 1) / target
}

// secondsDuration converts seconds to a Duration, saturating at the
// largest one.
func secondsDuration(secs float64) time.Duration {
	if !(secs < float64(math.MaxInt64)/float64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(secs * float64(time.Second))
}

// timeWhy says which of questionTime's figures decides it: the seconds of
// one partition's target or the modelled service time.
func (in *Input) timeWhy(qc judge.QuestionCost) string {
	t := in.PartitionTarget()
	if p := partitionSeconds(qc, t); !in.Cosmos() && p >= msSeconds(qc.Ms) {
		return fmt.Sprintf("%s rows of each of its %s partitions at the %s entities/s a partition serves",
			textfit.Rate(qc.RowsVisitedPerQuestion/math.Max(qc.PartitionsPerQuestion, 1)), textfit.Rate(math.Max(qc.PartitionsPerQuestion, 1)), textfit.Rate(t))
	}
	return fmt.Sprintf("%s requests, %s of them one after another", textfit.Rate(qc.RequestsPerQuestion), textfit.Rate(qc.RoundsPerQuestion))
}

// takesWords says how long one question takes, in words past what the
// table could ever do: "takes 18 minutes a question"; "never completes"
// when it would take longer than the horizon, the event time the table
// holds.
func takesWords(d, horizon time.Duration) string {
	if d >= horizon || d == time.Duration(math.MaxInt64) {
		return "never completes (one question would take longer than the horizon, " + textfit.Duration(horizon) + ")"
	}
	return "takes " + spanWords(d) + " a question"
}

// msSeconds converts milliseconds to seconds.
func msSeconds(ms float64) float64 { return ms * float64(time.Millisecond) / float64(time.Second) }
