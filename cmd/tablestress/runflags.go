package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/session"
	"github.com/tablestress/tablestress/pkg/workload"
)

// runFlags are the flags shared by run, compare and seed.
type runFlags struct {
	target   string
	scheme   string
	duration time.Duration
	warmup   time.Duration
	rate     string
	workers  int
	seed     uint64
	entities string
	maxOps   int64
	retry    string
	grace    time.Duration
	out      string
	csv      string
	qcsv     string // --questions-csv
	html     string
	format   string
	// allPartitions is --all-partitions: the JSON lists every partition.
	allPartitions bool
	table         string
	keepTable     bool
	reuseTable    bool
	skipSeed      bool
	yes           bool
	quiet         bool
	verify        bool
	shard         string
	metrics       string
	reconnect     bool
	downAfter     time.Duration
	model         string
	// embeddedTransport is --embedded-transport: how the client reaches
	// the embedded service, in-process (the default) or socket.
	embeddedTransport string
	// clock is --clock: virtual, wall or "" (the default for the target).
	clock  string
	models string // compare only: the models to run every scheme under
	faults string
	runID  string
	// caFile is --ca-file (or TABLESTRESS_CA_FILE): certificates to trust
	// besides the system's, for the target's TLS and for signing in.
	caFile string
	// partitionRU is --partition-ru: the RU/s a partition of a target
	// that charges request units is judged against.
	partitionRU float64
	// seedRate and seedPartRate pace the seed phase (requests/s to the
	// account, entities/s per partition) when set.
	seedRate, seedPartRate       float64
	seedRateSet, seedPartRateSet bool
	// search is set for find (and compare --find).
	search *searchFlags
	// junit is --junit (run, compare, find).
	junit *junitFlags
}

