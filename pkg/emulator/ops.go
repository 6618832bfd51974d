package emulator

import (
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// opKind is a single-entity change.
type opKind int

const (
	opInsert opKind = iota
	opWrite         // update (with If-Match) or upsert (without)
	opDelete
)

// op is one change, alone or in a transaction.
type op struct {
	kind    opKind
	pk, rk  string
	props   []store.Prop
	merge   bool
	ifMatch string
}

// checkIfMatch refuses an If-Match that is neither absent, * nor a weak
// ETag (edm.ValidETag): 400 InvalidInput, where a weak ETag that does not
// match, whatever it holds, is 412 (REST "Table service error codes";
// Azurite issue #1229).
func checkIfMatch(v string) *apiError {
	if v == "" || v == "*" || edm.ValidETag(v) {
		return nil
	}
	return invalidInput("The etag value '%s' specified in one of the request headers is not valid. Please make sure only one etag value is specified and is valid.", v)
}

// needsCurrent reports whether applying o depends on the entity it
// replaces: not for an unconditional Insert Or Replace, unless the table
// keeps partition sizes, which grow by the difference. Callers hold a lock.
func needsCurrent(t *store.Table, o op) bool {
	return o.kind != opWrite || o.merge || o.ifMatch != "" || t.KeepsSizes()
}

// grow accounts delta bytes to partition pk of table t when the table
// keeps sizes, refusing a growth beyond the model's partition limit
// (Cosmos DB's 20 GB logical partition) with its answer. The caller holds
// t's write lock and applies the change when grow returns nil.
func (s *Server) grow(t *store.Table, pk string, delta int) *apiError {
	if t.Grow(pk, delta, s.model.PartitionBytes()) {
		return nil
	}
	d := s.model.PartitionFull()
	return &apiError{d.Status, d.Code, d.Message}
}

// apply performs one change under the table's write lock, and waits until
// the journal (if any) holds it.
func (s *Server) apply(t *store.Table, o op, discard bool) (*store.Entity, *apiError) {
	t.Lock()
	e, c, aerr := s.applyLocked(t, o, discard)
	t.Unlock()
	if err := c.Wait(); err != nil {
		return nil, notDurable(err)
	}
	return e, aerr
}

// applyLocked is apply under the lock: it returns the journal's commit of
// the change, nil when there is no journal or no change.
func (s *Server) applyLocked(t *store.Table, o op, discard bool) (*store.Entity, *journal.Commit, *apiError) {
	var old *store.Entity
	if needsCurrent(t, o) {
		old = t.Get(o.pk, o.rk)
	}
	e, err := s.check(t.Names(), old, o)
	if err != nil || discard {
		return e, nil, err
	}
	if err := s.grow(t, o.pk, e.Bytes()-old.Bytes()); err != nil {
		return nil, nil, err
	}
	if o.kind == opDelete {
		t.Remove(o.pk, o.rk)
	} else {
		t.Put(e)
	}
	if s.journal == nil {
		return e, nil, nil
	}
	en := s.journal.Begin(t)
	if o.kind == opDelete {
		en.Remove(o.pk, o.rk)
	} else {
		en.Put(e)
	}
	return e, en.Commit(), nil
}

// check validates o against the current entity (nil when missing) and
// returns the entity to store (nil for deletes), its properties named in
// the table's dictionary nm.
func (s *Server) check(nm *store.Names, old *store.Entity, o op) (*store.Entity, *apiError) {
	switch o.kind {
	case opInsert:
		if old != nil {
			return nil, errEntityExists
		}
		if err := checkEntity(o.pk, o.rk, o.props); err != nil {
			return nil, err
		}
		return store.NewEntity(o.pk, o.rk, o.props, s.store.Timestamp(), nm), nil
	case opDelete:
		if old == nil {
			return nil, errNotFound
		}
		if o.ifMatch != "*" && o.ifMatch != old.ETag() {
			return nil, errCondition
		}
		return nil, nil
	}
	if o.ifMatch != "" {
		if old == nil {
			return nil, errNotFound
		}
		if o.ifMatch != "*" && o.ifMatch != old.ETag() {
			return nil, errCondition
		}
	}
	props := o.props
	if o.merge && old != nil {
		props = store.Merge(old.Properties(), o.props)
		if len(props) > maxProperties {
			return nil, errTooManyProperties
		}
	}
	if err := checkEntity(o.pk, o.rk, props); err != nil {
		return nil, err
	}
	return store.NewEntity(o.pk, o.rk, props, s.store.Timestamp(), nm), nil
}
