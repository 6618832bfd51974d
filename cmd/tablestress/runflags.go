package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// runFlags are the flags shared by run, compare and seed.
type runFlags struct {
	target     string
	scheme     string
	duration   time.Duration
	warmup     time.Duration
	rate       string
	workers    int
	seed       uint64
	entities   string
	maxOps     int64
	retry      string
	grace      time.Duration
	out        string
	csv        string
	html       string
	format     string
	table      string
	keepTable  bool
	reuseTable bool
	yes        bool
	quiet      bool
	verify     bool
	shard      string
	metrics    string
	reconnect  bool
	downAfter  time.Duration
	model      string
	faults     string
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
	fs.BoolVar(&f.quiet, "quiet", false, "no live status line")
	fs.StringVar(&f.model, "model", "", "embedded target: partition model, azure or off or with overrides (default: the scenario's embedded.model, or azure)")
	fs.StringVar(&f.faults, "faults", "", "embedded target: fault injection, like '503=1%,latency=2ms' (default: the scenario's embedded.faults)")
	if !withWorkload {
		fs.IntVar(&f.workers, "workers", 0, "parallel seed writers (default: the scenario's workers)")
		return
	}
	fs.DurationVar(&f.duration, "duration", 0, "measured run time, overriding workload.duration")
	fs.DurationVar(&f.warmup, "warmup", -1, "warm-up before measuring, overriding workload.warmup")
	fs.StringVar(&f.rate, "rate", "", "open loop at this many operations/s (e.g. 2000 or 2000/s), overriding workload.rate; 0 for closed loop")
	fs.IntVar(&f.workers, "workers", 0, "concurrent workers, overriding workload.workers")
	fs.Int64Var(&f.maxOps, "max-ops", -1, "stop after this many operations, overriding workload.max_operations")
	fs.StringVar(&f.retry, "retry", "", "retry strategy, overriding workload.retry: none, fixed(DELAY,N), exponential(DEFAULT,MIN,MAX,N)")
	fs.DurationVar(&f.grace, "grace", 0, "after the run ends (or Ctrl-C), how long in-flight operations may finish (default: the request timeout)")
	fs.StringVar(&f.metrics, "metrics-addr", "", "serve live Prometheus metrics at http://ADDR/metrics during the run (e.g. 127.0.0.1:9464)")
	fs.StringVar(&f.shard, "shard", "", "run shard I of N (I/N, 0-based; JOB_COMPLETION_INDEX/N in a Kubernetes Indexed Job): a disjoint share of the partitions and rate; needs --table; merge the reports with tablestress merge")
	fs.BoolVar(&f.reconnect, "reconnect", false, "keep running while the target is down, counting the failures and recording the outage (default: stop)")
	fs.DurationVar(&f.downAfter, "down-after", 5*time.Second, "how long the target may answer nothing (or only refusals such as 403) before it counts as down")
	fs.BoolVar(&f.verify, "verify", false, "after the run, read back every acknowledged write and report missing or changed entities")
	fs.StringVar(&f.out, "out", "", "write the JSON report to this file")
	fs.StringVar(&f.csv, "csv", "", "write the per-partition CSV to this file")
	fs.StringVar(&f.html, "html", "", "write the HTML report to this file")
	fs.StringVar(&f.format, "format", "text", "what to print on stdout: text or json")
}

// apply overrides scenario values with the flags that were given.
func (f *runFlags) apply(s *scenario.Scenario, changed func(string) bool) error {
	w := &s.Workload
	if changed("seed") {
		s.Seed = f.seed
	}
	if changed("entities") {
		var c scenario.Count
		if err := c.UnmarshalText([]byte(f.entities)); err != nil {
			return usageError("--entities: %v", err)
		}
		s.Population.Entities = c
	}
	if changed("duration") {
		if f.duration <= 0 {
			return usageError("--duration must be positive, like 30s")
		}
		w.Duration = scenario.Duration(f.duration)
		w.Stages = nil
	}
	if changed("warmup") {
		if f.warmup < 0 {
			return usageError("--warmup must not be negative")
		}
		w.Warmup = scenario.Duration(f.warmup)
	}
	if changed("rate") {
		r, err := scenario.ParseRate(f.rate)
		if err != nil {
			return usageError("--rate: %v", err)
		}
		w.Rate = scenario.Rate(r)
		w.Stages = nil
	}
	if changed("workers") {
		if f.workers < 1 || f.workers > scenario.MaxWorkers {
			return usageError("--workers must be between 1 and %d", scenario.MaxWorkers)
		}
		w.Workers = f.workers
	}
	if changed("max-ops") {
		if f.maxOps < 0 {
			return usageError("--max-ops must not be negative")
		}
		w.MaxOperations = scenario.Count(f.maxOps)
	}
	if changed("retry") {
		r, err := scenario.ParseRetry(f.retry)
		if err != nil {
			return usageError("--retry: %v", err)
		}
		w.Retry = r
	}
	if f.shard != "" {
		i, n, err := parseShard(f.shard)
		if err != nil {
			return usageError("--shard: %v", err)
		}
		if f.table == "" {
			return usageError("--shard needs --table: the shards of one run share one table")
		}
		w.Rate = scenario.Rate(float64(w.Rate) / float64(n))
		for k := range w.Stages {
			w.Stages[k].Rate = scenario.Rate(float64(w.Stages[k].Rate) / float64(n))
		}
		if w.MaxOperations > 0 {
			w.MaxOperations = scenario.Count((int64(w.MaxOperations) + int64(n) - 1 - int64(i)) / int64(n))
		}
	}
	if changed("format") && f.format != "text" && f.format != "json" {
		return usageError("--format must be text or json")
	}
	return nil
}

func (f *runFlags) String() string { return fmt.Sprintf("%+v", *f) }

// parseShard reads "I/N" with 0 <= I < N; "$JOB_COMPLETION_INDEX" style
// values come expanded by the shell.
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q: write it as I/N with 0 <= I < N, like 0/3", s)
	}
	return i, n, nil
}
