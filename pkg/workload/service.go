package workload

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/table"
)

// Service is what the run needs of a Table endpoint: table management and a
// Store per table. *table.Service provides it through TableService.
type Service interface {
	CreateTable(ctx context.Context, name string) table.Result
	DeleteTable(ctx context.Context, name string) table.Result
	TableExists(ctx context.Context, name string) (bool, table.Result)
	Store(name string) Store
}

// TableService adapts a *table.Service to Service. Measured, when set, is
// the service's measurement switch (the embedded service's): TableService
// passes Run's SetMeasured calls on to it. Local, when set, is the same
// service in this process: its Stores are Loaders, which the seed phase
// writes through.
type TableService struct {
	*table.Service
	Measured Measured
	Local    Local
}

var _ Measured = TableService{}

// SetMeasured implements Measured.
func (s TableService) SetMeasured(on bool) {
	if s.Measured != nil {
		s.Measured.SetMeasured(on)
	}
}

// Store implements Service.
func (s TableService) Store(name string) Store {
	st := TableStore{s.Service.Table(name)}
	if s.Local != nil {
		return localStore{TableStore: st, local: s.Local, name: name}
	}
	return st
}

var tableNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{2,62}$`)

// ValidTableName reports whether name is a valid Azure table name.
func ValidTableName(name string) bool { return tableNameRE.MatchString(name) }

// FreshTableName returns a new table name for a run: "ts", up to 12 letters
// and digits of hint, and 8 random hex digits, so runs never collide with
// each other or with the user's tables.
func FreshTableName(hint string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return tableName(hint, b)
}

// tableName is "ts", up to 12 letters and digits of hint, and the hex
// digits of b.
func tableName(hint string, b [4]byte) string {
	var clean strings.Builder
	for _, r := range hint {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			clean.WriteRune(r)
		}
		if clean.Len() == 12 {
			break
		}
	}
	return "ts" + clean.String() + hex.EncodeToString(b[:])
}

// Explainer is an optional capability of a Service (*table.Service has
// it): it words a refusal no retry cures (table.Result.AccessDenied) for
// the user, in terms of the credential; what is the refused operation's
// kind ("read", "create table", "insert"...).
type Explainer interface {
	Explain(ctx context.Context, res table.Result, what, table string) string
}

// explain is svc's Explainer's sentence for res, or res's error.
func explain(ctx context.Context, svc Service, res table.Result, what, tbl string) string {
	if e, ok := svc.(Explainer); ok {
		if s := e.Explain(ctx, res, what, tbl); s != "" {
			return s
		}
	}
	if res.Err == nil {
		return res.Outcome.Key()
	}
	return res.Err.Error()
}

// tables creates the run's tables and remembers which ones it created, so
// cleanup never deletes a table the run did not make.
type tables struct {
	svc     Service
	created []string
}

// ErrTableExists refuses to write into a table the run did not create.
var ErrTableExists = fmt.Errorf("workload: table already exists")

// ensure creates name, or with reuse accepts an existing table: one found
// by name first, so that an identity that may read but not create tables
// can run on a table prepared for it.
func (t *tables) ensure(ctx context.Context, name string, reuse bool) error {
	if reuse {
		if ok, res := t.svc.TableExists(ctx, name); ok && res.Outcome.Class == outcome.OK {
			return nil
		}
	}
	res := t.svc.CreateTable(ctx, name)
	if res.Outcome.Class == outcome.OK {
		t.created = append(t.created, name)
		return nil
	}
	if res.Outcome.Status == 409 {
		if reuse {
			return nil
		}
		return fmt.Errorf("%w: %q was not created by this run; tablestress never writes into a table it did not create unless --reuse-table is given", ErrTableExists, name)
	}
	return fmt.Errorf("creating table %q: %s", name, explain(ctx, t.svc, res, "create table", name))
}

// cleanup deletes the tables the run created.
func (t *tables) cleanup(ctx context.Context) error {
	var first error
	for _, name := range t.created {
		if res := t.svc.DeleteTable(ctx, name); res.Outcome.Class != outcome.OK && res.Outcome.Status != 404 && first == nil {
			first = fmt.Errorf("deleting table %q: %v", name, res.Err)
		}
	}
	return first
}
