package advise

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// infeasible says why no candidate can be recommended (cs ranked, the
// nearest to its limits first) and what would serve the load: a question
// no design serves (named, with what would change it, and the advice for
// the rest of the load, the question an exception beside it); questions
// that make every design hot by their own reads, when the rest of the
// load is served (hotQuestions: the same exceptions; else the load is
// judged as if they were not named); more
// request units under Cosmos DB (then the advice at that throughput);
// several accounts when the writes alone ask more of one than its target
// under every candidate (then the advice for one account's share); else
// the closest candidate and how far over it is.
func (in *Input) infeasible(ctx context.Context, cs []*Candidate) (*Infeasible, *Advice, error) {
	h := in.Opts.Headroom
	if qs, names := in.unservable(cs); len(qs) > 0 {
		inf := &Infeasible{Reason: strings.Join(qs, "; "), Questions: qs}
		if len(names) < len(qs) {
			return inf, nil, nil // a bound of the user's: no exceptions to it
		}
		ex, rest, err := in.exceptions(ctx, cs, names, qs)
		if err != nil || rest == nil {
			return inf, nil, err
		}
		return ex, rest, nil
	}
	if names, whys := in.hotQuestions(cs); len(names) > 0 {
		if ex, rest, err := in.exceptions(ctx, cs, names, whys); err != nil || rest != nil {
			return ex, rest, err
		}
	}
	if in.Cosmos() && all(cs, func(c *Candidate) bool { return c.Prediction.Cosmos.TotalPerSec > h*in.Opts.Model.Cosmos.RU }) {
		need := math.Inf(1)
		for _, c := range cs {
			need = math.Min(need, in.needed(c.Prediction))
		}
		opts := in.Opts
		opts.Model.Cosmos.RU, opts.Model.Cosmos.Partitions = need, 0
		split, err := again(ctx, in.Scenario, opts)
		why := fmt.Sprintf("the workload is charged over %s of the %s RU/s provisioned under every scheme; the table needs %s RU/s",
			pctText(h), textfit.Big(in.Opts.Model.Cosmos.RU), textfit.Big(need))
		return &Infeasible{Reason: why, RequestUnits: need}, split, err
	}
	target := in.Opts.Model.AccountTarget
	if !in.Cosmos() && all(cs, func(c *Candidate) bool { return c.Prediction.WriteRequestsPerSec > h*target }) {
		least := math.Inf(1)
		for _, c := range cs {
			least = math.Min(least, c.Prediction.WriteRequestsPerSec)
		}
		k := int(math.Ceil(least / (h * target)))
		why := fmt.Sprintf("at its peak the workload's writes alone ask at least %s requests/s of the account under every scheme, over %s of the %s requests/s a storage account serves (Azure Storage scalability targets); %d accounts, each taking an equal share of the entities, bring each under it",
			textfit.Big(least), pctText(h), textfit.Big(target), k)
		split, err := again(ctx, share(in.Scenario, k), shareOpts(in.Opts, k))
		return &Infeasible{Reason: why, Accounts: k}, split, err
	}
	c := cs[0]
	return &Infeasible{Reason: fmt.Sprintf("no scheme can serve the load: the closest, %s, is %s over its limits: %s", c.Spec.Name, times(c.Over),
		strings.Join(in.words(c.Problems), "; "))}, nil, nil
}

// times writes a ratio as "1.4 times", "230 times".
func times(r float64) string {
	if r < 10 {
		return textfit.Float(round1(r)) + " times"
	}
	return textfit.Big(r) + " times"
}

// unservable are the questions no candidate serves, each said with what
// decides it and what would change it: one question that takes longer
// than MaxQuestionTime under every candidate (its modelled service time,
// or the rows it visits of one partition at the partition's target:
// questionTime), however rarely it is asked; or the rows it visits
// (requests it takes) over --max-question-rows (--max-question-requests),
// under every candidate. The rows a question returns count against its
// partitions and its pages, never against the account: the account's
// target is requests (azure.AccountRequestsPerSec), judged in problems.
// names are the questions that take too long: what no design serves
// whatever the user's bounds, exceptions to advice for the rest.
func (in *Input) unservable(cs []*Candidate) (out, names []string) {
	for k, q := range in.Questions {
		visited, reqs := math.Inf(1), math.Inf(1)
		var best *Candidate
		fastest := time.Duration(math.MaxInt64)
		for _, c := range cs {
			qc := c.Prediction.Questions[k]
			if d := in.questionTime(qc); d < fastest {
				fastest, best = d, c
			}
			visited = math.Min(visited, qc.RowsVisitedPerQuestion)
			reqs = math.Min(reqs, qc.RequestsPerQuestion)
		}
		switch {
		case best != nil && fastest > MaxQuestionTime:
			qc := best.Prediction.Questions[k]
			out = append(out, fmt.Sprintf("%s %s under every scheme (the fewest, under %s's %s: %s rows visited a question at the horizon, %s): it would take %s",
				q.Name, takesWords(fastest, in.Opts.Horizon), best.Spec.Name, qc.Label, textfit.Big(qc.RowsVisitedPerQuestion),
				in.timeWhy(qc), in.wouldChange(k, float64(MaxQuestionTime)/float64(fastest))))
			names = append(names, q.Name)
		case in.Opts.MaxQuestionRows > 0 && visited > in.Opts.MaxQuestionRows:
			out = append(out, fmt.Sprintf("no scheme answers %s within --max-question-rows %s: the fewest rows a question visits is %s",
				q.Name, textfit.Float(in.Opts.MaxQuestionRows), textfit.Big(visited)))
		case in.Opts.MaxQuestionRequests > 0 && reqs > in.Opts.MaxQuestionRequests:
			out = append(out, fmt.Sprintf("no scheme answers %s within --max-question-requests %s: the cheapest plan is %s request%s a question",
				q.Name, textfit.Float(in.Opts.MaxQuestionRequests), textfit.Float(round1(reqs)), s(reqs)))
		}
	}
	return out, names
}