func (f *runFlags) register(fs *pflag.FlagSet, withWorkload bool) {
	fs.StringVar(&f.target, "target", "", "where to run: embedded (default), azurite, a connection string, an account or SAS URL, a Cosmos DB Table endpoint; also TABLESTRESS_TARGET")
	fs.StringVar(&f.scheme, "scheme", "", "the key scheme to run (default: the scenario's first)")
	fs.Uint64Var(&f.seed, "seed", 0, "seed of the entity stream and request generators (default: the scenario's)")
	fs.StringVar(&f.entities, "entities", "", "entities to seed, overriding population.entities (e.g. 50k)")
	fs.StringVar(&f.table, "table", "", "table name (default: a fresh unique name); an existing table is refused unless --reuse-table")
	fs.BoolVar(&f.keepTable, "keep-table", false, "leave the tables in place after the run")
	fs.BoolVar(&f.reuseTable, "reuse-table", false, "allow writing into a table that already exists (it is then never deleted)")
	fs.BoolVar(&f.yes, "yes", false, "do not ask before loading a target that is not on this machine")
	fs.StringVar(&f.caFile, "ca-file", "", "PEM certificates to trust besides the system's, for the target's TLS and the token authority's (a tablestress emulator --tls certificate); also TABLESTRESS_CA_FILE")
	fs.Float64Var(&f.partitionRU, "partition-ru", 0, "for a target that charges request units (Cosmos DB): the RU/s of one physical partition, the provisioned RU/s over the physical partitions, that each partition is judged against (default: the embedded service's cosmos model's share; else none)")
	fs.BoolVar(&f.quiet, "quiet", false, "no live status line")
	fs.StringVar(&f.model, "model", "", "embedded target: service model, azure, cosmos or off, or with overrides like azure,latency=off or cosmos,ru=10000 (default: the scenario's embedded.model, or azure)")
	fs.StringVar(&f.faults, "faults", "", "embedded target: fault injection, like '503=1%,latency=2ms' (default: the scenario's embedded.faults)")
	fs.StringVar(&f.embeddedTransport, "embedded-transport", transportInProcess, "embedded target: how the SDK reaches the service, in-process (no socket, no HTTP text) or socket (a loopback port, as other SDKs reach tablestress emulator)")
	fs.Float64Var(&f.seedRate, "seed-rate", 0, azureText("seed phase: at most this many requests/s to the account, 0 for no limit (default: Azure's {account} for an Azure Storage account not on this machine, else none)"))
	fs.Float64Var(&f.seedPartRate, "seed-partition-rate", 0, azureText("seed phase: at most this many entities/s per partition, 0 for no limit (default: Azure's {partition} for an Azure Storage account not on this machine, else none)"))
	if !withWorkload {
		fs.IntVar(&f.workers, "workers", 0, "parallel seed writers (default: the scenario's workers)")
		return
	}
	fs.StringVar(&f.clock, "clock", "", clockHelp)
	fs.DurationVar(&f.duration, "duration", 0, "measured run time, overriding workload.duration")
	fs.DurationVar(&f.warmup, "warmup", 0, "warm-up before measuring, overriding workload.warmup (0s: none)")
	fs.StringVar(&f.rate, "rate", "", "open loop at this many operations/s (e.g. 2000 or 2000/s), overriding workload.rate; 0 for closed loop")
	fs.IntVar(&f.workers, "workers", 0, "concurrent workers, overriding workload.workers")
	fs.Int64Var(&f.maxOps, "max-ops", 0, "stop after this many measured operations, overriding workload.max_operations (0: no limit)")
	fs.StringVar(&f.retry, "retry", "", "retry strategy, overriding workload.retry: none, fixed(DELAY,N), exponential(DEFAULT,MIN,MAX,N)")
	fs.DurationVar(&f.grace, "grace", 0, "after the run ends (or Ctrl-C), how long in-flight operations may finish (default: the request timeout)")
	fs.StringVar(&f.metrics, "metrics-addr", "", "serve live Prometheus metrics at http://ADDR/metrics during the run (e.g. 127.0.0.1:9464)")
	fs.StringVar(&f.runID, "run-id", "", "a name the shards of one run share (a CI job or Kubernetes Job id), recorded in the report; merge refuses shards of different runs (default: $TABLESTRESS_RUN_ID)")
	fs.StringVar(&f.shard, "shard", "", "run shard I of N (I/N, 0-based; JOB_COMPLETION_INDEX/N in a Kubernetes Indexed Job): a disjoint share of the partitions and rate; needs --table; merge the reports with tablestress merge")
	fs.BoolVar(&f.reconnect, "reconnect", false, "keep running while the target is down, counting the failures and recording the outage (default: stop)")
	fs.DurationVar(&f.downAfter, "down-after", session.DefaultDownAfter, "how long the target may answer nothing (or only refusals such as 403) before it counts as down")
	fs.BoolVar(&f.verify, "verify", false, "after the run, read back every acknowledged write and report missing or changed entities")
	fs.StringVar(&f.out, "out", "", "write the JSON report to this file")
	fs.StringVar(&f.csv, "csv", "", "write the per-partition CSV to this file")
	fs.StringVar(&f.qcsv, "questions-csv", "", "write the per-question CSV (one row per question and scheme) to this file")
	fs.StringVar(&f.html, "html", "", "write the HTML report to this file")
	fs.StringVar(&f.format, "format", "text", "what to print on stdout: text or json")
	f.registerAllPartitions(fs)
	f.junit = &junitFlags{}
	f.junit.register(fs)
}

// registerAllPartitions registers --all-partitions.
func (f *runFlags) registerAllPartitions(fs *pflag.FlagSet) {
	fs.BoolVar(&f.allPartitions, "all-partitions", false, fmt.Sprintf("the JSON (--out, --format json) lists every partition (default: the busiest %d, and those over their target, of the highest peak, the most throttled or a threshold judged; the others summed in other_partitions)", report.KeptPartitions))
}

// jsonReport is a run's report as the JSON writes it: summarised
// (report.Summarised) unless --all-partitions.
func (f *runFlags) jsonReport(r *report.Report) *report.Report {
	if f.allPartitions {
		return r
	}
	return report.Summarised(r, report.KeptPartitions)
}

