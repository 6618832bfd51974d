package model

import "github.com/tablestress/tablestress/pkg/azure"

// The request units of a point read and a write by item size are
// Microsoft's published costs, azure.CosmosItemCosts; a point read of a
// 1 KB item is one RU.

// Model assumptions where Microsoft publishes no figure.
const (
	// propertyRU is what each indexed property beyond the tenth adds to a
	// write. Cosmos DB indexes every property by default and "the number
	// of RUs consumed to write an item increases as the item property count
	// increases" ("Request units"), without a published rate: a model
	// assumption, a fiftieth of a 1 KB write per property.
	propertyRU = 0.1
	// freeProperties is how many properties the published write costs
	// are taken to include.
	freeProperties = 10
	// queryRU is the least a query page costs, 2.5 RU, a model assumption:
	// more than a point read, as "Request units" says a query consumes
	// "potentially more than point operations".
	queryRU = 2.5
	// scanRU is the cost of an entity a query examines without returning
	// it, 0.05 RU, a model assumption: Cosmos DB finds matches through its
	// automatic index ("Optimize request cost": a query's charge depends on
	// "the number of items loaded/returned, the number of lookups against
	// the index"), so a non-matching entity costs an index lookup, not a
	// load.
	scanRU = 0.05
)

// ruFor interpolates the published cost of an item of bytes: linearly
// between the published sizes, the 1 KB figure below 1 KB, and linearly
// on from the last two figures beyond 2 MB.
func ruFor(bytes int, write bool) float64 {
	kib := float64(max(bytes, 0)) / 1024
	at := func(i int) (float64, float64) {
		if write {
			return azure.CosmosItemCosts[i].KiB, azure.CosmosItemCosts[i].Write
		}
		return azure.CosmosItemCosts[i].KiB, azure.CosmosItemCosts[i].Read
	}
	if kib <= 1 {
		_, v := at(0)
		return v
	}
	i := 1
	for i < len(azure.CosmosItemCosts)-1 && kib > azure.CosmosItemCosts[i].KiB {
		i++
	}
	k0, v0 := at(i - 1)
	k1, v1 := at(i)
	return v0 + (v1-v0)*(kib-k0)/(k1-k0)
}

// readRU is the cost of reading (or returning) an item of bytes.
func readRU(bytes int) float64 { return ruFor(bytes, false) }

// writeRU is the cost of writing an item of bytes with props properties.
func writeRU(bytes, props int) float64 {
	return ruFor(bytes, true) + propertyRU*float64(max(props-freeProperties, 0))
}

// units returns the RU a request costs up front: a point read its item, a
// write or delete its item (a delete is charged as a write of the deleted
// item's size; the service passes 0 when it does not know it: a 1 KB
// item), a transaction each operation at the average size and property
// count, a query page nothing (it is charged afterwards, ChargePage).
func units(r Request) float64 {
	n := max(r.Entities, 1)
	switch r.Op {
	case OpRead:
		return readRU(r.Bytes)
	case OpWrite, OpDelete:
		return writeRU(r.Bytes, r.Props)
	case OpBatch:
		return float64(n) * writeRU(r.Bytes/n, r.Props/n)
	}
	return 0
}

// pageUnits returns what a query page's visit of one partition costs: each
// entity returned as a read of its (average) size, each other entity it
// visited an index lookup.
func pageUnits(v Visit) float64 {
	ru := scanRU * float64(max(v.Visited-v.Returned, 0))
	if v.Returned > 0 {
		ru += float64(v.Returned) * readRU(v.Bytes/v.Returned)
	}
	return ru
}
