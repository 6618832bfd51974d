// Package workload runs a compiled scenario (a pkg/plan Spec) against a
// Table endpoint: the seed phase that writes the population, the run
// phase whose workers draw their steps from a pkg/plan Plan and execute
// them through pkg/table, with the retry strategy, the open-loop pacer
// and the measured window, and the report of what was measured. find
// searches for the highest rate a scenario sustains.
package workload
