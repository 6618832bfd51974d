package table

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/outcome"
)

var update = flag.Bool("update", false, "capture testdata/azurite_batch_409.txt again from Azurite")

const goldenBatch = "testdata/azurite_batch_409.txt"

// azuriteService opens the Azurite instance named by TABLESTRESS_AZURITE.
func azuriteService(t *testing.T) *Service {
	t.Helper()
	tg, err := ParseTarget(testenv.Azurite(t))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(tg, Options{Workers: 4, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

var tableSeq atomic.Int64

// freshTable creates a table for one test and deletes it afterwards.
func freshTable(t *testing.T, svc *Service) *Table {
	t.Helper()
	name := fmt.Sprintf("ts%d%d", time.Now().UnixNano(), tableSeq.Add(1))
	if r := svc.CreateTable(context.Background(), name); r.Outcome.Class != outcome.OK {
		t.Fatalf("create table: %s (%v)", r.Outcome.Key(), r.Err)
	}
	t.Cleanup(func() { svc.DeleteTable(context.Background(), name) })
	return svc.Table(name)
}

func wantKey(t *testing.T, what string, r Result, key string) {
	t.Helper()
	if got := r.Outcome.Key(); got != key {
		t.Errorf("%s: %s (%v), want %s", what, got, r.Err, key)
	}
}

func TestAzuriteTablesAndEntities(t *testing.T) {
	svc := azuriteService(t)
	ctx := context.Background()
	tb := freshTable(t, svc)
	wantKey(t, "second create", svc.CreateTable(ctx, tb.Name()), "409 TableAlreadyExists")
	if ok, r := svc.TableExists(ctx, tb.Name()); !ok || r.Err != nil || r.Entities != 1 {
		t.Errorf("TableExists(created) = %v %v", ok, r.Err)
	}
	if ok, r := svc.TableExists(ctx, "nosuchtable123"); ok || r.Err != nil {
		t.Errorf("TableExists(missing) = %v %v", ok, r.Err)
	}

	ins := tb.Insert(ctx, entity("p", "r", 1))
	wantKey(t, "insert", ins, "201")
	wantKey(t, "insert again", tb.Insert(ctx, entity("p", "r", 1)), "409 EntityAlreadyExists")
	g := tb.Get(ctx, "p", "r", nil)
	wantKey(t, "get", g, "200")
	if g.ETag == "" || g.ETag != ins.ETag || g.Entities != 1 {
		t.Errorf("get: etag %q (insert gave %q) entities %d", g.ETag, ins.ETag, g.Entities)
	}
	sel := tb.Get(ctx, "p", "r", []string{"V"})
	if sel.Outcome.Key() != "200" || sel.Entities != 1 || sel.ETag != g.ETag {
		t.Errorf("get with select: %s entities %d etag %q, want 200 1 %q", sel.Outcome.Key(), sel.Entities, sel.ETag, g.ETag)
	}
	if m := tb.Get(ctx, "p", "missing", []string{"V"}); m.Outcome.Key() != "200" || m.Entities != 0 {
		t.Errorf("get with select of a missing entity: %s entities %d", m.Outcome.Key(), m.Entities)
	}
	wantKey(t, "get missing", tb.Get(ctx, "p", "missing", nil), "404 ResourceNotFound")

	u := tb.Update(ctx, entity("p", "r", 2), UpdateModeReplace, g.ETag)
	wantKey(t, "update with the current etag", u, "204")
	if u.ETag == "" || u.ETag == g.ETag {
		t.Errorf("update: new etag %q, old %q", u.ETag, g.ETag)
	}
	wantKey(t, "update with a stale etag", tb.Update(ctx, entity("p", "r", 3), UpdateModeMerge, g.ETag), "412 UpdateConditionNotSatisfied")
	wantKey(t, "update of a missing entity", tb.Update(ctx, entity("p", "zz", 3), UpdateModeMerge, ""), "404 ResourceNotFound")
	wantKey(t, "upsert new", tb.Upsert(ctx, entity("p", "r2", 1), UpdateModeMerge), "204")
	wantKey(t, "upsert existing", tb.Upsert(ctx, entity("p", "r2", 2), UpdateModeReplace), "204")
	wantKey(t, "delete with a stale etag", tb.Delete(ctx, "p", "r", g.ETag), "412 UpdateConditionNotSatisfied")
	wantKey(t, "delete", tb.Delete(ctx, "p", "r", u.ETag), "204")
	wantKey(t, "delete missing", tb.Delete(ctx, "p", "r", ""), "404 ResourceNotFound")
	if r := tb.Insert(ctx, []byte(`{"RowKey":"x"}`)); r.Outcome.Key() != "400 InvalidInput" || !errors.Is(r.Err, ErrNotSent) {
		t.Errorf("entity without PartitionKey: %s (%v)", r.Outcome.Key(), r.Err)
	}
}

func TestAzuritePagesAndTransactions(t *testing.T) {
	svc := azuriteService(t)
	ctx := context.Background()
	tb := freshTable(t, svc)
	// 2,500 entities in 25 transactions of 100.
	for b := range 25 {
		acts := make([]Action, MaxTransactionActions)
		for i := range acts {
			acts[i] = Action{Kind: ActionInsert, Entity: entity("part", fmt.Sprintf("%05d", b*100+i), i)}
		}
		if r := tb.Submit(ctx, acts); r.Outcome.Key() != "202" || r.Entities != 100 {
			t.Fatalf("transaction %d: %s entities %d (%v)", b, r.Outcome.Key(), r.Entities, r.Err)
		}
	}
	pager := tb.Query(ctx, Query{Filter: FilterPK("part"), Select: []string{"PartitionKey", "RowKey"}})
	pages, total, last := 0, 0, ""
	for more := true; more; {
		var page Page
		var res Result
		page, res, more = pager.Next(ctx)
		if res.Outcome.Key() != "200" || res.Entities != len(page.Entities) {
			t.Fatalf("page %d: %s entities %d of %d (%v)", pages, res.Outcome.Key(), res.Entities, len(page.Entities), res.Err)
		}
		pages++
		total += len(page.Entities)
		for _, e := range page.Entities {
			pk, rk, ok := EntityKeys(e)
			if !ok || pk != "part" || rk <= last {
				t.Fatalf("entity %s: keys %q %q %v after %q", e, pk, rk, ok, last)
			}
			last = rk
		}
	}
	if pages != 3 || total != 2500 || last != "02499" {
		t.Errorf("%d pages, %d entities, last %q; want 3, 2500, 02499", pages, total, last)
	}
	if _, r, more := pager.Next(ctx); more || r.Entities != 0 {
		t.Errorf("Next after the last page: more=%v entities %d", more, r.Entities)
	}
	page, _, more := tb.Query(ctx, Query{Filter: FilterRowRange("part", "00100", "00150"), Top: 20}).Next(ctx)
	if len(page.Entities) != 20 || !more || !bytes.Contains(page.Entities[0], []byte(`"RowKey":"00100"`)) {
		t.Errorf("range page: %d entities more=%v", len(page.Entities), more)
	}

	// A failed transaction: the second action inserts an existing entity.
	r := tb.Submit(ctx, []Action{
		{Kind: ActionInsert, Entity: entity("part", "new1", 1)},
		{Kind: ActionInsert, Entity: entity("part", "00007", 1)},
	})
	if r.Outcome.Key() != "409 EntityAlreadyExists" || r.FailedIndex != 1 || r.Entities != 0 {
		t.Errorf("failed transaction: %s index %d entities %d (%v)", r.Outcome.Key(), r.FailedIndex, r.Entities, r.Err)
	}
	wantKey(t, "the failed transaction's first insert", tb.Get(ctx, "part", "new1", nil), "404 ResourceNotFound")
	// Mixed actions that succeed.
	ok := tb.Submit(ctx, []Action{
		{Kind: ActionUpsertMerge, Entity: entity("part", "00001", 9)},
		{Kind: ActionUpdateReplace, Entity: entity("part", "00002", 9)},
		{Kind: ActionDelete, Entity: entity("part", "00003", 0)},
	})
	if ok.Outcome.Key() != "202" || ok.Entities != 3 {
		t.Errorf("mixed transaction: %s entities %d (%v)", ok.Outcome.Key(), ok.Entities, ok.Err)
	}
	wantKey(t, "deleted in a transaction", tb.Get(ctx, "part", "00003", nil), "404 ResourceNotFound")
}

// The golden failed-transaction body is Azurite's; with -update it is
// captured again, and either way the live answer classifies as it does.
func TestAzuriteBatchFailureGolden(t *testing.T) {
	svc := azuriteService(t)
	ctx := context.Background()
	tb := freshTable(t, svc)
	wantKey(t, "insert", tb.Insert(ctx, entity("p", "old", 1)), "201")
	_, err := tb.c.SubmitTransaction(ctx, []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeAdd, Entity: entity("p", "new", 1)},
		{ActionType: aztables.TransactionTypeAdd, Entity: entity("p", "old", 1)},
	}, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 202 {
		t.Fatalf("failed transaction: %v", err)
	}
	live := responseBody(re.RawResponse)
	if *update {
		if err := os.WriteFile(filepath.FromSlash(goldenBatch), live, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, _ := goldenBatchFailure(t)
	fl, okLive := parseBatchFailure(live)
	fg, okGolden := parseBatchFailure(golden)
	if !okLive || !okGolden || fl != fg {
		t.Errorf("live answer %+v (%v), golden %+v (%v): capture again with -update", fl, okLive, fg, okGolden)
	}
}

// goldenBatchFailure reads the captured body and its Content-Type.
func goldenBatchFailure(t testing.TB) (body []byte, contentType string) {
	t.Helper()
	body, err := os.ReadFile(filepath.FromSlash(goldenBatch))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(body), "\r\n")
	return body, "multipart/mixed; boundary=" + strings.TrimPrefix(first, "--")
}
