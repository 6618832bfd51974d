package emulator

import (
	"io"
	"net/http"
	"strings"

	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// readBody reads a request body of at most 4 MiB into buf, a buffer of
// bufPool that the caller returns once nothing refers to the body; a
// larger body is 413 RequestBodyTooLarge. The entity's own limits are
// checked on its parsed form (parseBody, checkEntity).
func readBody(r *http.Request, buf *[]byte) ([]byte, *apiError) {
	b := (*buf)[:0]
	lr := io.LimitReader(r.Body, maxRequestBytes+1)
	var err error
	for err == nil {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		var n int
		n, err = lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
	}
	*buf = b
	if err != io.EOF {
		return nil, invalidInput("The request body could not be read.")
	}
	if len(b) > maxRequestBytes {
		return nil, errBodyTooLarge
	}
	return b, nil
}

// The Prefer header's values for Insert Entity and Create Table (REST
// "Insert Entity": "Prefer: return-no-content" or "return-content"). The
// answer's Preference-Applied names what was done: return-content also
// when no Prefer asked, since the entity comes back by default (the Python
// SDK returns it only when the header says so; Azurite answers the same).
const (
	returnContent   = "return-content"
	returnNoContent = "return-no-content"
)

// preference is the return preference the request states, or "".
func preference(r *http.Request) string {
	for rest := reqHeader(r, "Prefer"); rest != ""; {
		var v string
		v, rest, _ = strings.Cut(rest, ",")
		switch v = strings.TrimSpace(v); v {
		case returnContent, returnNoContent:
			return v
		}
	}
	return ""
}

// extendsOf computes, for the partition model, whether a write to pk
// creates a PartitionKey at an end of table t (see store.Table.Extends); nil t
// (a missing table) extends nothing.
func extendsOf(t *store.Table, pk string) func() int {
	return func() int {
		if t == nil {
			return 0
		}
		t.RLock()
		defer t.RUnlock()
		return t.Extends(pk)
	}
}

// insert adds an entity (POST /table).
func (s *Server) insert(r *http.Request, name string, g *grant) reply {
	buf := getBuf()
	defer putBuf(buf) // the reply refers to no part of the body
	body, aerr := readBody(r, buf)
	if aerr != nil {
		return errReply(aerr, "")
	}
	pk, rk, props, aerr := parseEntity(body)
	if aerr != nil {
		return errReply(aerr, "")
	}
	if aerr := checkKeys(pk, rk); aerr != nil {
		return errReply(aerr, pk)
	}
	if aerr := g.allowsKeys(pk, rk); aerr != nil {
		return errReply(aerr, pk)
	}
	if aerr := checkEntity(pk, rk, props); aerr != nil {
		return errReply(aerr, pk)
	}
	t := s.store.Table(name)
	f, refused, d := s.gate(r.Context(), pk, model.Request{Table: name, Partition: pk, Op: model.OpWrite, Entities: 1, Bytes: len(body), Props: len(props)}, extendsOf(t, pk))
	if refused != nil {
		return *refused
	}
	if t == nil {
		return errReply(errTableNotFound, pk)
	}
	// The entity is copied into the table and rendered from: its
	// properties are encoded into a pooled buffer.
	pbuf := getBuf()
	defer putBuf(pbuf)
	e := new(store.Entity)
	*pbuf = store.FillEntity(e, pk, rk, props, s.store.Timestamp(), t.Names(), *pbuf)[:0]
	if !f.Discard {
		if aerr := s.insertNew(t, e); aerr != nil {
			return timedReply(errReply(aerr, e.PK()), model.OpWrite, 0, len(body), d)
		}
	}
	rep := timedReply(reply{part: e.PK(), entities: 1, tagged: true, tagTS: e.Ticks(), discard: f.Discard}, model.OpWrite, 1, len(body), d)
	if preference(r) == returnNoContent {
		rep.status, rep.prefer = http.StatusNoContent, returnNoContent
		return rep
	}
	rep.status, rep.prefer = http.StatusCreated, returnContent
	v := s.viewOf(r, name, nil)
	rep.body, rep.pooled = renderPooled(&v, e)
	return rep
}

// insertNew puts e into t, journalled when the service persists its
// data, and returns what to answer when it cannot: its keys taken, the
// account full, or the journal unable to make it durable (nil when e is
// stored). One walk down the tree in the common case: the entity goes
// in, and comes out again when it was there already or is too many.
func (s *Server) insertNew(t *store.Table, e *store.Entity) *apiError {
	t.Lock()
	if !t.Insert(e) {
		t.Unlock()
		return errEntityExists
	}
	if aerr := s.grow(t, e.PK(), e.Bytes()); aerr != nil {
		t.Remove(e.PK(), e.RK())
		t.Unlock()
		return aerr
	}
	var c *journal.Commit
	if s.journal != nil {
		en := s.journal.Begin(t)
		en.Put(e)
		c = en.Commit()
	}
	t.Unlock()
	if err := c.Wait(); err != nil {
		return notDurable(err)
	}
	return nil
}

// getEntity is a point read. The entity is found before the model judges
// the read: Cosmos DB charges it by its size.
func (s *Server) getEntity(r *http.Request, rt route) reply {
	t := s.store.Table(rt.table)
	found, size := false, 0
	var ts int64
	var body []byte
	var pooled *[]byte
	if t != nil {
		// The answer is rendered under the lock, from the stored record:
		// a view of it is valid under the lock only.
		var v store.Entity
		t.RLock()
		if found = t.Find(rt.pk, rt.rk, &v); found {
			size, ts = v.Bytes(), v.Ticks()
			w := s.viewOf(r, rt.table, selectSet(queryValue(r, "$select")))
			body, pooled = renderPooled(&w, &v)
		}
		t.RUnlock()
	}
	_, refused, d := s.gate(r.Context(), rt.pk, model.Request{Table: rt.table, Partition: rt.pk, Op: model.OpRead, Entities: 1, Bytes: size}, nil)
	if refused != nil {
		putBuf(pooled)
		return *refused
	}
	if t == nil {
		return timedReply(errReply(errTableNotFound, rt.pk), model.OpRead, 0, 0, d)
	}
	if !found {
		return timedReply(errReply(errNotFound, rt.pk), model.OpRead, 0, 0, d)
	}
	rep := reply{status: http.StatusOK, part: rt.pk, entities: 1, tagged: true, tagTS: ts, body: body, pooled: pooled}
	return timedReply(rep, model.OpRead, 1, 0, d)
}

// updateEntity is PUT (replace) or PATCH/MERGE (merge) of one entity: an update
// with If-Match, an insert-or-replace/merge without.
func (s *Server) updateEntity(r *http.Request, rt route, mergeMode bool) reply {
	buf := getBuf()
	defer putBuf(buf) // the reply refers to no part of the body
	body, aerr := readBody(r, buf)
	if aerr != nil {
		return errReply(aerr, rt.pk)
	}
	_, _, _, props, aerr := parseBody(body)
	if aerr != nil {
		return errReply(aerr, rt.pk)
	}
	if aerr := checkKeys(rt.pk, rt.rk); aerr != nil {
		return errReply(aerr, rt.pk)
	}
	ifMatch := reqHeader(r, "If-Match")
	if aerr := checkIfMatch(ifMatch); aerr != nil {
		return errReply(aerr, rt.pk)
	}
	t := s.store.Table(rt.table)
	f, refused, d := s.gate(r.Context(), rt.pk, model.Request{Table: rt.table, Partition: rt.pk, Op: model.OpWrite, Entities: 1, Bytes: len(body), Props: len(props)}, extendsOf(t, rt.pk))
	if refused != nil {
		return *refused
	}
	if t == nil {
		return errReply(errTableNotFound, rt.pk)
	}
	e, aerr := s.apply(t, op{kind: opWrite, pk: rt.pk, rk: rt.rk, props: props, merge: mergeMode, ifMatch: ifMatch}, f.Discard)
	if aerr != nil {
		return timedReply(errReply(aerr, rt.pk), model.OpWrite, 0, len(body), d)
	}
	return timedReply(reply{status: http.StatusNoContent, part: rt.pk, entities: 1, tagged: true, tagTS: e.Ticks(), discard: f.Discard}, model.OpWrite, 1, len(body), d)
}

func (s *Server) deleteEntity(r *http.Request, rt route) reply {
	ifMatch := reqHeader(r, "If-Match")
	if ifMatch == "" {
		return errReply(errMissingIfMatch, rt.pk)
	}
	if aerr := checkIfMatch(ifMatch); aerr != nil {
		return errReply(aerr, rt.pk)
	}
	f, refused, d := s.gate(r.Context(), rt.pk, model.Request{Table: rt.table, Partition: rt.pk, Op: model.OpDelete, Entities: 1}, nil)
	if refused != nil {
		return *refused
	}
	t := s.store.Table(rt.table)
	if t == nil {
		return errReply(errTableNotFound, rt.pk)
	}
	if _, aerr := s.apply(t, op{kind: opDelete, pk: rt.pk, rk: rt.rk, ifMatch: ifMatch}, f.Discard); aerr != nil {
		return timedReply(errReply(aerr, rt.pk), model.OpDelete, 0, 0, d)
	}
	return timedReply(reply{status: http.StatusNoContent, part: rt.pk, entities: 1, discard: f.Discard}, model.OpDelete, 1, 0, d)
}
