package emulator

import (
	"context"
	"net/http"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Load writes entities into a table as one entity group transaction of
// Insert Or Replace Entity operations, served as a $batch request of them
// would be — every entity checked, the transaction judged by the model and
// the fault injection, applied all or none, counted in the statistics,
// answered after its modelled service time — but without the request: no
// HTTP, no multipart body, no answer to render. Entities are JSON bodies
// naming their PartitionKey and RowKey, all of one partition, at most 100.
// It is how a client in the same process (tablestress seeding the embedded
// service) loads a table at the cost of the table's own work.
//
// It returns the transaction's outcome, for a failed transaction the
// failing operation's as a client reads it (a connection the fault
// injection drops is a Transport outcome), and the error's message when
// it is not OK. It is safe for concurrent use.
func (s *Server) Load(ctx context.Context, table string, entities [][]byte) (outcome.Outcome, string) {
	now := s.now()
	ops := make([]batchOp, len(entities))
	size := 0
	for i, body := range entities {
		size += len(body)
		pk, rk, props, aerr := parseEntity(body)
		ops[i] = batchOp{table: table, op: op{kind: opWrite, pk: pk, rk: rk, props: props}, err: aerr}
	}
	rep, failed := s.transact(ctx, ops, nil, size, false)
	if rep.timed && !rep.drop {
		s.hold(ctx, now.Add(rep.delay+s.model.ServiceTime(rep.work)))
	}
	if rep.drop {
		s.stats.record(table, rep.part, dropKey, 0, false)
		return outcome.Outcome{Class: outcome.Transport}, "the service closed the connection"
	}
	switch {
	case failed != nil: // a failed transaction: its 202 is counted under the operation's status
		s.stats.record(table, rep.part, rep.key, 0, false)
		return outcome.New(failed.status, failed.code), failed.msg
	case rep.err != nil: // refused: throttled, or a fault
		s.stats.record(table, rep.part, statusKey(rep.status, rep.err.code), 0, false)
		return outcome.New(rep.status, rep.err.code), rep.err.msg
	}
	s.stats.record(table, rep.part, statusKey(http.StatusAccepted, ""), rep.entities, rep.discard)
	return outcome.New(http.StatusAccepted, ""), ""
}
