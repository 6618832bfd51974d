// Package store is the embedded service's storage of tables and
// entities, in memory: a Store of tables by name; a Table of entities in
// (PartitionKey, RowKey) order in a B-tree (table.go) whose items are
// 64-bit summaries of the keys (keyorder.go) and references to records
// (record.go) packed into chunks of memory outside the Go heap (slab.go),
// with a hash index of the keys for point lookups (keyindex.go); an
// Entity's properties in a compact, lossless form (codec.go) naming them
// by the table's dictionary (names.go). It also keeps what Azure keeps
// per table beside its entities: the stored access policies (policy.go)
// and, for the Cosmos DB model, the size of each partition (sizes.go),
// and says where a key lies in the table's order for the model's range
// partitions (bounds.go).
//
// It knows entities and their properties, not requests: it never checks
// Azure's rules (names, types, limits, ETags), which the REST service
// does before it stores, and it imports no HTTP, no model, no fault
// injection and no package of the REST service; only the standard
// library, google/btree, jsontext, keyorder, edm and filter (an Entity is a
// filter.Row). Callers take a Table's lock (it is a sync.RWMutex) around
// what they read and write; a Store and a Table's dictionary and
// policies are safe for concurrent use.
package store
