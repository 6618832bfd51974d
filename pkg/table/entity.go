package table

import (
	"context"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// Table is one table's client: entity operations, queries and entity group
// transactions. Every operation sends exactly one request (none when its
// input is rejected first), applies the Service's request timeout itself
// and returns a Result, never a bare error. Entities are pre-encoded JSON
// objects with string PartitionKey and RowKey. It is safe for concurrent use.
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

// Shared, read-only SDK options: aztables only reads these (it fills in
// IfMatch when nil, which never happens here), so one value serves every
// call without an allocation.
var (
	anyETag        = azcore.ETagAny
	upsertReplace  = aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace}
	upsertMerge    = aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge}
	updateReplace  = aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeReplace, IfMatch: &anyETag}
	updateMerge    = aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateModeMerge, IfMatch: &anyETag}
	deleteAny      = aztables.DeleteEntityOptions{IfMatch: &anyETag}
	getEntity      = aztables.GetEntityOptions{}
	addEntity      = aztables.AddEntityOptions{}
	pointSelectTop = int32(1)
)

// Insert adds an entity: 201, or 409 EntityAlreadyExists.
func (t *Table) Insert(ctx context.Context, entity []byte) Result {
	if err := checkEntity(entity); err != nil {
		return notSent(err, -1)
	}
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	resp, err := t.c.AddEntity(c, entity, &addEntity)
	if err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusCreated, 1, string(resp.ETag))
}

// Upsert inserts the entity or replaces (merges into) the existing one: 204.
func (t *Table) Upsert(ctx context.Context, entity []byte, mode UpdateMode) Result {
	if err := checkEntity(entity); err != nil {
		return notSent(err, -1)
	}
	opts := &upsertReplace
	if mode == UpdateModeMerge {
		opts = &upsertMerge
	}
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	resp, err := t.c.UpsertEntity(c, entity, opts)
	if err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusNoContent, 1, string(resp.ETag))
}

// Update replaces (merges into) an existing entity if its ETag is etag
// ("" means any version, If-Match: *): 204, 404 ResourceNotFound when it
// does not exist, 412 UpdateConditionNotSatisfied when the ETag is stale.
func (t *Table) Update(ctx context.Context, entity []byte, mode UpdateMode, etag string) Result {
	if err := checkEntity(entity); err != nil {
		return notSent(err, -1)
	}
	opts := &updateReplace
	if mode == UpdateModeMerge {
		opts = &updateMerge
	}
	if etag != "" && etag != string(azcore.ETagAny) {
		tag := azcore.ETag(etag)
		o := *opts
		o.IfMatch = &tag
		opts = &o
	}
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	resp, err := t.c.UpdateEntity(c, entity, opts)
	if err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusNoContent, 1, string(resp.ETag))
}

// Delete deletes an entity if its ETag is etag ("" means any version):
// 204, 404 ResourceNotFound, 412 UpdateConditionNotSatisfied.
func (t *Table) Delete(ctx context.Context, pk, rk, etag string) Result {
	opts := &deleteAny
	if etag != "" && etag != string(azcore.ETagAny) {
		tag := azcore.ETag(etag)
		opts = &aztables.DeleteEntityOptions{IfMatch: &tag}
	}
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	if _, err := t.c.DeleteEntity(c, pk, rk, opts); err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusNoContent, 1, "")
}

// Get reads one entity: 200 with Entities 1 and its ETag, or 404
// ResourceNotFound. With a projection (sel) it sends a query with a
// PartitionKey and RowKey filter and $select, since the point read has no
// $select; the service answers such a query 200 even when nothing matches,
// so a projected read of a missing entity is a 200 with Entities 0,
// exactly as the service counts it.
func (t *Table) Get(ctx context.Context, pk, rk string, sel []string) Result {
	c, cancel := t.svc.begin(ctx)
	defer cancel()
	if len(sel) == 0 {
		resp, err := t.c.GetEntity(c, pk, rk, &getEntity)
		if err != nil {
			return classify(ctx, c, err)
		}
		res := okResult(c, http.StatusOK, 1, string(resp.ETag))
		res.Entity = resp.Value
		return res
	}
	filter, s := FilterPoint(pk, rk), joinSelect(sel)
	opts := &aztables.ListEntitiesOptions{Filter: &filter, Select: &s, Top: &pointSelectTop}
	page, err := t.c.NewListEntitiesPager(opts).NextPage(c)
	if err != nil {
		return classify(ctx, c, err)
	}
	res := okResult(c, http.StatusOK, len(page.Entities), "")
	if len(page.Entities) > 0 {
		res.ETag, _ = stringMember(page.Entities[0], "odata.etag")
	}
	return res
}
