package workload

import "github.com/tablestress/tablestress/pkg/table"

// DefaultSeedLimits is how fast the seed phase writes to a target unless
// told otherwise: Azure Storage's scalability targets (AzureSeedLimits)
// for an Azure Storage account not on this machine, whose throttling a
// seed must not provoke; no limit for a target on this machine (the
// embedded service pauses its model while seeding; Azurite has no limits)
// or a Cosmos DB account (its limit is its provisioned throughput, which
// throttling with x-ms-retry-after-ms paces).
func DefaultSeedLimits(tg table.Target) SeedLimits {
	if tg.IsLoopback() || tg.Kind == table.KindCosmos {
		return SeedLimits{}
	}
	return AzureSeedLimits
}

// SeedLimitsFor is the seed pacing of a run on tg: DefaultSeedLimits, with
// each limit the user set (non-nil; 0: no limit) in place of the default.
func SeedLimitsFor(tg table.Target, requests, partitionEntities *float64) SeedLimits {
	l := DefaultSeedLimits(tg)
	if requests != nil {
		l.Requests = *requests
	}
	if partitionEntities != nil {
		l.PartitionEntities = *partitionEntities
	}
	return l
}
