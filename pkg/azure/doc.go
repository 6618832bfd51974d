// Package azure is Azure's published rules for Table storage and the
// Cosmos DB for Table API, in one place, each with its source (the Azure
// documentation page and section) in its doc comment: what a partition
// and an account serve and what counts toward each (targets.go), the
// bandwidth of a storage account (targets.go), what one page of a query,
// one entity group transaction, one entity, key and property may hold
// (limits.go), and how Cosmos DB charges and divides request units
// (cosmos.go).
//
// Every other package reads these figures from here: the embedded
// service's model (pkg/emulator/model's Default) and its limits, the
// judge (pkg/judge), the plan and its simulation (pkg/plan), the
// scenario's validation (pkg/scenario), the seed phase's pacing
// (pkg/workload's AzureSeedLimits), the questions' model (pkg/question),
// the Table client (pkg/table), the reports (pkg/metrics, pkg/report) and
// the advice (pkg/advise), so `keys`, `advise`, a run and the embedded
// service apply the same rule. TestFiguresLiveHere fails when a literal
// 2000, 20000 or 1000 with one of these meanings appears in the module's
// code outside this package.
//
// To change a figure (Azure raises the account's request target, say),
// change its constant here: the model's default, the judge's verdicts,
// the advice, the seed pacing and the reports' words follow. A figure a
// user may override for one run (the model's partition=, account=, ru=)
// is read from the run's model.Config, whose defaults are these.
//
// The package imports nothing of the module: everything may import it.
package azure
