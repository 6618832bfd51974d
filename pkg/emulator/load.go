package emulator

import (
	"context"

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
	if s.clock != nil {
		ctx = context.WithValue(ctx, onCallerKey{}, true)
	}
	now := s.now()
	ops := make([]batchOp, len(entities))
	size := 0
	for i, body := range entities {
		size += len(body)
		pk, rk, props, aerr := parseEntity(body)
		ops[i] = batchOp{table: table, op: op{kind: opWrite, pk: pk, rk: rk, props: props}, err: aerr}
	}
	rep, failed := s.transact(ctx, ops, nil, size, "")
	s.settle(ctx, &rep, now)
	s.count(table, &rep)
	switch {
	case rep.drop:
		return outcome.Outcome{Class: outcome.Transport}, "the service closed the connection"
	case failed != nil: // a failed transaction, answered 202 with the failing operation
		return outcome.New(failed.status, failed.code), failed.msg
	case rep.err != nil: // refused: throttled, or a fault
		return outcome.New(rep.status, rep.err.code), rep.err.msg
	}
	return outcome.New(rep.status, ""), ""
}
