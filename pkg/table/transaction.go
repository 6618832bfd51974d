package table

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// MaxTransactionActions is Azure's limit of operations in an entity group
// transaction. Azurite answers more with a malformed response instead of an
// error, so Submit refuses them before sending.
const MaxTransactionActions = 100

// ActionKind is an operation of an entity group transaction.
type ActionKind int

// Transaction operations.
const (
	ActionInsert        ActionKind = iota // insert; 409 if the entity exists
	ActionUpsertMerge                     // insert or merge
	ActionUpsertReplace                   // insert or replace
	ActionUpdateMerge                     // merge into an existing entity (If-Match)
	ActionUpdateReplace                   // replace an existing entity (If-Match)
	ActionDelete                          // delete an existing entity (If-Match)
)

var actionTypes = [...]aztables.TransactionType{
	ActionInsert:        aztables.TransactionTypeAdd,
	ActionUpsertMerge:   aztables.TransactionTypeInsertMerge,
	ActionUpsertReplace: aztables.TransactionTypeInsertReplace,
	ActionUpdateMerge:   aztables.TransactionTypeUpdateMerge,
	ActionUpdateReplace: aztables.TransactionTypeUpdateReplace,
	ActionDelete:        aztables.TransactionTypeDelete,
}

// Action is one operation of a transaction. Entity is its JSON object (for
// a delete, one with the PartitionKey and RowKey is enough). ETag is the
// If-Match of updates and deletes; "" means any version.
type Action struct {
	Kind   ActionKind
	Entity []byte
	ETag   string
}

// Errors of transactions refused before sending (wrapped in Result.Err,
// with ErrNotSent).
var (
	ErrTooManyActions = errors.New("table: an entity group transaction holds 1 to 100 operations")
	ErrActionKind     = errors.New("table: unknown transaction action kind")
)

// Submit sends an entity group transaction: all its actions succeed (202,
// Entities = len(actions)) or none does. A failed transaction is
// classified by its failing operation (e.g. 409 EntityAlreadyExists) with
// FailedIndex set to that operation. Actions must share one PartitionKey
// and name each entity once; Azure refuses mixed partitions with 400
// CommandsInBatchActOnDifferentPartitions (Azurite accepts them): Submit
// sends them as they are, to measure the service and not itself. It
// refuses, without sending, an empty transaction, more than
// MaxTransactionActions, an unknown kind and an entity aztables cannot send.
func (t *Table) Submit(ctx context.Context, actions []Action) Result {
	if len(actions) == 0 || len(actions) > MaxTransactionActions {
		return notSent(wrapf(ErrTooManyActions, "got "+strconv.Itoa(len(actions))), -1)
	}
	acts := make([]aztables.TransactionAction, len(actions))
	tags := make([]azcore.ETag, len(actions))
	for i, a := range actions {
		if a.Kind < 0 || int(a.Kind) >= len(actionTypes) {
			return notSent(wrapf(ErrActionKind, "action "+strconv.Itoa(i)+" has kind "+strconv.Itoa(int(a.Kind))), i)
		}
		if err := checkEntity(a.Entity); err != nil {
			return notSent(wrapf(err, "action "+strconv.Itoa(i)), i)
		}
		acts[i] = aztables.TransactionAction{ActionType: actionTypes[a.Kind], Entity: a.Entity}
		if a.ETag != "" {
			tags[i] = azcore.ETag(a.ETag)
			acts[i].IfMatch = &tags[i]
		}
	}
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	if _, err := t.c.SubmitTransaction(c, acts, nil); err != nil {
		res := classify(ctx, c, err)
		if errors.Is(res.Err, errNotJSON) {
			// Rare: find which entity aztables could not decode.
			for i, a := range actions {
				if !json.Valid(a.Entity) {
					return notSent(wrapf(errNotJSON, "action "+strconv.Itoa(i)), i)
				}
			}
		}
		return res
	}
	return okResult(c, http.StatusAccepted, len(actions), "")
}
