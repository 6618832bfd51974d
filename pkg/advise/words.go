package advise

import (
	"fmt"
	"math"
	"strings"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// why says in words what the recommended candidate c fixes and why it
// was picked.
func (in *Input) why(c *Candidate, all []*Candidate) []string {
	p := c.Prediction
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if in.Cosmos() {
		add("its busiest logical partition, %q, is charged %s RU/s at the peak of %s ops/s, %s of its %s RU/s", p.Cosmos.BusiestPartition,
			textfit.Rate(p.Cosmos.BusiestPerSec), textfit.Rate(in.Peak), pctText(p.Cosmos.BusiestPerSec/in.Opts.Model.Cosmos.LogicalRU), textfit.Rate(in.Opts.Model.Cosmos.LogicalRU))
	} else {
		add("its busiest partition, %q, takes %s entities/s at the peak of %s ops/s: %s of the %s entities/s partition target (headroom %s)",
			p.BusiestPartition, textfit.Rate(p.BusiestEntitiesPerSec), textfit.Rate(in.Peak), pctText(p.BusiestEntitiesPerSec/in.PartitionTarget()),
			textfit.Rate(in.PartitionTarget()), pctText(in.Opts.Headroom))
	}
	if f := c.Fewer; f != nil { // its bucket count was searched for
		with := fmt.Sprintf("with %d", f.Buckets)
		if f.Buckets == 0 {
			with = "without buckets"
		}
		add("%d hash buckets are the fewest that keep it there: %s, the busiest partition (%q) would take %s entities/s, over %s of the target",
			c.Buckets, with, f.Prediction.BusiestPartition, textfit.Rate(f.Prediction.BusiestEntitiesPerSec), pctText(in.Opts.Headroom))
	}
	for _, ix := range c.Spec.Indexes {
		var asks []string
		for _, q := range p.Questions {
			if q.Label == "index "+ix.Name {
				asks = append(asks, q.Name)
			}
		}
		if len(asks) == 0 {
			continue
		}
		why := ""
		if strings.HasPrefix(ix.PartitionKey, "{hash(") {
			why = " (in hash buckets, as many as its writes need: an identifying value that grows would put every index row on one range partition)"
		}
		add("index table %s (PartitionKey %s, RowKey %s) answers %s without scanning the main table%s", ix.Name, ix.PartitionKey, ix.RowKey, strings.Join(asks, " and "), why)
	}
	if c.Unit != "" {
		add("%s %s time bucket bounds a partition to %s rows over %s (the bound is %s)", article(c.Unit), c.Unit, textfit.Rate(p.RowsAfterHorizon),
			durationText(in.Opts.Horizon), textfit.Int(in.Opts.MaxPartitionRows))
	}
	for _, q := range p.Questions {
		ru := ""
		if in.Cosmos() {
			ru = fmt.Sprintf(", %s RU a question", num(q.RequestUnitsPerQuestion))
		}
		add("%s: %s%s", q.Name, planWords(q), ru)
	}
	if !p.Monotonic && p.WriteEntitiesPerSec > 0 {
		add("new PartitionKeys do not all land beyond the existing ones, so inserts are not funnelled to one range partition")
	}
	return out
}

// planWords says what a question costs under a plan.
func planWords(q QuestionCost) string {
	cost := fmt.Sprintf("%s request%s, %s partition%s, %s row%s visited", num(q.RequestsPerQuestion), s(q.RequestsPerQuestion),
		num(q.PartitionsPerQuestion), s(q.PartitionsPerQuestion), num(q.RowsVisitedPerQuestion), s(q.RowsVisitedPerQuestion))
	what := map[string]string{"point": "a point read", "range": "a range", "fan_out": "a fan-out over the partitions it can compute, merged",
		"index": "an index table, then a point read per entity", "scan": "a scan with a filter"}[q.Plan]
	if q.Label == "scan (table)" {
		what = "a scan of the whole table"
	}
	return what + " (" + cost + ")"
}

func num(f float64) string { return textfit.Float(round1(f)) }

func s(f float64) string {
	if round1(f) == 1 {
		return ""
	}
	return "s"
}

// costs says what the recommended candidate c costs the application.
func (in *Input) costs(c *Candidate) []string {
	p := c.Prediction
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	for _, q := range p.Questions {
		switch {
		case q.PartitionsAfterHorizon > 0:
			add("%s asks every time bucket of its partitions: %s a question after %s", q.Name, num(q.PartitionsAfterHorizon), durationText(in.Opts.Horizon))
		case q.Plan == "fan_out" && round1(q.PartitionsPerQuestion) > 1:
			add("%s now asks %s partitions a question", q.Name, num(q.PartitionsPerQuestion))
		case q.Plan == "range" && round1(q.PartitionsPerQuestion) > 1:
			add("%s walks %s time buckets a question on average", q.Name, num(q.PartitionsPerQuestion))
		case q.Plan == "scan":
			add("%s still scans: %s rows visited a question", q.Name, num(q.RowsVisitedPerQuestion))
		}
	}
	if n := len(c.Spec.Indexes); n > 0 {
		add("every new entity also writes %d index row%s, in separate requests (%s requests/s at the account in all)", n, s(float64(n)),
			textfit.Rate(p.AccountRequestsPerSec))
	}
	if !in.bounded(p) {
		add("%s", in.growth(c))
	}
	if p.BatchSize > 0 && p.BatchFill < 0.9*float64(p.BatchSize) {
		add("entity group transactions hold %s of the %d entities asked: fewer new entities share a partition", num(p.BatchFill), p.BatchSize)
	}
	if cu := p.Cosmos; cu != nil {
		add("%s RU per new entity; %s RU/s at the peak: provision %s RU/s for the headroom", num(cu.WriteUnits), textfit.Rate(cu.TotalPerSec), textfit.Rate(cu.Needed))
	}
	if len(out) == 0 {
		add("nothing the questions notice")
	}
	return out
}

// lost says why each of the scenario's own schemes was not recommended.
func (in *Input) lost(cs []*Candidate, rec *Pick) []Lost {
	out := []Lost{}
	for k, c := range cs {
		if !c.Own || (rec != nil && rec.Candidate == c) {
			continue
		}
		l := Lost{Name: c.Spec.Name, Rank: k + 1}
		switch {
		case len(c.Problems) > 0:
			l.Why = c.Problems[0]
			if len(c.Problems) > 1 {
				l.Why += fmt.Sprintf(" (and %d more)", len(c.Problems)-1)
			}
		case rec != nil:
			l.Why = in.dearer(c, rec.Candidate)
		default:
			l.Why = "nothing can be recommended"
		}
		out = append(out, l)
	}
	return out
}

// dearer says where candidate c costs more than the recommendation r.
func (in *Input) dearer(c, r *Candidate) string {
	worst, k := 0.0, -1
	for i, q := range c.Prediction.Questions {
		if d := q.Ms - r.Prediction.Questions[i].Ms; d > worst {
			worst, k = d, i
		}
	}
	if k >= 0 && !tie(c.Prediction.QuestionMs, r.Prediction.QuestionMs) {
		q, rq := c.Prediction.Questions[k], r.Prediction.Questions[k]
		return fmt.Sprintf("%s costs more: %s against %s", q.Name, planWords(q), planWords(rq))
	}
	if in.bounded(r.Prediction) && !in.bounded(c.Prediction) {
		return "as cheap to ask, but " + in.growth(c)
	}
	return fmt.Sprintf("as cheap to ask; it ranks below on the account's requests (%s/s) or its busiest partition (%s entities/s)",
		textfit.Rate(c.Prediction.AccountRequestsPerSec), textfit.Rate(math.Round(c.Prediction.BusiestEntitiesPerSec)))
}

// growth says how candidate c's busiest partition outgrows the bound on
// rows: a PartitionKey without a time bucket keeps growing over the
// horizon; one with a time bucket fills each bucket past the bound.
func (in *Input) growth(c *Candidate) string {
	p := c.Prediction
	rows, bound := textfit.Rate(p.RowsAfterHorizon), textfit.Rate(float64(in.Opts.MaxPartitionRows))
	if b := in.bucketLen(c.Scheme.PK); b < in.Opts.Horizon {
		return fmt.Sprintf("its partitions grow too large: the busiest holds %s rows in its time bucket (%s of event time), over the bound of %s", rows, durationText(b), bound)
	}
	return fmt.Sprintf("its partitions keep growing: the busiest holds %s rows after %s, over the bound of %s", rows, durationText(in.Opts.Horizon), bound)
}

// article is "an" before a vowel sound ("an hour"), else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouh", rune(word[0])) && word != "year" {
		return "an"
	}
	return "a"
}
