package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Options configure the clients.
type Options struct {
	// Workers sizes the connection pool: at least this many idle connections
	// are kept per host (azcore's default keeps 10, so more workers would
	// open and close connections all the time).
	Workers int
	// Timeout bounds each request (default 10s).
	Timeout time.Duration
	// UserAgent is appended to the SDK's.
	UserAgent string
}

// Service is a Table service endpoint. It is safe for concurrent use.
type Service struct {
	target    Target
	svc       *aztables.ServiceClient
	transport *http.Transport
	timeout   time.Duration
}

// ErrOpen is returned when the clients cannot be built.
var ErrOpen = errors.New("table: cannot open target")

// Open builds the clients for a target. It sends no request.
func Open(t Target, o Options) (*Service, error) {
	if t.Endpoint == "" {
		return nil, fmt.Errorf("%w: %s has no endpoint yet", ErrOpen, t.Kind)
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	idle := max(o.Workers+8, 16)
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          idle * 2,
		MaxIdleConnsPerHost:   idle,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: &http.Client{Transport: noReplay{tr}},
		Retry:     policy.RetryOptions{MaxRetries: -1}, // exactly one request: tablestress retries itself and counts every attempt
		Telemetry: policy.TelemetryOptions{ApplicationID: o.UserAgent},
	}}
	var svc *aztables.ServiceClient
	var err error
	switch {
	case t.key != "":
		var cred *aztables.SharedKeyCredential
		if cred, err = aztables.NewSharedKeyCredential(t.Account, t.key); err == nil {
			svc, err = aztables.NewServiceClientWithSharedKey(t.Endpoint, cred, opts)
		}
	case t.sas != "":
		svc, err = aztables.NewServiceClientWithNoCredential(t.Endpoint+"?"+t.sas, opts)
	default:
		var cred *azidentity.DefaultAzureCredential
		if cred, err = azidentity.NewDefaultAzureCredential(nil); err == nil {
			svc, err = aztables.NewServiceClient(t.Endpoint, cred, opts)
		}
	}
	if err != nil {
		// Neither the key nor the SAS can be in these errors: they come
		// from credential construction and URL checks. Keep only the cause.
		return nil, fmt.Errorf("%w: %s: %s", ErrOpen, t, firstLine(err.Error(), "unknown error"))
	}
	return &Service{target: t, svc: svc, transport: tr, timeout: o.Timeout}, nil
}

// Target returns the target the service was opened for.
func (s *Service) Target() Target { return s.target }

// Close releases idle connections.
func (s *Service) Close() { s.transport.CloseIdleConnections() }

func (s *Service) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// CreateTable creates a table; 409 TableAlreadyExists when it exists.
func (s *Service) CreateTable(ctx context.Context, name string) Result {
	octx, cancel := s.op(ctx)
	defer cancel()
	if _, err := s.svc.CreateTable(octx, name, nil); err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusCreated, 0, "")
}

// DeleteTable deletes a table; 404 TableNotFound when it does not exist.
func (s *Service) DeleteTable(ctx context.Context, name string) Result {
	octx, cancel := s.op(ctx)
	defer cancel()
	if _, err := s.svc.DeleteTable(octx, name, nil); err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusNoContent, 0, "")
}

// TableExists reports whether the table exists.
func (s *Service) TableExists(ctx context.Context, name string) (bool, Result) {
	octx, cancel := s.op(ctx)
	defer cancel()
	filter := "TableName eq " + quote(name)
	pager := s.svc.NewListTablesPager(&aztables.ListTablesOptions{Filter: &filter})
	page, err := pager.NextPage(octx)
	if err != nil {
		return false, classify(ctx, octx, err)
	}
	for _, tb := range page.Tables {
		if tb.Name != nil && *tb.Name == name {
			return true, okResult(http.StatusOK, 1, "")
		}
	}
	return false, okResult(http.StatusOK, 0, "")
}

// Table returns the client of one table.
func (s *Service) Table(name string) *Table {
	return &Table{svc: s, c: s.svc.NewClient(name), name: name}
}

