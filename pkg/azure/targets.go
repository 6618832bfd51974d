package azure

// Table storage's scalability targets and what counts toward them.
//
// Source: Azure Storage "Scalability and performance targets for Table
// storage" (learn.microsoft.com/azure/storage/tables/scalability-targets),
// its table "Scale targets for Table storage".
const (
	// PartitionEntitiesPerSec is what one partition (one PartitionKey of
	// one table) serves: "Target throughput for a single table partition
	// (1 KiB-entities): Up to 2,000 entities per second"; REST "Design a
	// scalable partitioning strategy for Azure Table storage", "Table
	// partitions": "a partition has a scalability target of 2000 entities
	// per second". Entities count, not requests: each of a transaction's,
	// and each a query iterates ("Query selectivity dictates how many rows
	// must be iterated to find the matching rows", the same page,
	// "Determine queries").
	PartitionEntitiesPerSec = 2000

	// AccountRequestsPerSec is what one storage account serves: "Maximum
	// request rate per storage account: 20,000 transactions per second,
	// which assumes a 1-KiB entity size". Requests count, not entities:
	// see TransactionRequests and PageRequests.
	AccountRequestsPerSec = 20000

	// TargetEntityBytes is the entity size both targets assume, 1 KiB.
	// What a larger entity changes is bandwidth (AccountIngressGbps,
	// AccountEgressGbps), not the count of requests or entities.
	TargetEntityBytes = 1 << 10
)

// What one request counts toward AccountRequestsPerSec.
const (
	// TransactionRequests is what an entity group transaction counts: one
	// request, whatever its entities. Source: REST "Design a scalable
	// partitioning strategy for Azure Table storage", "Entity group
	// transactions": "An entity group transaction is billed as a single
	// storage operation regardless of how many storage operations it
	// contains."
	TransactionRequests = 1

	// PageRequests is what each page of a query's answer counts: one
	// request, each page after the first asked for with the previous
	// page's continuation token. Source: REST "Query Timeout and
	// Pagination" (a page ends at PageRows entities, after PageExecution,
	// or at a partition boundary), and REST "Design a scalable
	// partitioning strategy for Azure Table storage", "Choose the
	// PartitionKey value": "continuation tokens represent at least one
	// more request to the service".
	PageRequests = 1
)

// A storage account's bandwidth: "The ingress limit refers to all data
// that is sent to a storage account. The egress limit refers to all data
// that is received from a storage account." Source: Azure Storage
// "Scalability and performance targets for standard storage accounts",
// "Scale targets for standard storage accounts" (general-purpose v2; the
// select regions, which the page lists, have the higher figures, and
// Azure Support can raise both). In gigabits per second.
const (
	// AccountIngressGbps is the default maximum ingress of an account.
	AccountIngressGbps = 25
	// AccountEgressGbps is the default maximum egress of an account.
	AccountEgressGbps = 50
	// AccountIngressGbpsSelectRegions is the maximum ingress of an account
	// in the select regions.
	AccountIngressGbpsSelectRegions = 60
	// AccountEgressGbpsSelectRegions is the maximum egress of an account in
	// the select regions.
	AccountEgressGbpsSelectRegions = 200
)

// BytesPerSec converts a bandwidth in gigabits per second to bytes per
// second.
func BytesPerSec(gbps float64) float64 { return gbps * 1e9 / 8 }
