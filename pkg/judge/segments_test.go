package judge

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/question"
)

// monthlyFeed is a user's newest 20 under keys bucketed by month, the
// main table's and a copying index's, 1,000 entities a second over
// 5,000 users: about 20 rows a user at 100,000 entities; and the newest
// 20 of anyone's, which no key answers (a scan of the table, not in the
// mix). %s is the first entity's event time.
const monthlyFeed = `
name: monthly-feed
seed: 5
population:
  entities: 20000
  interval: 1ms
  start: %s
  fields:
    user: {kind: id, count: 5000, prefix: user-, width: 4}
questions:
  - {name: user-newest, known: [user], want: newest, limit: 20}
  - {name: newest-any, want: newest, limit: 20}
schemes:
  - name: user-month
    partition_key: "{user}_{time:yyyy-MM}"
    row_key: "{inverted_ticks}"
  - name: conversation-copy
    partition_key: "{time:yyyy-MM-dd-HH-mm}"
    row_key: "{inverted_ticks}"
    indexes:
      - {name: ByUserCopy, partition_key: "{user}_{time:yyyy-MM}", row_key: "{inverted_ticks}", carries: all}
workload:
  rate: 1001
  mix:
    - {op: insert, weight: 1000}
    - {question: user-newest}
`

// A proof's table grows from the first entity the seed wrote while its
// run goes on: at each moment of the run a newest-N walk over month
// buckets reads the months that table holds, stopping at its first, as
// the executor does. The judge's figures at depth are the exact model's
// (question.Model, the service's answers) averaged over the run's
// moments: on a table that begins at a month's first instant every walk
// is one request, however few rows a user has; on one that begins 5 s
// before the month turns, about half the users' walks read the month
// before (the current one holds about 20 rows of theirs); on one whose
// month turns in the middle of the run, the walks after it read both. A
// table scan is no walk: it visits every partition of every month,
// whatever its limit, of the table as it is at each moment (at the run's
// middle on average, for a table that doubles over the run as for one
// that grows by a tenth). The proof deletes nothing, so a retention
// shorter than its table does not shorten it.
func TestWalkAtDepthReadsTheMonthsTheRunsTableHolds(t *testing.T) {
	const warmup = 2 * time.Second
	for _, c := range []struct {
		start      string
		n          int64
		d          time.Duration
		retention  time.Duration
		minR, maxR float64 // the exact model's requests, as a sanity bound
	}{
		{"2025-01-01T00:00:00Z", 100_000, 8 * time.Second, 0, 1, 1},
		{"2024-12-31T23:59:55Z", 100_000, 8 * time.Second, 0, 1.2, 1.8},
		{"2024-12-31T23:58:15Z", 100_000, 8 * time.Second, 0, 1.2, 1.8},
		// A long run on a shallow table: it doubles while the run goes on.
		{"2025-01-01T00:00:00Z", 50_000, time.Minute, 0, 1, 1},
		// A retention shorter than the proof's table: the proof deletes
		// nothing, so its table keeps the month before.
		{"2024-12-31T23:59:55Z", 100_000, 8 * time.Second, 90 * time.Second, 1.2, 1.8},
	} {
		n, d := c.n, c.d
		in := prepare(t, "monthly-feed", []byte(fmt.Sprintf(monthlyFeed, c.start)))
		in.Opts.Retention = c.retention
		s := in.DepthSize(n, warmup, d)
		for _, sch := range in.Own {
			f, err := in.JudgeAt(context.Background(), sch, s)
			if err != nil {
				t.Fatal(err)
			}
			// The run's moments as the judge takes them: the newest entity
			// moving over the run by its drift.
			var reqs, visited [2]float64
			const moments = 8
			for i := 0; i < moments; i++ {
				size := n + int64(in.insertRate()*(warmup.Seconds()+(float64(i)+0.5)/moments*d.Seconds()))
				m := question.NewModel(in.Pop, sch, size)
				for k := range in.Questions {
					r, v, _ := modelCostAt(t, in, m, k, question.Derive(in.Questions[k], sch), size, 600)
					reqs[k] += r / moments
					visited[k] += v / moments
				}
			}
			if reqs[0] < c.minR || reqs[0] > c.maxR {
				t.Fatalf("start %s, %d entities, %s: the exact model's %.3f requests a question, want %.1f to %.1f", c.start, n, sch.Name, reqs[0], c.minR, c.maxR)
			}
			for k, j := range f.Questions {
				if !near(j.RequestsPerQuestion, reqs[k], 0.02) || !near(j.RowsVisitedPerQuestion, visited[k], 1) {
					t.Errorf("start %s, %d entities, %s run, %s, %s (%s): judged %.3f requests, %.2f rows visited a question at depth; the run's table %.3f, %.2f",
						c.start, n, d, sch.Name, j.Name, j.Plan, j.RequestsPerQuestion, j.RowsVisitedPerQuestion, reqs[k], visited[k])
				}
			}
		}
	}
}
