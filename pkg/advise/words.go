package advise

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// why says in words what the recommended candidate c fixes and why it
// was picked.
func (in *Input) why(c *Candidate, all []*Candidate) []string {
	p := c.Prediction
	out := []string{in.busiestWords(p)}
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if w := in.fewerWords(c); w != "" {
		out = append(out, w)
	}
	out = append(out, indexWords(c)...)
	if c.Unit != keygen.NoUnit {
		add("%s %s time bucket bounds a partition to %s rows over %s (the bound is %s)", textfit.Article(c.Unit.String()), c.Unit, textfit.Rate(p.RowsAfterHorizon),
			textfit.Duration(in.Opts.Horizon), textfit.Int(in.Opts.MaxPartitionRows))
	}
	for k, q := range p.Questions {
		ru := ""
		if in.Cosmos() {
			ru = fmt.Sprintf(", %s RU a question", num(q.RequestUnitsPerQuestion))
		}
		add("%s: %s%s", q.Name, planWords(q, seededOf(p, k)), ru)
	}
	if !p.Monotonic && p.WriteEntitiesPerSec > 0 {
		if b := in.leadingBucket(c); b > 0 {
			add("a new PartitionKey each %s lands beyond the existing ones and takes every insert until the next: the inserts (%s entities/s) go to one partition at a time, counted in its busiest load above, not spread over new keys on one range partition",
				keygen.UnitOf(b), textfit.Rate(p.WriteEntitiesPerSec))
		} else {
			add("new PartitionKeys do not all land beyond the existing ones, so inserts are not funnelled to one range partition")
		}
	}
	if d := p.Deletion; d != nil {
		add("with data kept %s, %s", d.Retention, in.deletionCompared(c, all))
	}
	return out
}

// busiestWords says the busiest partition of a recommendation against
// its target and the headroom (a logical partition's request units under
// Cosmos DB).
func (in *Input) busiestWords(p *Prediction) string {
	if in.Cosmos() {
		return fmt.Sprintf("its busiest logical partition, %q, is charged %s RU/s at the peak of %s ops/s, %s of its %s RU/s", p.Cosmos.BusiestPartition,
			textfit.Rate(p.Cosmos.BusiestPerSec), textfit.Rate(in.Peak), pctText(p.Cosmos.BusiestPerSec/in.Opts.Model.Cosmos.LogicalRU), textfit.Rate(in.Opts.Model.Cosmos.LogicalRU))
	}
	return fmt.Sprintf("its busiest partition, %q, takes %s entities/s at the peak of %s ops/s: %s of the %s entities/s partition target (headroom %s)",
		p.BusiestPartition, textfit.Rate(p.BusiestEntitiesPerSec), textfit.Rate(in.Peak), pctText(p.BusiestEntitiesPerSec/in.PartitionTarget()),
		textfit.Rate(in.PartitionTarget()), pctText(in.Opts.Headroom))
}

// fewerWords says why c has the hash buckets it has, when their number
// was searched for: with one fewer (c.Fewer), a partition is over the
// headroom, or a pass or the refusals are over theirs. "" when not
// searched.
func (in *Input) fewerWords(c *Candidate) string {
	f := c.Fewer
	if f == nil {
		return ""
	}
	n := c.SearchedBuckets - 1
	with := fmt.Sprintf("with %d", n)
	if n <= 1 {
		with = "without buckets"
	}
	of := ""
	if c.Searched != "" {
		of = " of index table " + c.Searched
	}
	if fp := f.Prediction; in.over(fp, judge.HotPartition) || !in.hot(fp) {
		return fmt.Sprintf("%d hash buckets%s are the fewest that keep it there: %s, the busiest partition (%q) would take %s entities/s, over %s of the target",
			c.SearchedBuckets, of, with, fp.BusiestPartition, textfit.Rate(fp.BusiestEntitiesPerSec), pctText(in.Opts.Headroom))
	}
	return fmt.Sprintf("%d hash buckets%s are the fewest that serve every query's pass and keep the refusals under %s: %s, %s",
		c.SearchedBuckets, of, pctText(MaxThrottled), with, in.strainWords(f.Prediction))
}

// indexWords says which questions each index table of c answers, and why
// one in hash buckets is.
func indexWords(c *Candidate) []string {
	var out []string
	for _, ix := range c.Spec.Indexes {
		var asks []string
		for _, q := range c.Prediction.Questions {
			if q.Label == "index "+ix.Name {
				asks = append(asks, q.Name)
			}
		}
		if len(asks) == 0 {
			continue
		}
		why := ""
		if strings.HasPrefix(ix.PartitionKey, "{hash(") {
			why = " (in hash buckets, as many as its writes and the questions' passes over one partition need: an identifying value that grows would put every index row on one range partition)"
		}
		out = append(out, fmt.Sprintf("index table %s (PartitionKey %s, RowKey %s) answers %s without scanning the main table%s", ix.Name, ix.PartitionKey, ix.RowKey, strings.Join(asks, " and "), why))
	}
	return out
}