// jsonCompare is a comparison as the JSON writes it: each run as
// jsonReport writes it.
func (f *runFlags) jsonCompare(c *report.Compare) *report.Compare {
	if f.allPartitions {
		return c
	}
	return report.SummarisedCompare(c, report.KeptPartitions)
}

// overrides turns the flags that were given into the run's overrides;
// errors name the flag and what would be right.
func (f *runFlags) overrides(changed func(string) bool) (plan.Overrides, error) {
	var o plan.Overrides
	if changed("seed") {
		o.Seed = &f.seed
	}
	f.seedRateSet, f.seedPartRateSet = changed("seed-rate"), changed("seed-partition-rate")
	if f.seedRate < 0 || f.seedPartRate < 0 {
		return o, usageError("--seed-rate and --seed-partition-rate must not be negative (0: no limit)")
	}
	if changed("entities") {
		var c scenario.Count
		if err := c.UnmarshalText([]byte(f.entities)); err != nil {
			return o, usageError("--entities: %v", err)
		}
		n := int64(c)
		o.Entities = &n
	}
	if err := f.workloadOverrides(changed, &o); err != nil {
		return o, err
	}
	if f.shard != "" {
		i, n, err := report.ParseShard(f.shard)
		if err != nil {
			return o, usageError("--shard: %v", err)
		}
		o.Shard, o.Shards = i, n
	}
	if err := tableFlagError(workload.CheckTable(f.table, f.skipSeed, o.Shards)); err != nil {
		return o, err
	}
	f.reuseTable = f.reuseTable || f.skipSeed
	if f.partitionRU < 0 {
		return o, usageError("--partition-ru must not be negative")
	}
	if changed("format") && f.format != "text" && f.format != "json" {
		return o, usageError("--format must be text or json")
	}
	return o, nil
}

func (f *runFlags) String() string { return fmt.Sprintf("%+v", *f) }

// workloadOverrides sets the overrides of the scenario's workload section
// from the flags that were given; errors name the flag.
func (f *runFlags) workloadOverrides(changed func(string) bool, o *plan.Overrides) error {
	if changed("duration") {
		if f.duration <= 0 {
			return usageError("--duration must be positive, like 30s")
		}
		o.Duration = f.duration
	}
	if changed("warmup") {
		if f.warmup < 0 {
			return usageError("--warmup must not be negative")
		}
		o.Warmup = &f.warmup
	}
	if changed("rate") {
		r, err := scenario.ParseRate(f.rate)
		if err != nil {
			return usageError("--rate: %v", err)
		}
		o.Rate = &r
	}
	if changed("workers") {
		if f.workers < 1 || f.workers > scenario.MaxWorkers {
			return usageError("--workers must be between 1 and %d", scenario.MaxWorkers)
		}
		o.Workers = f.workers
	}
	if changed("max-ops") {
		if f.maxOps < 0 {
			return usageError("--max-ops must not be negative")
		}
		o.MaxOps = &f.maxOps
	}
	if changed("retry") {
		r, err := scenario.ParseRetry(f.retry)
		if err != nil {
			return usageError("--retry: %v", err)
		}
		o.Retry = &r
	}
	return nil
}

// tableFlagError says a workload.CheckTable refusal in the flags' terms.
func tableFlagError(err error) error {
	switch {
	case errors.Is(err, workload.ErrSkipSeedNeedsTable):
		return usageError("--skip-seed needs --table: the table tablestress seed --keep-table prepared")
	case errors.Is(err, workload.ErrShardNeedsTable):
		return usageError("--shard needs --table: the shards of one run share one table")
	}
	return err
}

// seedPacing is the seed phase's pacing the user set (nil: the target's
// default, workload.SeedLimitsFor): requests/s to the account, entities/s
// per partition.
func (f *runFlags) seedPacing() (requests, partitionEntities *float64) {
	if f.seedRateSet {
		requests = &f.seedRate
	}
	if f.seedPartRateSet {
		partitionEntities = &f.seedPartRate
	}
	return requests, partitionEntities
}
