package table

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// azurite opens the Azurite instance the test script started.
func azurite(t *testing.T) *Service {
	t.Helper()
	conn := os.Getenv("TABLESTRESS_AZURITE")
	if conn == "" {
		t.Skip("TABLESTRESS_AZURITE is not set: run the tests with `make test`, which starts Azurite")
	}
	tg, err := ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(tg, Options{Workers: 4, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

func freshTable(t *testing.T, svc *Service) *Table {
	t.Helper()
	name := fmt.Sprintf("tbl%d", time.Now().UnixNano())
	if r := svc.CreateTable(context.Background(), name); r.Outcome.Class != outcome.OK {
		t.Fatalf("create table: %v", r.Err)
	}
	t.Cleanup(func() { svc.DeleteTable(context.Background(), name) })
	return svc.Table(name)
}

func entity(pk, rk string, v int) []byte {
	return []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"V":%d}`, pk, rk, v))
}

func wantStatus(t *testing.T, what string, r Result, key string) {
	t.Helper()
	if got := r.Outcome.Key(); got != key {
		t.Errorf("%s: %s (%v), want %s", what, got, r.Err, key)
	}
}

func TestAzuriteEntityLifecycle(t *testing.T) {
	svc := azurite(t)
	ctx := context.Background()
	tb := freshTable(t, svc)
	if r := svc.CreateTable(ctx, tb.Name()); r.Outcome.Key() != "409 TableAlreadyExists" {
		t.Errorf("second create: %s", r.Outcome.Key())
	}
	if ok, r := svc.TableExists(ctx, tb.Name()); !ok || r.Err != nil {
		t.Errorf("TableExists = %v %v", ok, r.Err)
	}
	if ok, _ := svc.TableExists(ctx, "nosuchtable123"); ok {
		t.Error("TableExists says a missing table exists")
	}
	wantStatus(t, "insert", tb.Insert(ctx, entity("p", "r", 1)), "201")
	wantStatus(t, "insert again", tb.Insert(ctx, entity("p", "r", 1)), "409 EntityAlreadyExists")
	g := tb.Get(ctx, "p", "r", nil)
	wantStatus(t, "get", g, "200")
	if g.ETag == "" || g.Entities != 1 {
		t.Errorf("get: etag %q entities %d", g.ETag, g.Entities)
	}
	sel := tb.Get(ctx, "p", "r", []string{"V"})
	if sel.Outcome.Key() != "200" || sel.Entities != 1 || sel.ETag != g.ETag {
		t.Errorf("projected get: %s entities %d etag %q (want %q)", sel.Outcome.Key(), sel.Entities, sel.ETag, g.ETag)
	}
	if m := tb.Get(ctx, "p", "missing", []string{"V"}); m.Outcome.Key() != "200" || m.Entities != 0 {
		t.Errorf("projected get of a missing entity: %s entities %d", m.Outcome.Key(), m.Entities)
	}
	wantStatus(t, "get missing", tb.Get(ctx, "p", "missing", nil), "404 ResourceNotFound")
	u := tb.Update(ctx, entity("p", "r", 2), UpdateModeReplace, g.ETag)
	wantStatus(t, "update with etag", u, "204")
	wantStatus(t, "update with stale etag", tb.Update(ctx, entity("p", "r", 3), UpdateModeReplace, g.ETag), "412 UpdateConditionNotSatisfied")
	wantStatus(t, "update missing", tb.Update(ctx, entity("p", "zz", 3), UpdateModeMerge, ""), "404 ResourceNotFound")
	wantStatus(t, "upsert new", tb.Upsert(ctx, entity("p", "r2", 1), UpdateModeMerge), "204")
	wantStatus(t, "upsert existing", tb.Upsert(ctx, entity("p", "r2", 2), UpdateModeReplace), "204")
	wantStatus(t, "delete", tb.Delete(ctx, "p", "r", ""), "204")
	wantStatus(t, "delete missing", tb.Delete(ctx, "p", "r", ""), "404 ResourceNotFound")
	if r := tb.Insert(ctx, []byte(`{"RowKey":"x"}`)); r.Outcome.Key() != "400 InvalidInput" {
		t.Errorf("entity without PartitionKey: %s", r.Outcome.Key())
	}
}

func TestAzuriteQueryPagesAndBatches(t *testing.T) {
	svc := azurite(t)
	ctx := context.Background()
	tb := freshTable(t, svc)
	// 2,500 entities in 25 batches of 100.
	for b := 0; b < 25; b++ {
		acts := make([]Action, 100)
		for i := range acts {
			acts[i] = Action{Kind: ActionInsert, Entity: entity("part", fmt.Sprintf("%05d", b*100+i), i)}
		}
		r := tb.Submit(ctx, acts)
		if r.Outcome.Key() != "202" || r.Entities != 100 {
			t.Fatalf("batch %d: %s %v", b, r.Outcome.Key(), r.Err)
		}
	}
	pager := tb.Query(ctx, Query{Filter: FilterPK("part"), Select: []string{"RowKey"}})
	pages, total := 0, 0
	for {
		page, res, more := pager.Next(ctx)
		if res.Outcome.Key() != "200" {
			t.Fatalf("page %d: %v", pages, res.Err)
		}
		pages++
		total += len(page.Entities)
		if res.Entities != len(page.Entities) {
			t.Errorf("page Entities %d, len %d", res.Entities, len(page.Entities))
		}
		if !more {
			break
		}
	}
	if pages != 3 || total != 2500 {
		t.Errorf("%d pages, %d entities; want 3 and 2500", pages, total)
	}
	top := tb.Query(ctx, Query{Filter: FilterRowRange("part", "00100", "00150"), Top: 20})
	page, _, more := top.Next(ctx)
	if len(page.Entities) != 20 || !more || !strings.Contains(string(page.Entities[0]), `"RowKey":"00100"`) {
		t.Errorf("range page: %d entities more=%v first %.80s", len(page.Entities), more, page.Entities[0])
	}
	// A failed transaction: the second action inserts an existing entity.
	r := tb.Submit(ctx, []Action{
		{Kind: ActionInsert, Entity: entity("part", "new1", 1)},
		{Kind: ActionInsert, Entity: entity("part", "00007", 1)},
	})
	if r.Outcome.Key() != "409 EntityAlreadyExists" || r.FailedIndex != 1 {
		t.Errorf("failed transaction: %s index %d (%v)", r.Outcome.Key(), r.FailedIndex, r.Err)
	}
	if g := tb.Get(ctx, "part", "new1", nil); g.Outcome.Status != 404 {
		t.Errorf("a failed transaction must write nothing: new1 is %s", g.Outcome.Key())
	}
	acts := make([]Action, 101)
	if r := tb.Submit(ctx, acts); r.Outcome.Key() != "400 InvalidInput" {
		t.Errorf("101 actions: %s", r.Outcome.Key())
	}
}
