package model

import (
	"math"

	"github.com/tablestress/tablestress/pkg/azure"
)

// CosmosConfig is the Cosmos DB Table API model's parameters. Each table is
// a container with its own provisioned throughput, in request units (RU)
// per second, split evenly over its physical partitions; each PartitionKey
// is a logical partition, placed on a physical partition by hash. A request
// costs RU (rucost.go) and is refused with 429 "Request rate is large" and
// x-ms-retry-after-ms when its logical or physical partition has spent its
// share of the second.
type CosmosConfig struct {
	// RU is the throughput provisioned for each table, in RU/s. Default
	// azure.CosmosMinRU, the smallest manual throughput a container may
	// have; set it to the table's, like cosmos,ru=10000.
	RU float64

	// Partitions is the number of physical partitions a table's RU/s is
	// divided among, evenly (Cosmos DB "Partitioning": throughput "is
	// divided evenly among physical partitions"). 0 means as many as the
	// throughput needs, ceil(RU / PartitionRU); more may be given (a table
	// scaled up once keeps its physical partitions when scaled down).
	Partitions int

	// PartitionRU is the most RU/s one physical partition serves:
	// azure.CosmosPartitionRU.
	PartitionRU float64

	// LogicalRU is the most RU/s one logical partition (one PartitionKey)
	// serves: azure.CosmosPartitionRU, the same quota.
	LogicalRU float64

	// LogicalBytes is the most a logical partition may hold:
	// azure.CosmosLogicalBytes. A write that would grow a partition beyond
	// it is refused with 403 Forbidden, "Partition key reached maximum
	// size".
	LogicalBytes int64
}

// The Cosmos DB defaults, each documented on its CosmosConfig field.
const (
	defaultCosmosRU     = azure.CosmosMinRU
	defaultPartitionRU  = azure.CosmosPartitionRU
	defaultLogicalBytes = azure.CosmosLogicalBytes
	// maxPartitions bounds the physical partitions of a table.
	maxPartitions = 1024
)

// DefaultCosmos returns the Cosmos DB figures: 400 RU/s per table,
// 10,000 RU/s per physical and per logical partition, 20 GB per logical
// partition.
func DefaultCosmos() CosmosConfig {
	return CosmosConfig{RU: defaultCosmosRU, PartitionRU: defaultPartitionRU, LogicalRU: defaultPartitionRU, LogicalBytes: defaultLogicalBytes}
}

// PartitionShare is each physical partition's share of a table's
// provisioned throughput, RU/s: what one partition's request units are
// judged against.
func (c CosmosConfig) PartitionShare() float64 { return c.RU / float64(c.physical()) }

// physical returns how many physical partitions a table has: Partitions,
// or as many as RU needs at PartitionRU each.
func (c CosmosConfig) physical() int {
	if c.Partitions > 0 {
		return c.Partitions
	}
	return min(max(int(math.Ceil(c.RU/c.PartitionRU)), 1), maxPartitions)
}

// normalized replaces unusable values by the defaults and keeps the
// physical partitions within what the throughput needs and maxPartitions.
func (c CosmosConfig) normalized() CosmosConfig {
	d := DefaultCosmos()
	clampRate(&c.RU, d.RU)
	clampRate(&c.PartitionRU, d.PartitionRU)
	clampRate(&c.LogicalRU, d.LogicalRU)
	if c.LogicalBytes <= 0 {
		c.LogicalBytes = d.LogicalBytes
	}
	if c.Partitions < 0 || c.Partitions > maxPartitions {
		c.Partitions = 0
	}
	if c.Partitions > 0 && float64(c.Partitions)*c.PartitionRU < c.RU {
		c.Partitions = 0 // too few to serve RU: as many as needed
	}
	return c
}