// Table is one table's client. It is safe for concurrent use.
type Table struct {
	svc  *Service
	c    *aztables.Client
	name string
}

// Name is the table's name.
func (t *Table) Name() string { return t.name }

// UpdateMode says whether a write replaces the entity or merges into it.
type UpdateMode int

// Update modes.
const (
	UpdateModeReplace UpdateMode = iota
	UpdateModeMerge
)

func (m UpdateMode) az() aztables.UpdateMode {
	if m == UpdateModeMerge {
		return aztables.UpdateModeMerge
	}
	return aztables.UpdateModeReplace
}

var (
	pkField = []byte(`"PartitionKey":"`)
	rkField = []byte(`"RowKey":"`)
)

// badEntity guards aztables, which panics when an entity's PartitionKey or
// RowKey is missing or not a string.
func badEntity(entity []byte) (Result, bool) {
	if bytes.Contains(entity, pkField) && bytes.Contains(entity, rkField) {
		return Result{}, false
	}
	return Result{Outcome: outcome.Outcome{Status: 400, Code: "InvalidInput", Class: outcome.ClientError}, FailedIndex: -1,
		Err: errors.New("400 InvalidInput: the entity has no string PartitionKey and RowKey (not sent)")}, true
}

// Insert adds an entity; 409 EntityAlreadyExists when it exists.
func (t *Table) Insert(ctx context.Context, entity []byte) Result {
	if r, bad := badEntity(entity); bad {
		return r
	}
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	resp, err := t.c.AddEntity(octx, entity, nil)
	if err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusCreated, 1, string(resp.ETag))
}

// Upsert inserts the entity or replaces (merges into) the existing one.
func (t *Table) Upsert(ctx context.Context, entity []byte, mode UpdateMode) Result {
	if r, bad := badEntity(entity); bad {
		return r
	}
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	resp, err := t.c.UpsertEntity(octx, entity, &aztables.UpsertEntityOptions{UpdateMode: mode.az()})
	if err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusNoContent, 1, string(resp.ETag))
}

// Update replaces (merges into) an existing entity; etag "" means any
// version (If-Match *). 404 when missing, 412 when the ETag is stale.
func (t *Table) Update(ctx context.Context, entity []byte, mode UpdateMode, etag string) Result {
	if r, bad := badEntity(entity); bad {
		return r
	}
	if etag == "" {
		etag = "*"
	}
	tag := azcore.ETag(etag)
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	resp, err := t.c.UpdateEntity(octx, entity, &aztables.UpdateEntityOptions{UpdateMode: mode.az(), IfMatch: &tag})
	if err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusNoContent, 1, string(resp.ETag))
}

// Delete deletes an entity; etag "" means any version.
func (t *Table) Delete(ctx context.Context, pk, rk, etag string) Result {
	if etag == "" {
		etag = "*"
	}
	tag := azcore.ETag(etag)
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	if _, err := t.c.DeleteEntity(octx, pk, rk, &aztables.DeleteEntityOptions{IfMatch: &tag}); err != nil {
		return classify(ctx, octx, err)
	}
	return okResult(http.StatusNoContent, 1, "")
}

// Get reads one entity. With a projection it queries with a PartitionKey and
// RowKey filter and $select (GetEntity has no $select); the service answers
// such a query 200 even when nothing matches, so a projected read of a
// missing entity is a 200 with Entities 0, exactly as the service counts it.
func (t *Table) Get(ctx context.Context, pk, rk string, sel []string) Result {
	octx, cancel := t.svc.op(ctx)
	defer cancel()
	if len(sel) == 0 {
		resp, err := t.c.GetEntity(octx, pk, rk, nil)
		if err != nil {
			return classify(ctx, octx, err)
		}
		return okResult(http.StatusOK, 1, string(resp.ETag))
	}
	page, res := t.page(ctx, octx, Query{Filter: FilterPoint(pk, rk), Select: sel, Top: 1}, nil, nil)
	if res.Outcome.Class == outcome.OK && len(page.Entities) > 0 {
		res.ETag = etagOf(page.Entities[0])
	}
	return res
}
