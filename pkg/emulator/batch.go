package emulator

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// Entity group transaction limits (their source is on the azure
// constants).
const (
	maxBatchOps   = azure.TransactionEntities
	maxBatchBytes = azure.TransactionBytes
)

// batchOp is one parsed operation of a transaction.
type batchOp struct {
	op
	table  string
	insert bool
	err    *apiError // the operation is refused: the transaction fails at its index
}

// batch answers POST /$batch: one changeset applied atomically, or refused
// with Azure's errors, answered as 202 with the failing operation inside.
func (s *Server) batch(r *http.Request, g *grant) reply {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBatchBytes+1))
	if err != nil {
		return errReply(invalidInput("The request body could not be read."), "")
	}
	if len(body) > maxBatchBytes {
		return errReply(errBodyTooLarge, "")
	}
	ops, perr := parseBatch(reqHeader(r, "Content-Type"), body, s.account)
	if perr != nil {
		return errReply(perr, "")
	}
	rep, _ := s.transact(r.Context(), ops, g, len(body), s.baseURL(r))
	return rep
}

// transact serves a transaction's parsed operations (bodyBytes of request
// body) as the grant g allows (nil: the account key): it checks them,
// judges the transaction by the model and fault injection, and applies it
// all or none. It returns the answer, and the failing operation's error
// when the transaction failed. A successful answer has its multipart body
// when base, the service URL the client addressed, is set (its inserts'
// sub-responses name their entities' URLs).
func (s *Server) transact(ctx context.Context, ops []batchOp, g *grant, bodyBytes int, base string) (reply, *apiError) {
	if len(ops) == 0 {
		return errReply(invalidInput("The batch holds no operation."), ""), nil
	}
	first := ops[0]
	part := first.pk
	// A refused or failed transaction is answered 202 with the failing
	// operation inside; it is counted under that operation's status, as
	// the client reports it.
	fail := func(i int, e *apiError) (reply, *apiError) {
		return reply{status: http.StatusAccepted, key: statusKey(e.status, e.code), part: part, table: first.table,
			body: batchResponse(nil, nil, "", i, e, s.now()), ctype: "multipart/mixed; boundary=" + batchBoundary}, e
	}
	if i, e := checkBatch(ops, g); e != nil {
		return fail(i, e)
	}
	t := s.store.Table(first.table)
	props := 0
	for _, o := range ops {
		props += len(o.props)
	}
	f, refused, d := s.gate(ctx, part, model.Request{Table: first.table, Partition: part, Op: model.OpBatch, Entities: len(ops), Bytes: bodyBytes, Props: props}, extendsOf(t, part))
	if refused != nil {
		refused.table = first.table
		return *refused, refused.err
	}
	if t == nil {
		rep, e := fail(0, errTableNotFound)
		return timedReply(rep, model.OpBatch, 0, bodyBytes, d), e
	}
	results, i, aerr := s.applyBatch(t, ops, f.Discard)
	if aerr != nil {
		rep, e := fail(i, aerr)
		return timedReply(rep, model.OpBatch, 0, bodyBytes, d), e
	}
	rep := reply{status: http.StatusAccepted, part: part, table: first.table, entities: len(ops), discard: f.Discard}
	if base != "" {
		rep.body, rep.ctype = batchResponse(results, ops, base, -1, nil, s.now()), "multipart/mixed; boundary="+batchBoundary
	}
	return timedReply(rep, model.OpBatch, len(ops), bodyBytes, d), nil
}

// checkBatch checks a transaction's operations before it is judged, in
// Azure's order, against the grant g (nil: the account key), and returns
// the failing operation's index and error: at most 100 operations (Azure
// names the 100th), each framed and allowed, all on one table and one
// partition, with valid keys and no RowKey twice.
func checkBatch(ops []batchOp, g *grant) (int, *apiError) {
	if len(ops) > maxBatchOps {
		return maxBatchOps - 1, errTooManyOps
	}
	first := ops[0]
	seen := make(map[string]bool, len(ops))
	for i, o := range ops {
		if o.err != nil {
			return i, o.err
		}
		if e := g.allows(opAccess(o)); e != nil {
			return i, e
		}
		if e := g.allowsKeys(o.pk, o.rk); e != nil {
			return i, e
		}
		if o.table != first.table {
			return i, invalidInput("All operations of a batch must address the same table.")
		}
		if o.pk != first.pk {
			return i, errMixedPartitions
		}
		if e := checkKeys(o.pk, o.rk); e != nil {
			return i, e
		}
		if seen[o.rk] {
			return i, errDuplicateRow
		}
		seen[o.rk] = true
	}
	return 0, nil
}

