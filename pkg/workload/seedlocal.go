package workload

import (
	"context"
	"errors"

	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/table"
)

// Loader is an optional capability of a Store whose service runs in this
// process (the embedded service's tables): the seed phase hands it its
// transactions directly, each served as the service serves a transaction
// of upserts (checked, modelled, counted, all or none) but without HTTP,
// the SDK's encoding or the network, and counts the rows it wrote with
// Rows instead of reading them back page by page. Seeding the embedded
// service is then bound by the table's own work. Only the seed phase uses
// it: the measured operations always go through the SDK.
type Loader interface {
	// Load writes entities (JSON bodies of one partition, at most 100)
	// as one transaction of Insert Or Replace operations.
	Load(ctx context.Context, entities [][]byte) table.Result
	// Rows is how many rows the table holds.
	Rows() (int64, table.Result)
}

// Local is a Table service in this process that takes transactions
// without requests, as *emulator.Server does.
type Local interface {
	Load(ctx context.Context, table string, entities [][]byte) (outcome.Outcome, string)
	Rows(table string) (int, bool)
}

// localStore is a Store of a Local service: a TableStore with the Loader
// capability.
type localStore struct {
	TableStore
	local Local
	name  string
}

var _ Loader = localStore{}

// Load implements Loader.
func (s localStore) Load(ctx context.Context, entities [][]byte) table.Result {
	o, msg := s.local.Load(ctx, s.name, entities)
	if o.Class != outcome.OK {
		return table.Result{Outcome: o, FailedIndex: -1, Err: errors.New(o.Key() + ": " + msg)}
	}
	return table.Result{Outcome: o, Entities: len(entities), FailedIndex: -1}
}

// Rows implements Loader.
func (s localStore) Rows() (int64, table.Result) {
	n, ok := s.local.Rows(s.name)
	if !ok {
		o := outcome.New(404, "TableNotFound")
		return 0, table.Result{Outcome: o, FailedIndex: -1, Err: errors.New(o.Key() + ": the table does not exist")}
	}
	return int64(n), table.Result{Outcome: outcome.New(200, ""), FailedIndex: -1}
}