// deletionCompared says what deleting old data costs candidate c against
// the other candidates that serve the load: the fewest requests/s any of
// them takes for it, when another takes fewer.
func (in *Input) deletionCompared(c *Candidate, all []*Candidate) string {
	out := deletionWords(c.Prediction.Deletion)
	var best *Candidate
	for _, o := range all {
		if o != c && len(o.Problems) == 0 && o.Prediction.Deletion != nil &&
			(best == nil || o.Prediction.Deletion.AccountRequestsPerSec < best.Prediction.Deletion.AccountRequestsPerSec) {
			best = o
		}
	}
	if best != nil && best.Prediction.Deletion.AccountRequestsPerSec < c.Prediction.Deletion.AccountRequestsPerSec {
		out += fmt.Sprintf(" (%s deletes for %s requests/s; it ranks below on what its questions cost)", best.Spec.Name, textfit.Rate(best.Prediction.Deletion.AccountRequestsPerSec))
	}
	return out
}

// planWords says what a question costs under a plan at the horizon,
// and on the seeded table when the figures differ there.
func planWords(q QuestionCost, seeded *QuestionCost) string {
	what := map[string]string{"point": "a point read", "range": "a range", "fan_out": "a fan-out over the partitions it can compute, merged",
		"index": "an index table, then a point read per entity", "scan": "a scan with a filter"}[q.Plan]
	if strings.HasPrefix(q.Why, "the main table needs") && strings.Contains(q.Why, "no point read follows") {
		what = "an index table whose rows carry what it reads"
	}
	if q.Label == "scan (table)" {
		what = "a scan of the whole table"
	}
	out := what + " (" + figuresWords(q)
	if seeded != nil && figuresWords(*seeded) != figuresWords(q) {
		out += "; on the seeded table " + figuresWords(*seeded)
	}
	return out + ")"
}

// figuresWords is a question's cost per question in words.
func figuresWords(q QuestionCost) string {
	return fmt.Sprintf("%s request%s, %s partition%s, %s row%s visited, %s returned", num(q.RequestsPerQuestion), s(q.RequestsPerQuestion),
		num(q.PartitionsPerQuestion), s(q.PartitionsPerQuestion), num(q.RowsVisitedPerQuestion), s(q.RowsVisitedPerQuestion), num(q.RowsPerQuestion))
}

// seededOf is question k's cost on the seeded table, when judged.
func seededOf(p *Prediction, k int) *QuestionCost {
	if p.Seeded == nil || k >= len(p.Seeded.Questions) {
		return nil
	}
	return &p.Seeded.Questions[k]
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
	for k, q := range p.Questions {
		sq := seededOf(p, k)
		switch {
		case sq != nil && grew(q.RowsVisitedPerQuestion, sq.RowsVisitedPerQuestion):
			add("%s visits %s rows a question at the horizon (%s on the seeded table): %s", q.Name, num(q.RowsVisitedPerQuestion), num(sq.RowsVisitedPerQuestion), planWords(q, nil))
		case sq != nil && grew(q.RequestsPerQuestion, sq.RequestsPerQuestion):
			add("%s takes %s requests a question at the horizon (%s on the seeded table): %s", q.Name, num(q.RequestsPerQuestion), num(sq.RequestsPerQuestion), planWords(q, nil))
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
	if p.Deletion != nil {
		add("%s", deletionWords(p.Deletion))
	}
	if p.BatchSize > 0 && p.BatchFill < 0.9*float64(p.BatchSize) {
		add("entity group transactions hold %s of the %d entities asked: fewer new entities share a partition", num(p.BatchFill), p.BatchSize)
	}
	if cu := p.Cosmos; cu != nil {
		add("%s RU per new entity; %s RU/s at the peak: provision %s RU/s for the headroom", num(cu.WriteUnits), textfit.Rate(cu.TotalPerSec), textfit.Rate(in.needed(p)))
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
			l.Why = in.Words(c.Problems[0])
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
		return fmt.Sprintf("%s costs more at the horizon: %s against %s", q.Name, planWords(q, nil), planWords(rq, nil))
	}
	if in.bounded(r.Prediction) && !in.bounded(c.Prediction) {
		return "as cheap to ask, but " + in.growth(c)
	}
	return fmt.Sprintf("as cheap to ask; it ranks below on the account's requests (%s/s) or its busiest partition (%s entities/s)",
		textfit.Rate(c.Prediction.AccountRequestsPerSec), textfit.Rate(math.Round(c.Prediction.BusiestEntitiesPerSec)))
}

// grew reports whether a figure at the horizon is well above the seeded
// table's (a half more, and by more than one).
func grew(horizon, seeded float64) bool { return horizon > 1.5*seeded && horizon-seeded > 1 }

// growth says how candidate c's largest partition outgrows the bound on
// rows (the judge's finding, in its words).
func (in *Input) growth(c *Candidate) string {
	return in.Words(in.finding(c.Prediction, judge.PartitionRows))
}

// leadingBucket is the time bucket c's PartitionKey begins with (its
// first piece that is not literal), or 0.
func (in *Input) leadingBucket(c *Candidate) time.Duration {
	for _, p := range c.Scheme.PK.Parts() {
		if p.Kind == keygen.PartLiteral {
			continue
		}
		if in.TimeBucketed(p) {
			return in.TimeBucket(c.Scheme.PK)
		}
		return 0
	}
	return 0
}
