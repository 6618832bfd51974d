package advise

import (
	"fmt"
	"math"
	"strings"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// hotQuestions are the questions that make every candidate hot by their
// own reads, each said with why and what would change it (names, whys):
// question q is one when, under every candidate judged for the whole
// load (the designs generated for q among them), one of these findings
// at the horizon is q's and over its limit (hotBy):
//
//   - PassBurst of q: one of q's queries visits more rows of one
//     partition at once than one query may read (Input.PassLimit);
//   - ServerBurst of q: one of q's questions visits more rows at once on
//     one partition server than one question may read there
//     (Input.ServerPassLimit);
//   - q's part of the throttled share: the requests partitions and
//     servers refuse while they pay off q's passes, over MaxThrottled of
//     the account's requests;
//   - HotPartition of q: q's reads alone charge one partition more
//     entities a second than the headroom's share of the partition
//     target (judge.QuestionCost.ChargedEntitiesPerSec), so that
//     partition stays hot were every other question and the writes gone.
//
// Each is q's own: a pass is one query's, its debt is left by q's
// passes, and a partition's entities are charged by the reads that
// visit them, whatever else the load asks. A load merely too heavy (its
// writes over every design's partitions, the account over its target, a
// partition hot from many questions' reads together) names no question
// here, nor does a question some candidate serves (hash buckets each
// asked for their share); and a question is only an exception when the rest of the load,
// without it, is served (servedRest), else the load stays infeasible as
// it was. When two questions burst, a candidate names the larger pass
// only: the other is found advising the rest.
func (in *Input) hotQuestions(cs []*Candidate) (names, whys []string) {
	if len(cs) == 0 {
		return nil, nil
	}
	for k, q := range in.Questions {
		var closest *Candidate
		var worst judge.Finding
		for _, c := range cs {
			f, ok := in.hotBy(c.Prediction, k)
			if !ok {
				closest = nil
				break
			}
			if closest == nil || f.Ratio() < worst.Ratio() {
				closest, worst = c, f
			}
		}
		if closest != nil {
			names = append(names, q.Name)
			whys = append(whys, in.hotWhy(k, closest, worst))
		}
	}
	return names, whys
}

// hotBy is the finding that makes prediction p hot by question k's own
// reads, over its limit (ok false when none): its largest pass over a
// partition (PassBurst), its largest on a partition server
// (ServerBurst), the share of the account's requests refused while its
// passes are paid off (Throttled, its Value that share), or the most
// entities a second its reads alone charge one partition (HotPartition,
// over the headroom's share of the partition target), each with Of the
// question. Not under Cosmos DB, which charges request units.
func (in *Input) hotBy(p *Prediction, k int) (judge.Finding, bool) {
	if in.Cosmos() || k >= len(p.Questions) {
		return judge.Finding{}, false
	}
	qc := p.Questions[k]
	pass, server := in.PassLimit(), in.ServerPassLimit()
	h, t := in.Opts.Headroom, in.PartitionTarget()
	for _, f := range []judge.Finding{
		{Kind: judge.PassBurst, Partition: qc.BurstPartition, Value: qc.BurstRows, Limit: pass, Target: pass, Headroom: 1},
		{Kind: judge.ServerBurst, Value: qc.ServerPassRows, Limit: server, Target: server, Headroom: 1},
		{Kind: judge.Throttled, Partition: p.ThrottledPartition, Value: qc.PerSec * qc.RefusedPerQuestion / p.AccountRequestsPerSec,
			Limit: MaxThrottled, Target: MaxThrottled, Headroom: 1},
		{Kind: judge.HotPartition, Partition: qc.ChargedPartition, Value: qc.ChargedEntitiesPerSec, Limit: h * t, Target: t, Headroom: h},
	} {
		f.Of, f.Size = qc.Name, p.Size
		if f.Over() {
			return f, true
		}
	}
	return judge.Finding{}, false
}

// hotWhy says why no design serves question k, under the candidate c
// closest to serving it (f its finding there, q's cost among its
// prediction's: hotBy), and what would change it.
func (in *Input) hotWhy(k int, c *Candidate, f judge.Finding) string {
	q := in.Questions[k]
	plan := "'s " + c.Prediction.Questions[k].Label
	var what string
	switch f.Kind {
	case judge.PassBurst:
		what = fmt.Sprintf("it visits %s rows of partition %q at once, over the %s one query may read of a partition",
			textfit.Big(f.Value), f.Partition, textfit.Big(f.Limit))
	case judge.ServerBurst:
		what = fmt.Sprintf("it visits about %s rows at once on one partition server, over the %s one question may read of a server (%s servers of %s entities/s, a model assumption)",
			textfit.Big(f.Value), textfit.Big(f.Limit), textfit.Int(int64(in.Opts.Model.Servers)), textfit.Big(in.Opts.Model.ServerTarget))
	case judge.HotPartition:
		what = fmt.Sprintf("its reads alone take %s entities/s of partition %q, and at least that much of one partition under every design, over the %s (%s of %s) one partition may take",
			textfit.Big(f.Value), f.Partition, textfit.Big(f.Limit), pctText(f.Headroom), textfit.Big(f.Target))
	default:
		what = fmt.Sprintf("its passes leave partitions refusing %s of the requests while they pay them off, most on %q, over the %s allowed",
			textfit.Float(textfit.Round2(100*f.Value))+"%", f.Partition, pctText(f.Limit))
	}
	return fmt.Sprintf("%s makes every scheme hot by its own reads: under the closest, %s%s, %s: it would take %s",
		q.Name, c.Spec.Name, plan, what, in.hotWouldChange(k, f, c.Prediction.Questions[k].PerSec))
}

// hotWouldChange says what would bring question k's finding f within its
// limit, f.Limit/f.Value being the share of its rows at once it may
// read: what wouldChange offers for that share, and for a question of
// every entity its newest rows instead (no more than one query may read
// of a partition); a lower rate only for refusals, which its rate
// decides (a pass is one question's, however rarely asked); for a
// partition its reads alone make hot, coolerWays.
func (in *Input) hotWouldChange(k int, f judge.Finding, perSec float64) string {
	q := in.Questions[k]
	share := f.Limit / f.Value
	if f.Kind == judge.HotPartition {
		return in.coolerWays(k, share, perSec)
	}
	var ways []string
	if f.Kind == judge.Throttled {
		ways = append(ways, "a lower rate, "+rateWords(perSec*share))
	}
	ways = append(ways, in.wouldChange(k, share))
	if !q.Ordered() {
		ways = append(ways, fmt.Sprintf("its newest %s instead of all of them", textfit.Int(int64(math.Floor(in.PassLimit())))))
	}
	return strings.Join(ways, ", or ")
}

// coolerWays says what would bring the entities a second question k's
// reads alone charge one partition to share of them, asked perSec times a
// second: a lower rate; fewer rows a question (a smaller limit, when one
// row is not already all it reads; else what wouldChange offers for that
// share of its rows); a count or summary kept beside the data; or a cache
// in front of it, which answers the same question without reading the
// partition again.
func (in *Input) coolerWays(k int, share, perSec float64) string {
	q := in.Questions[k]
	ways := []string{"a lower rate, " + rateWords(perSec*share)}
	if q.Ordered() && q.Limit > 0 {
		if n := math.Floor(float64(q.Limit) * share); n >= 1 {
			ways = append(ways, fmt.Sprintf("fewer rows a question (a limit of %s)", textfit.Int(int64(n))))
		}
	} else {
		ways = append(ways, in.wouldChange(k, share))
	}
	if !strings.Contains(strings.Join(ways, ""), summaryWay) {
		ways = append(ways, summaryWay)
	}
	return strings.Join(append(ways, cacheWay), ", or ")
}

// cacheWay is the remedy for a question asked of the same rows faster
// than their partition serves them: its answer kept for a moment in front
// of the table (the cache-aside pattern), so that many asks read the
// partition once.
const cacheWay = "a cache in front of it, so that many asks of the same rows read the partition once"
