package workload

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// ask asks one of the application's questions with the scheme's plan,
// through the SDK: every request is recorded as the question operation and
// under the question, and the question completes with its figures, or,
// when the run's end cuts it short (errCutShort), is recorded as
// unfinished with the requests it made.
func (x *executor) ask(ctx context.Context, s plan.Step, scheduled time.Time) {
	k := s.Op.Question
	plan := x.plan.Questions[k]
	src := newAskSource(x)
	x.a.question = k + 1
	defer func() { x.a.question = 0 }()
	x.plan.Pop.Entity(s.Entity, &x.ent)
	plan.Question.ApplyPicks(&x.ent, s.Picked, x.plan.Space.Bound()-1)
	rows, err := plan.Execute(ctx, src, &x.ent, question.BoundsOf(x.plan.Pop, x.plan.Space.Bound()))
	if errors.Is(err, errCutShort) {
		x.a.rec.QuestionCutShort(k, scheduled, x.a.clock.Now(), src.requests, src.units)
		return
	}
	src.fig.Partitions = int64(len(src.parts))
	src.fig.Returned = int64(len(rows))
	part := metrics.CrossPartition
	if len(src.parts) == 1 {
		for p := range src.parts {
			part = p
		}
	}
	x.a.rec.QuestionDone(k, part, scheduled, x.a.clock.Now(), err == nil, src.fig)
}

// askSource is a question.Source over the run's tables: each call sends
// its requests with the run's retry strategy and records them, through at
// (the worker's attempts; requests sent at once each go through a copy:
// ask_parallel.go). mu guards parts, fig, requests and units: the
// requests made (every attempt) and the request units they were charged.
type askSource struct {
	x        *executor
	at       *attempts
	mu       sync.Mutex
	parts    map[string]bool
	fig      metrics.QuestionFigures
	requests int64
	units    float64
}

var (
	_ question.Source   = (*askSource)(nil)
	_ question.Parallel = (*askSource)(nil)
)

// newAskSource is the source of one question asked by x's worker.
func newAskSource(x *executor) *askSource {
	return &askSource{x: x, at: &x.a, parts: map[string]bool{}}
}

// asked notes a partition the question asked.
func (a *askSource) asked(part string) {
	a.mu.Lock()
	a.parts[part] = true
	a.mu.Unlock()
}

// errAnswer is a request of a question that failed after its retries: the
// question fails.
var errAnswer = errors.New("workload: a request of the question failed")

// errCutShort is a question the run's end stopped before its last request:
// a further page, request or retry it needed would have started after the
// end, or the end canceled the request in flight. The question did not
// finish: it is neither answered nor failed.
var errCutShort = errors.New("workload: the run ended before the question finished")

// send sends one request of the question through at, counting its
// attempts and their charges, and returns the last result, or errCutShort
// when the run had ended before it could start or ended during it with
// the request unsettled (a retry it was owed, or the request canceled).
func (a *askSource) send(ctx context.Context, at *attempts, part string, page bool, fn func(context.Context) table.Result) (table.Result, error) {
	if at.stopped() || ctx.Err() != nil {
		return table.Result{}, errCutShort
	}
	res, done := at.doSettled(ctx, metrics.Question, part, page, func(ctx context.Context) table.Result {
		r := fn(ctx)
		a.mu.Lock()
		a.requests++
		if r.Charged {
			a.units += r.Charge
		}
		a.mu.Unlock()
		return r
	})
	if !okResult(res) && (!done || ctx.Err() != nil) {
		return res, errCutShort
	}
	return res, nil
}

// Get implements question.Source with a point read of the main table.
func (a *askSource) Get(ctx context.Context, pk, rk string) (question.Row, bool, error) {
	return a.get(ctx, pk, rk, a.at)
}

// get is Get through at.
func (a *askSource) get(ctx context.Context, pk, rk string, at *attempts) (question.Row, bool, error) {
	a.asked(pk)
	res, err := a.send(ctx, at, pk, false, func(ctx context.Context) table.Result {
		return a.x.main.Get(ctx, pk, rk, nil)
	})
	if err != nil {
		return question.Row{}, false, err
	}
	a.measure(res, false)
	if res.Outcome.Status == 404 {
		return question.Row{}, false, nil
	}
	if !okResult(res) {
		return question.Row{}, false, errAnswer
	}
	row, ok := rowOf(res.Entity)
	return row, ok, nil
}

