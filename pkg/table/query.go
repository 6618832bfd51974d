package table

import (
	"context"
	"net/http"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tablestress/tablestress/pkg/azure"
)

// Query is a table query: an OData filter (see the Filter helpers), a
// projection and a page size.
type Query struct {
	Filter string
	Select []string
	// Top is the page size, at most azure.PageRows; 0 lets the service
	// choose (a full page). It sizes every page; it does not bound the
	// query.
	Top int32
}

// Page is one page of a query's answer: the entities as JSON objects (as
// aztables decodes and re-encodes them: PartitionKey, RowKey, Timestamp,
// odata.etag and the selected properties). EntityKeys reads the keys of one.
type Page struct {
	Entities [][]byte
}

// Pager fetches a query one page, and one request, at a time. A page may
// be empty and still be followed by more. It is not safe for concurrent use.
type Pager struct {
	t              *Table
	opts           aztables.ListEntitiesOptions
	nextPK, nextRK *string
	done           bool
}

// Query starts a paged query; it sends nothing until Next. ctx is unused
// (each page takes its own).
func (t *Table) Query(_ context.Context, q Query) *Pager {
	p := &Pager{t: t}
	if q.Filter != "" {
		f := q.Filter
		p.opts.Filter = &f
	}
	if len(q.Select) > 0 {
		s := joinSelect(q.Select)
		p.opts.Select = &s
	}
	if q.Top > 0 {
		top := min(q.Top, azure.PageRows)
		p.opts.Top = &top
	}
	return p
}

// Next sends one request for the next page. Its Result counts the page's
// entities. more reports whether Next has more to fetch: after a success,
// whether the service sent a continuation; after a failure, true, since
// the same page is asked for again by the next call (the caller decides
// whether to retry). After the last page Next sends nothing and returns an
// empty page, a 200 Result with no entities and more false.
func (p *Pager) Next(ctx context.Context) (page Page, res Result, more bool) {
	if p.done {
		return Page{}, okResult(nil, http.StatusOK, 0, ""), false
	}
	c, cancel := p.t.svc.begin(ctx)
	defer cancel()
	opts := p.opts
	opts.NextPartitionKey, opts.NextRowKey = p.nextPK, p.nextRK
	resp, err := p.t.c.NewListEntitiesPager(&opts).NextPage(c)
	if err != nil {
		return Page{}, classify(ctx, c, err), true
	}
	p.nextPK, p.nextRK = resp.NextPartitionKey, resp.NextRowKey
	p.done = empty(p.nextPK) && empty(p.nextRK)
	return Page{Entities: resp.Entities}, okResult(c, http.StatusOK, len(resp.Entities), ""), !p.done
}

func empty(s *string) bool { return s == nil || *s == "" }

// joinSelect is the $select of a projection.
func joinSelect(sel []string) string {
	if len(sel) == 1 {
		return sel[0]
	}
	return strings.Join(sel, ",")
}
