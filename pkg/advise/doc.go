// Package advise proposes the key scheme for a scenario's population,
// write load and questions: it generates candidates, has the judge
// (pkg/judge) predict what each costs at the peak, ranks them with the
// scenario's own schemes, picks the recommendation and the runner-up, and
// plans and judges the proof that runs them.
//
// Candidates (generate.go) come from the fields the questions know and
// Azure's table design patterns: a field; a field with the coarsest time
// bucket that keeps a partition under --max-partition-rows over the
// horizon ("Compound key pattern"); a field or a time bucket over N hash
// buckets, N the fewest that keep the busiest partition under the
// headroom's share of its target; RowKeys for the questions' order and
// identity ("Log tail pattern", "Intra-partition secondary index
// pattern"); index tables for a question the main table can only scan
// ("Index entities pattern", indexdesign.go).
//
// Every decision reads the judge's findings (judge.Finding: a figure, its
// limit, how far over; problems.go), never words: whether a candidate can
// be recommended (its problems), how far over its limits one that cannot
// is (Candidate.Over, which ranks them), whether its partitions are hot
// and which table holds the hot one (which hash buckets relieve), and why
// the recommendation was picked (words.go). The words are the judge's
// (judge.Input.Words). rank.go orders the candidates; advise.go picks;
// infeasible.go says what would serve a load nothing serves (more request
// units, more accounts); proof*.go plan the proof's scenario (yaml.go),
// its depth and duration, and judge its reports against the predictions.
//
// To add a key pattern: a PartitionKey piece is a field of pkSpec with its
// template, name and pattern in words (candidate.go), offered by formsOf
// and sized (generate.go); a RowKey is one more rowKey of rowKeys
// (rowkey.go). The judge judges whatever templates it is given.
//
// Nothing here talks to a server, prints, or exits; running the proof is
// the caller's: cmd/tablestress compiles the proof's scenario, a value
// (ProofScenarioValue, proofvalue.go), and runs it with pkg/session;
// ProofScenario writes the same run as a file (--save-proof, and the
// reports' record of the scenario run).
package advise
