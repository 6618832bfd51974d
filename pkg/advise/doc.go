// Package advise proposes the key scheme for a scenario's population,
// write load and questions, and judges every candidate without a server.
//
// Candidates come from the fields the questions know and the patterns of
// the key design guidance (the seeds): a field; a field with a time
// bucket of the coarsest granularity that keeps a partition under a size
// bound over the horizon; a field or a time bucket spread over N hash
// buckets, N the smallest that keeps the busiest partition at or below the
// headroom share of the partition target at the peak rate, skew included;
// RowKeys that serve the questions' order and stay unique; index tables
// where a question needs a second access path. The scenario's own schemes
// are judged with them.
//
// The judge is exact where the population model allows it: the entity
// stream's fields are drawn independently per entity from laws known in
// closed form (keygen.Support, keygen.Probabilities), so the share of new
// entities each PartitionKey takes is enumerated, not sampled, and reads
// weigh every seeded entity by the probability its request distribution
// picks it. Questions are asked on a model of the seeded table
// (question.Model) for every group of entities that share the known values
// when there are few groups, else for 64 picks. What it predicts per
// candidate (Prediction): the busiest partition's entities/s at the peak
// (charged as the Table service charges: entities written, read, and
// visited by queries) against the partition target, the account's requests
// and entities per second, whether PartitionKeys grow monotonically (every
// insert landing on one range partition), each question's plan and cost,
// batch fill, rows and bytes per partition after the horizon, and under
// Cosmos DB the request units.
//
// Nothing here talks to a server, prints, or exits; the proof (running the
// recommendation) is the caller's, with the predictions and the verdict of
// proof.go.
package advise
