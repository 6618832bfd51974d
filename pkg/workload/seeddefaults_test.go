package workload

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/table"
)

// The seed phase is paced by Azure's limits on an Azure Storage account
// not on this machine, else not at all, unless the user set a limit.
func TestSeedLimitsForTarget(t *testing.T) {
	zero, fifty := 0.0, 50.0
	remote := table.Target{Kind: table.KindConnString, Endpoint: "https://acct.table.core.windows.net"}
	for _, tc := range []struct {
		name      string
		tg        table.Target
		req, part *float64
		want      SeedLimits
	}{
		{"remote account", remote, nil, nil, AzureSeedLimits},
		{"remote SAS", table.Target{Kind: table.KindSAS, Endpoint: "https://acct.table.core.windows.net/t"}, nil, nil, AzureSeedLimits},
		{"embedded", table.Target{Kind: table.KindEmbedded}, nil, nil, SeedLimits{}},
		{"azurite", table.Target{Kind: table.KindAzurite, Endpoint: "http://127.0.0.1:10002/devstoreaccount1"}, nil, nil, SeedLimits{}},
		{"account on this machine", table.Target{Kind: table.KindConnString, Endpoint: "http://localhost:8902/acct"}, nil, nil, SeedLimits{}},
		{"cosmos", table.Target{Kind: table.KindCosmos, Endpoint: "https://acct.table.cosmos.azure.com"}, nil, nil, SeedLimits{}},
		{"remote, no account limit", remote, &zero, nil, SeedLimits{PartitionEntities: AzureSeedLimits.PartitionEntities}},
		{"remote, partition limit set", remote, nil, &fifty, SeedLimits{Requests: AzureSeedLimits.Requests, PartitionEntities: 50}},
		{"embedded, limits set", table.Target{Kind: table.KindEmbedded}, &fifty, &fifty, SeedLimits{Requests: 50, PartitionEntities: 50}},
	} {
		if got := SeedLimitsFor(tc.tg, tc.req, tc.part); got != tc.want {
			t.Errorf("%s: SeedLimitsFor = %+v; want %+v", tc.name, got, tc.want)
		}
	}
}
