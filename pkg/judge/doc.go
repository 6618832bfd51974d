// Package judge predicts, without a server, what a key scheme costs a
// scenario's application, and decides what of it is a problem: each
// partition's load at the peak, the account's requests, and each
// question's plan with its partitions, requests, rounds, rows visited and
// rows returned (a Prediction, with its Figures at each size of the
// table); then each figure held against its limit (Findings: a Finding is
// a value, its limit and the target that limit is a share of, Over or
// not), said in words in one place (Words). It is the one judge
// `tablestress keys`, `advise` and advise's proof use: keys holds the
// findings to each whole target, advise to its headroom.
//
// It judges a table at a size: the seeded table, the table as it will be
// after a horizon of event time at the workload's write rate (less what a
// retention deletes), or the table a proof seeds. Every figure is computed
// from the population's laws, not from rendered rows: a field's values
// are drawn independently per entity with known probabilities
// (keygen.Support), event time moves by the population's interval per
// entity (at the horizon, by the write rate), and a hash bucket of a value
// new for every entity takes an equal share. So a partition holds its
// share of the entities times the event time it stays current (its time
// bucket, or the whole table), a window holds a key's rate times the
// window, and a walk over time buckets for the newest N takes as many
// buckets as the key's rate needs (a Poisson count per bucket), up to the
// table's span, weighed by how often each key is asked; a table scan is
// one query the service answers in key order, so it visits every time
// bucket whatever its limit, a page (a request) for each partition that
// holds rows in its range (question.Model's paging): a partition keyed by
// few values holds some with the Poisson chance, one keyed per entity (a
// sequence, a guid) holds its one entity. The table a proof seeds is judged at
// moments over the run, as it stands at each: grown from the first
// entity the seed wrote, so its oldest rows keep their place against the
// time buckets' bounds (a walk stops at the table's first bucket).
//
// Values of a field that the laws cannot tell apart (the same probability
// under every law in use) are judged together as a bin; tables are judged
// as groups of alike partitions, each with its multiplicity. A field of
// any number of values is judged by its law: its exact table up to
// keygen.MaxSupport values, its binned law beyond (keygen.Support says
// what that leaves out), so a partition keyed by it holds entities ÷ keys
// rows, its busiest key its law's share.
//
// It reads the compiled scenario from pkg/plan (the mix, the operations'
// costs, the peak), Azure's targets through the model's configuration
// (pkg/emulator/model, whose defaults are pkg/azure's), and key pieces'
// time from pkg/keygen. Nothing here talks to a server, prints or exits,
// and it imports neither the runner (pkg/workload), the Table client
// (pkg/table), the reports (pkg/report) nor the Azure SDK: TestImportsNoRunner
// holds that.
package judge