// Query implements question.Source: the query's pages, each a request,
// until it has q.Top rows or it ends; errCutShort when the run ends first
// (the next page, which would start after the end, is not sent).
func (a *askSource) Query(ctx context.Context, q question.Query) ([]question.Row, error) {
	return a.query(ctx, q, a.at)
}

// query is Query through at.
func (a *askSource) query(ctx context.Context, q question.Query, at *attempts) ([]question.Row, error) {
	store, part := a.x.main, q.PK
	if q.Table != "" {
		for k, ix := range a.x.plan.Scheme.Indexes {
			if ix.Name == q.Table {
				store = a.x.indexes[k]
			}
		}
		part = indexLabel(q.Table, []byte(q.PK))
	}
	if q.AnyPK {
		part = metrics.CrossPartition
	}
	a.asked(part)
	tq := table.Query{Filter: q.Filter()}
	if q.Top > 0 {
		tq.Top = int32(min(q.Top, azure.PageRows))
	}
	pager := store.Query(ctx, tq)
	var out []question.Row
	for {
		var page table.Page
		more := false
		res, err := a.send(ctx, at, part, true, func(ctx context.Context) table.Result {
			var r table.Result
			page, r, more = pager.Next(ctx)
			return r
		})
		if err != nil {
			return out, err
		}
		a.measure(res, true)
		if !okResult(res) {
			return out, errAnswer
		}
		for _, e := range page.Entities {
			if row, ok := rowOf(e); ok {
				out = append(out, row)
			}
		}
		if !more || (q.Top > 0 && len(out) >= q.Top) {
			return out, nil
		}
	}
}

// measure adds a request's rows visited (the service's count when it sends
// one, else the rows returned); page marks query pages. Its request units
// are recorded with the request, every attempt's (executor.do).
func (a *askSource) measure(res table.Result, page bool) {
	if !okResult(res) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if page {
		a.fig.Pages++
	}
	if res.VisitedSent {
		a.fig.Visited += int64(res.Visited)
		a.fig.VisitedByService++
	} else {
		a.fig.Visited += int64(res.Entities)
	}
}

// rowOf reads an answer's row from an entity: a main row's Seq (its
// index) and EventTime, or an index row's MainPartitionKey and MainRowKey,
// and its RowKey.
func rowOf(entity []byte) (question.Row, bool) {
	v, ok := table.StringProperties(entity, "Seq", "EventTime", "MainPartitionKey", "MainRowKey", "RowKey")
	if !ok {
		return question.Row{}, false
	}
	row := question.Row{Seq: -1, MainPK: v[2], MainRK: v[3], RK: v[4]}
	if v[0] != "" {
		n, err := strconv.ParseInt(v[0], 10, 64)
		if err != nil {
			return question.Row{}, false
		}
		row.Seq = n
	}
	if v[1] != "" {
		t, err := time.Parse(time.RFC3339Nano, v[1])
		if err != nil {
			return question.Row{}, false
		}
		row.Ticks = keygen.Ticks(t)
	}
	return row, row.Seq >= 0 || row.MainPK != ""
}

// questionNames are the scenario's questions, by index.
func (c *Config) questionNames() []string {
	out := make([]string, len(c.Scenario.Questions))
	for k, q := range c.Scenario.Questions {
		out[k] = q.Name
	}
	return out
}

// QuestionPlans are the run's scheme's plans for the questions its mix
// asks, as the report records them.
func (c *Config) QuestionPlans() []report.QuestionPlan {
	qs, err := c.Scenario.CompileQuestions(c.Pop)
	if err != nil {
		return nil // validated with the scenario
	}
	var out []report.QuestionPlan
	for k, q := range qs {
		if !asked(c.Scenario, c.Scenario.Questions[k].Name) {
			continue
		}
		p := question.Derive(q, c.Schemes[c.Scheme])
		out = append(out, report.QuestionPlan{Name: q.Name, Plan: string(p.Kind), Scope: p.Scope, Index: p.Index, Why: p.Why})
	}
	return out
}

// asked reports whether the mix asks the question called name.
func asked(sc *scenario.Scenario, name string) bool {
	for _, op := range sc.Workload.Mix {
		if op.Op == "question" && op.Question == name {
			return true
		}
	}
	return false
}
