// Package plan is a scenario compiled into what a run will do, decided
// without a server: Build applies a command line's Overrides to a scenario
// and compiles it into a Spec (the population, the key schemes, the load
// with its Pacer, the Retrier); NewPlan compiles a Spec's workload for one
// scheme into a Plan (the operation Mix, the Keyspace of existing
// entities, the Targets of a shard or of target partitions, the scheme's
// plans for the scenario's questions), whose Planner draws each worker's
// next Step. PeakRate is the rate an analysis judges at, SelectSchemes the
// one rule that picks schemes by name, and Analyze replays the plan's
// choices with every write acknowledged at once (a simulation) to show how
// the keys they touch spread over partitions.
//
// OpCost (cost.go) is the one rule of what an operation on an existing
// entity asks of its partition and of the account, which the simulation
// and the judge both read.
//
// To add an operation type: its name in metrics.Op (pkg/metrics/op.go)
// and in scenario.Ops and the enum of Operation.Op (pkg/scenario's
// validate.go and types.go), which fields apply to it
// (validate_workload.go, when any), its cost in OpCost (cost.go) and its
// requests in the executor (pkg/workload's exec.go). An operation on an
// existing entity needs nothing more: the Planner picks its entity, the
// simulation and the judge cost it by OpCost.
//
// The runner (pkg/workload) executes a Plan against a Table endpoint; the
// judge (pkg/judge) reads the same Plan to predict what a scheme costs.
// Both sit above this package, side by side: it imports neither, nor
// pkg/table, pkg/report or the Azure SDK (pkg/judge's TestImportsNoRunner
// holds that). Nothing here talks to a server, prints or exits.
package plan
