package workload

import (
	"context"

	"github.com/tablestress/tablestress/pkg/table"
)

// Store is what the workload needs of one table. *table.Table provides it
// through TableStore; tests use in-memory fakes. Every method sends exactly
// one request (Query's pager one per page) and reports its outcome in the
// Result rather than as an error.
type Store interface {
	Insert(ctx context.Context, entity []byte) table.Result
	Upsert(ctx context.Context, entity []byte, mode table.UpdateMode) table.Result
	Update(ctx context.Context, entity []byte, mode table.UpdateMode, etag string) table.Result
	Delete(ctx context.Context, pk, rk, etag string) table.Result
	Get(ctx context.Context, pk, rk string, sel []string) table.Result
	Submit(ctx context.Context, actions []table.Action) table.Result
	Query(ctx context.Context, q table.Query) Pager
}

// Pager fetches a query one page (one request) at a time.
type Pager interface {
	Next(ctx context.Context) (table.Page, table.Result, bool)
}

// TableStore adapts a *table.Table to Store.
type TableStore struct{ *table.Table }

// Query implements Store.
func (s TableStore) Query(ctx context.Context, q table.Query) Pager { return s.Table.Query(ctx, q) }
