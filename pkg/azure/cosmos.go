package azure

// The Cosmos DB for Table API's request units (RU). Sources: Cosmos DB
// "Request units in Azure Cosmos DB" ("The cost to do a point read for a
// 1-KB item is one Request Unit"; provisioned throughput "is divided
// evenly among physical partitions", "Partitioning and horizontal
// scaling") and "Azure Cosmos DB service quotas".
const (
	// CosmosMinRU is the least manual throughput a container may have:
	// "minimum throughput of 400 RU/s" ("Service quotas").
	CosmosMinRU = 400
	// CosmosPartitionRU is the most one physical partition, and one
	// logical partition (one PartitionKey), serves: "Maximum RUs per
	// partition (logical & physical): 10,000" ("Service quotas").
	CosmosPartitionRU = 10_000
	// CosmosLogicalBytes is the most one logical partition holds:
	// "Maximum storage across all items per (logical) partition: 20 GB"
	// ("Service quotas"); a write beyond it is refused with 403
	// "Partition key reached maximum size".
	CosmosLogicalBytes = 20 << 30
	// CosmosPointReadRU is a point read of a 1 KB item: one RU.
	CosmosPointReadRU = 1
)

// CosmosItemCost is the published cost of a point read and of a write of
// an item of KiB kibibytes, in RU (session consistency, default indexing).
type CosmosItemCost struct{ KiB, Read, Write float64 }

// CosmosItemCosts are the published costs by item size, smallest first.
// Source: Cosmos DB "Understand request unit consumption"
// (learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption),
// its table of RU per point read and per write by item size.
var CosmosItemCosts = [...]CosmosItemCost{
	{1, 1.00, 4.95},
	{2, 1.04, 6.29},
	{4, 1.14, 6.67},
	{8, 1.33, 7.04},
	{16, 1.67, 9.52},
	{32, 2.19, 11.23},
	{64, 4.76, 22.67},
	{128, 9.95, 48.19},
	{256, 20.28, 98.29},
	{512, 40.95, 184.57},
	{1024, 145.90, 625.00},
	{2048, 291.80, 1250.00},
}
