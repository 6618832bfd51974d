package model

// The Cosmos DB charges of rucost.go, for analyses that predict what a
// workload costs without a server (tablestress advise). They are the
// figures the model bills; their sources are on azure.CosmosItemCosts
// and the model assumptions beside it.

// WriteUnits is what writing an item of bytes with props properties
// (PartitionKey and RowKey not counted) costs, in request units.
func WriteUnits(bytes, props int) float64 { return writeRU(bytes, props) }

// ReadUnits is what a point read of an item of bytes costs, in request
// units.
func ReadUnits(bytes int) float64 { return readRU(bytes) }

// QueryUnits is what a query costs in request units when it takes pages
// pages and, in all, visits visited entities and returns returned of them,
// each of about itemBytes: queryRU a page, a read per entity returned and
// an index lookup per other entity visited (pageUnits).
func QueryUnits(pages, visited, returned, itemBytes int) float64 {
	return float64(pages)*queryRU + pageUnits(Visit{Visited: visited, Returned: returned, Bytes: returned * itemBytes})
}
