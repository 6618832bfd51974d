package workload

import "errors"

// ErrSkipSeedNeedsTable is a run that skips the seed phase without naming
// the table seeded before (Config.SkipSeed without Config.Table).
var ErrSkipSeedNeedsTable = errors.New("workload: skipping the seed phase needs the name of an existing table, seeded before")

// ErrShardNeedsTable is one shard of several without the name of the table
// they share (Config.Shards over 1 without Config.Table).
var ErrShardNeedsTable = errors.New("workload: a shard of several needs the name of the existing table all the shards share")

// CheckTable is the rule on the table a run names: a run that skips the
// seed phase, or is one shard of several, runs on an existing table and so
// needs its name; table "" means a fresh table. It returns
// ErrSkipSeedNeedsTable or ErrShardNeedsTable, else nil. Run applies it;
// a command calls it first to say which of its flags is missing.
func CheckTable(tableName string, skipSeed bool, shards int) error {
	switch {
	case tableName != "":
		return nil
	case skipSeed:
		return ErrSkipSeedNeedsTable
	case shards > 1:
		return ErrShardNeedsTable
	}
	return nil
}