// wouldChange says what would bring question k within MaxQuestionTime,
// f being the share of its rows it could read in that time (a lower rate
// would not: one question takes as long however often it is asked): for
// a window, a narrower one, and for every entity of a window also an
// aggregate kept beside the data; for the newest or oldest N, a smaller
// N; for every entity with the known values, a window, data kept for a
// shorter time (--retention, a table per period) or an aggregate kept
// beside the data.
func (in *Input) wouldChange(k int, f float64) string {
	q := in.Questions[k]
	var ways []string
	switch {
	case q.Ordered() && q.Limit > 0:
		ways = append(ways, fmt.Sprintf("a limit of %s rows", textfit.Int(int64(math.Floor(float64(q.Limit)*f)))))
	case q.WindowLength() > 0:
		ways = append(ways, "a window of "+spanWords(time.Duration(float64(q.WindowLength())*f)))
		if !q.Ordered() {
			ways = append(ways, summaryWay)
		}
	default:
		life := in.horizonLife()
		d := spanWords(time.Duration(float64(life) * f))
		ways = append(ways, fmt.Sprintf("a window of %s (it reads the rows of %s of event time)", d, textfit.Duration(life)),
			fmt.Sprintf("data kept for %s (--retention, or a table per period deleted at once)", d), summaryWay)
	}
	return strings.Join(ways, ", or ")
}

// summaryWay is the remedy for a question that reads every entity of
// its known values: an aggregate kept as entities are written (the
// design guide's advice to keep a count or summary beside the data, not
// to compute it by reading millions of rows).
const summaryWay = "a count or summary kept beside the data, updated as entities are written, instead of reading them"

// rateWords says a rate of questions: "at most 2.5 a second", "at most
// one every 18 minutes".
func rateWords(r float64) string {
	if r >= 0.1 {
		return "at most " + textfit.Float(textfit.Round2(r)) + " times a second"
	}
	return "at most once every " + spanWords(time.Duration(float64(time.Second)/r))
}

// spanWords says a length of time to two significant figures in the
// largest unit it fills: "18 minutes", "7.8 hours", "45 days".
func spanWords(d time.Duration) string {
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"days", 24 * time.Hour}, {"hours", time.Hour}, {"minutes", time.Minute}, {"seconds", time.Second}} {
		if d >= u.d {
			return textfit.Float(roundSig(float64(d)/float64(u.d), 2)) + " " + u.name
		}
	}
	return d.String()
}

// roundSig rounds f to n significant digits.
func roundSig(f float64, n int) float64 {
	if f == 0 {
		return 0
	}
	p := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}

func all(cs []*Candidate, f func(*Candidate) bool) bool {
	for _, c := range cs {
		if !f(c) {
			return false
		}
	}
	return len(cs) > 0
}

// again prepares and advises a changed scenario or model.
func again(ctx context.Context, sc *scenario.Scenario, opts Options) (*Advice, error) {
	in, err := Prepare(sc, opts)
	if err != nil {
		return nil, err
	}
	return in.Advise(ctx)
}

// share is the scenario of one of k accounts: every k-th entity (the same
// law), so a k times longer interval, a k-th of the seeded entities and of
// the rate.
func share(sc *scenario.Scenario, k int) *scenario.Scenario {
	s := *sc
	s.Population.Interval = scenario.Duration(s.Population.Interval.D() * time.Duration(k))
	s.Population.Entities = scenario.Count(max(int64(s.Population.Entities)/int64(k), 1))
	s.Workload.Rate = scenario.Rate(float64(s.Workload.Rate) / float64(k))
	s.Workload.Stages = append([]scenario.Stage(nil), sc.Workload.Stages...)
	for i := range s.Workload.Stages {
		s.Workload.Stages[i].Rate /= scenario.Rate(k)
	}
	return &s
}

func shareOpts(o Options, k int) Options {
	o.Rate /= float64(k)
	return o
}
