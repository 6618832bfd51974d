// Package session is a run as a library call: it opens a target (the
// embedded Table service, in process or on a loopback port, or any
// table.Target: Azurite, an Azure Storage account, Cosmos DB's Table API)
// and runs the schemes of a compiled scenario on it (plan.Spec: the seed,
// the warm-up, the measured window), one after another on the same entity
// stream, returning each run's report (pkg/report) as compare prints it.
//
// Everything is given as values in Options: the compiled run, the parsed
// target, the embedded service's configuration, the clock, the run's
// settings (table, reuse, verify, reconnect, the seed's pacing) and the
// callbacks that watch it (Progress, Registry, Warn). Open starts what the
// options ask for and connects; Session.Run and Session.RunSchemes run;
// Run does the three for a caller that wants only the reports.
//
// Contract:
//
//   - Nothing here parses flags, reads files, prints or exits: the caller
//     (cmd/tablestress's run, seed, compare, find and the proof of advise)
//     turns its flags into Options and prints what comes back. An error
//     that a user's choice caused is a *ClockError (a virtual clock asked
//     for where it cannot serve); every other error is the target's or the
//     run's.
//   - The run's own rules live below: plan.Build decided the load,
//     workload.Run drives it, workload.SeedLimitsFor paces the seed of the
//     bound target, and workload.Config.Report builds the report.
//   - On a virtual clock (the embedded service in process with a model
//     that takes time) the client, its retries and the service's model
//     advance together; Session.OnClock runs a function on it.
//   - The package imports no command-line library; pkg/judge and
//     pkg/advise import none of it (TestImportsNoCommandLine,
//     pkg/judge's TestImportsNoRunner): the judge and the runner stand side
//     by side above pkg/plan, and this package stands above the runner.
//
// To change how an account is reached, change pkg/table's Target (and its
// parsing); this package passes the target through. To add a kind of
// embedded service start, change embedded.go.
package session