// applyBatch checks every operation against the table as changed by the
// ones before it, then applies them all, or none, and waits until the
// journal (if any) holds them.
func (s *Server) applyBatch(t *store.Table, ops []batchOp, discard bool) ([]*store.Entity, int, *apiError) {
	staged, errs := s.prestage(t, ops)
	t.Lock()
	staged, i, aerr := s.applyStaged(t, ops, staged, errs, discard)
	var c *journal.Commit
	if aerr == nil && !discard && s.journal != nil {
		en := s.journal.Begin(t)
		for i, o := range ops {
			if o.kind == opDelete {
				en.Remove(o.pk, o.rk)
			} else {
				en.Put(staged[i])
			}
		}
		c = en.Commit()
	}
	t.Unlock()
	if err := c.Wait(); err != nil {
		return nil, 0, notDurable(err)
	}
	return staged, i, aerr
}

// applyStaged is applyBatch under the table's write lock.
func (s *Server) applyStaged(t *store.Table, ops []batchOp, staged []*store.Entity, errs []*apiError, discard bool) ([]*store.Entity, int, *apiError) {
	delta := 0
	for i, o := range ops {
		var old *store.Entity
		switch {
		case needsCurrent(t, o.op):
			old = t.Get(o.pk, o.rk)
			e, err := s.check(t.Names(), old, o.op)
			if err != nil {
				return nil, i, err
			}
			staged[i] = e
		case errs[i] != nil:
			return nil, i, errs[i]
		default:
			// Written in the order of the table's lock, as the staged
			// ones are.
			staged[i].SetTime(s.store.Timestamp())
		}
		delta += staged[i].Bytes() - old.Bytes()
	}
	if discard {
		return staged, -1, nil
	}
	if err := s.grow(t, ops[0].pk, delta); err != nil {
		return nil, 0, err // the transaction's one partition is full
	}
	for i, o := range ops {
		if o.kind == opDelete {
			t.Remove(o.pk, o.rk)
		} else {
			t.Put(staged[i])
		}
	}
	return staged, -1, nil
}

// prestage checks and encodes, before the table's lock is taken, the
// operations whose outcome does not depend on the table's current entity
// (see needsCurrent): their encoding is most of a transaction's work, and
// outside the lock transactions of other partitions do it at once. It
// returns each such operation's entity or error by index; applyBatch
// stamps their write time under the lock.
func (s *Server) prestage(t *store.Table, ops []batchOp) ([]*store.Entity, []*apiError) {
	staged, errs := make([]*store.Entity, len(ops)), make([]*apiError, len(ops))
	for i, o := range ops {
		if !needsCurrent(t, o.op) {
			staged[i], errs[i] = s.check(t.Names(), nil, o.op)
		}
	}
	return staged, errs
}

const (
	batchBoundary     = "batchresponse_5e9b7f6c-3a1d-4c2e-9f0a-tablestress"
	changesetBoundary = "changesetresponse_0c4d2a8e-7b6f-4e1a-8d3c-tablestress"
)

// batchResponse renders a transaction's multipart answer: one inner
// response per operation on success (results and ops in order), or the
// failing one (index failed, with its index before the message as Azure
// writes it). Each inner response has the headers the operation's own
// answer would (recorded Azure answers, azure-sdk-for-js
// sdk/tables/data-tables/recordings): an insert's names its entity's URL
// under base in Location and DataServiceId besides its ETag, an update's
// or upsert's has its ETag, a delete's neither.
func batchResponse(results []*store.Entity, ops []batchOp, base string, failed int, e *apiError, now time.Time) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "--%s\r\nContent-Type: multipart/mixed; boundary=%s\r\n\r\n", batchBoundary, changesetBoundary)
	part := func(status int, header string, body []byte) {
		if e != nil {
			header = fmt.Sprintf("Content-ID: %d\r\n", max(failed, 0)+1) + header
		}
		fmt.Fprintf(&b, "--%s\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n", changesetBoundary)
		fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n%s", status, http.StatusText(status), header)
		if body != nil {
			fmt.Fprintf(&b, "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n\r\n%s\r\n", body)
		} else {
			b.WriteString("\r\n\r\n") // the blank line ending the headers, then the CRLF that starts the next delimiter
		}
	}
	if e != nil {
		part(e.status, "DataServiceVersion: 3.0;\r\n", errorBody(e, fmt.Sprintf("%d:", max(failed, 0)), now))
	} else {
		for i, r := range results {
			part(http.StatusNoContent, subResponseHeaders(ops[i], r, base), nil)
		}
	}
	fmt.Fprintf(&b, "--%s--\r\n--%s--\r\n", changesetBoundary, batchBoundary)
	return b.Bytes()
}

// subResponseHeaders are the headers of a successful operation's inner
// response: o's, whose entity is now r (nil when deleted).
func subResponseHeaders(o batchOp, r *store.Entity, base string) string {
	if o.insert {
		url := base + "/" + o.table + "(PartitionKey='" + keyLiteral(o.pk) + "',RowKey='" + keyLiteral(o.rk) + "')"
		return "Preference-Applied: return-no-content\r\nDataServiceVersion: 3.0;\r\nLocation: " + url +
			"\r\nDataServiceId: " + url + "\r\nETag: " + r.ETag() + "\r\n"
	}
	if r == nil {
		return "DataServiceVersion: 1.0;\r\n"
	}
	return "DataServiceVersion: 1.0;\r\nETag: " + r.ETag() + "\r\n"
}
