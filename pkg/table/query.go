package table

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// Query is a table query: an OData filter, a projection and a page size.
type Query struct {
	Filter string
	Select []string
	Top    int32 // entities per page, at most 1,000; 0 = the service's default (1,000)
}

// Page is one page of a query's answer: the entities as JSON.
type Page struct {
	Entities [][]byte
}

// Pager fetches a query one page, one request, at a time. A failed page can
// be fetched again with the same continuation by calling Next again. Not
// safe for concurrent use.
type Pager struct {
	t              *Table
	q              Query
	nextPK, nextRK *string
	done           bool
}

// Query starts a paged query.
func (t *Table) Query(_ context.Context, q Query) *Pager { return &Pager{t: t, q: q} }

// Next fetches the next page. more is false once the service sent no
// continuation (a page may be empty and still continue) or after a failure
// the caller chooses not to retry.
func (p *Pager) Next(ctx context.Context) (Page, Result, bool) {
	if p.done {
		return Page{}, okResult(http.StatusOK, 0, ""), false
	}
	octx, cancel := p.t.svc.op(ctx)
	defer cancel()
	page, res := p.t.page(ctx, octx, p.q, p.nextPK, p.nextRK)
	if res.Outcome.Status != http.StatusOK {
		return page.Page, res, true // the same page can be asked for again
	}
	p.nextPK, p.nextRK = page.nextPK, page.nextRK
	p.done = p.nextPK == nil && p.nextRK == nil
	return page.Page, res, !p.done
}

type pageResult struct {
	Page
	nextPK, nextRK *string
}

// page sends one query request.
func (t *Table) page(ctx, octx context.Context, q Query, nextPK, nextRK *string) (pageResult, Result) {
	opts := &aztables.ListEntitiesOptions{NextPartitionKey: nextPK, NextRowKey: nextRK}
	if q.Filter != "" {
		f := q.Filter
		opts.Filter = &f
	}
	if len(q.Select) > 0 {
		s := strings.Join(q.Select, ",")
		opts.Select = &s
	}
	if q.Top > 0 {
		top := min(q.Top, 1000)
		opts.Top = &top
	}
	resp, err := t.c.NewListEntitiesPager(opts).NextPage(octx)
	if err != nil {
		return pageResult{}, classify(ctx, octx, err)
	}
	return pageResult{Page: Page{Entities: resp.Entities}, nextPK: resp.NextPartitionKey, nextRK: resp.NextRowKey},
		okResult(http.StatusOK, len(resp.Entities), "")
}

// etagOf reads odata.etag from an entity's JSON.
func etagOf(entity []byte) string {
	var e struct {
		ETag string `json:"odata.etag"`
	}
	_ = json.Unmarshal(entity, &e)
	return e.ETag
}

// quote makes an OData string literal, doubling single quotes.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// FilterPK selects one partition.
func FilterPK(pk string) string { return "PartitionKey eq " + quote(pk) }

// FilterPoint selects one entity.
func FilterPoint(pk, rk string) string { return FilterPK(pk) + " and RowKey eq " + quote(rk) }

// FilterRowRange selects RowKeys from fromRK (inclusive) to toRK (exclusive)
// in one partition; an empty bound is open.
func FilterRowRange(pk, fromRK, toRK string) string {
	f := FilterPK(pk)
	if fromRK != "" {
		f += " and RowKey ge " + quote(fromRK)
	}
	if toRK != "" {
		f += " and RowKey lt " + quote(toRK)
	}
	return f
}

// FilterPKRange selects the partitions from lo to hi, both inclusive.
func FilterPKRange(lo, hi string) string {
	return "PartitionKey ge " + quote(lo) + " and PartitionKey le " + quote(hi)
}
