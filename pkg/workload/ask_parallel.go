package workload

import (
	"context"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// QueryAll implements question.Parallel: the queries of a fan-out's group
// go out at once, as an application sends them, each with the run's retry
// strategy, and the question takes as long as the slowest. Every request
// is recorded as the one-at-a-time path records it.
func (a *askSource) QueryAll(ctx context.Context, qs []question.Query) ([][]question.Row, error) {
	out := make([][]question.Row, len(qs))
	errs := a.atOnce(len(qs), func(i int, at *attempts) (err error) {
		out[i], err = a.query(ctx, qs[i], at)
		return err
	})
	return out, errs
}

// GetAll implements question.Parallel: the point reads an index names go
// out at once.
func (a *askSource) GetAll(ctx context.Context, keys []question.Key) ([]question.Row, []bool, error) {
	rows, found := make([]question.Row, len(keys)), make([]bool, len(keys))
	errs := a.atOnce(len(keys), func(i int, at *attempts) (err error) {
		rows[i], found[i], err = a.get(ctx, keys[i].PK, keys[i].RK, at)
		return err
	})
	return rows, found, errs
}

// atOnce runs send(i) for i in [0, n) in goroutines of their own and
// returns the first error by i once all have ended (goroutines of the
// run's clock). Each gets a copy of
// the worker's attempts: the same recorder and health (both safe for
// concurrent use), and a random stream of its own for retry jitter, drawn
// from the worker's in order so a run stays repeatable.
func (a *askSource) atOnce(n int, send func(i int, at *attempts) error) error {
	copies := make([]attempts, n)
	streams := make([]keygen.Stream, n)
	for i := range copies {
		copies[i] = *a.at
		if a.at.st != nil {
			streams[i] = keygen.NewStream(a.at.st.Uint64(), uint64(i))
			copies[i].st = &streams[i]
		}
	}
	errs := make([]error, n)
	g := clock.NewGroup(a.at.clock)
	for i := range copies {
		g.Go(func() { errs[i] = send(i, &copies[i]) })
	}
	g.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
