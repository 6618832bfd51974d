package table

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// MaxTransactionActions is Azure's limit of operations in an entity group
// transaction. Azurite answers more with a malformed response instead of an
// error, so Submit refuses them before sending.
const MaxTransactionActions = 100

// ActionKind is an operation of an entity group transaction.
type ActionKind int

// Transaction operations.
const (
	ActionInsert ActionKind = iota
	ActionUpsertMerge
	ActionUpsertReplace
	ActionUpdateMerge
	ActionUpdateReplace
	ActionDelete
)

var actionTypes = [...]aztables.TransactionType{
	ActionInsert:        aztables.TransactionTypeAdd,
	ActionUpsertMerge:   aztables.TransactionTypeInsertMerge,
	ActionUpsertReplace: aztables.TransactionTypeInsertReplace,
	ActionUpdateMerge:   aztables.TransactionTypeUpdateMerge,
	ActionUpdateReplace: aztables.TransactionTypeUpdateReplace,
	ActionDelete:        aztables.TransactionTypeDelete,
}

// Action is one operation of a transaction. ETag "" means any version.
type Action struct {
	Kind   ActionKind
	Entity []byte
	ETag   string
}

// ErrTooManyActions refuses transactions over Azure's limit.
var ErrTooManyActions = errors.New("table: an entity group transaction holds at most 100 operations")

// Submit sends an entity group transaction. On success Entities is the
// number of actions; a failed transaction is classified by its failing
// operation's status (e.g. 409 EntityAlreadyExists) with FailedIndex set.
func (t *Table) Submit(ctx context.Context, actions []Action) Result {
	if len(actions) == 0 || len(actions) > MaxTransactionActions {
		return Result{Outcome: outcome.Outcome{Status: 400, Code: "InvalidInput", Class: outcome.ClientError}, FailedIndex: -1,
			Err: fmt.Errorf("400 InvalidInput: %w (got %d, not sent)", ErrTooManyActions, len(actions))}
	}
	acts := make([]aztables.TransactionAction, len(actions))
	for i, a := range actions {
		if r, bad := badEntity(a.Entity); bad {
			r.FailedIndex = i
			return r
		}
		acts[i] = aztables.TransactionAction{ActionType: actionTypes[a.Kind], Entity: a.Entity}
		if a.ETag != "" {
			tag := azcore.ETag(a.ETag)
			acts[i].IfMatch = &tag
		}
	}
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	if _, err := t.c.SubmitTransaction(octx, acts, nil); err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusAccepted, len(actions), "")
}
