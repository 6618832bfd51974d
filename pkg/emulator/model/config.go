// Package model is the embedded Table service's model of Azure Table
// Storage's documented scalability behaviour: per-partition and per-account
// targets enforced as token buckets, range partitions that make append-only
// and prepend-only keys share one server, partition servers, and load
// balancing that takes moved partitions offline for a few seconds. It has
// no HTTP and reads no clock of its own: the caller passes one in.
package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Config holds the model's parameters.
type Config struct {
	// Enabled turns the model on; when off every request is admitted.
	Enabled bool
	// PartitionTarget is the entities per second one partition serves:
	// 2,000 (Azure Storage scalability targets for Table storage; seed 002
	// "a partition has a scalability target of 2000 entities per second").
	PartitionTarget float64
	// AccountTarget is the requests per second of the account: 20,000
	// (Azure Storage scalability targets: "maximum request rate per storage
	// account" for tables, counting an entity group transaction once).
	AccountTarget float64
	// RangeTarget is the entities per second of the table's first and last
	// range partitions, which serve every insert of a new PartitionKey below
	// (prepend-only) or above (append-only) all existing ones (seed 002
	// "Range partitions": their throughput "is limited by a single partition
	// server"). Default: the partition target.
	RangeTarget float64
	// Servers is the number of partition servers partitions are placed on
	// (by hash of the PartitionKey). Azure does not publish it; a model
	// assumption.
	Servers int
	// ServerTarget is the entities per second one partition server sustains
	// across its partitions. Azure publishes no figure; a model assumption
	// (default 10,000) that makes several warm partitions on one server hot.
	ServerTarget float64
	// BalanceDelay is how long a partition, server or range end must stay
	// over its target before load balancing acts (seed 002: "the system
	// waits a few minutes"; default 2m, short in tests).
	BalanceDelay time.Duration
	// MoveOffline is how long what load balancing moved stays offline,
	// answering 503 (seed 002: "the partition becomes offline for a few
	// seconds"; default 3s).
	MoveOffline time.Duration
	// TimeoutShare is the share of refusals answered 500 OperationTimedOut
	// rather than 503 ServerBusy (Azure throttles both ways; default 10%).
	TimeoutShare float64
	// Burst is how much of a second's target a bucket may take at once
	// (default 0.1 s), at least one 100-entity transaction.
	Burst time.Duration
}

// Default returns Azure's documented targets with the model on.
func Default() Config {
	return Config{Enabled: true, PartitionTarget: 2000, AccountTarget: 20000, RangeTarget: 2000, Servers: 16,
		ServerTarget: 10000, BalanceDelay: 2 * time.Minute, MoveOffline: 3 * time.Second, TimeoutShare: 0.1, Burst: 100 * time.Millisecond}
}

// Off returns a disabled model: every request is admitted.
func Off() Config { c := Default(); c.Enabled = false; return c }

// ErrConfig is wrapped by every parse error.
var ErrConfig = errors.New("model: bad configuration")

// Forms describes the accepted spec.
const Forms = "azure or off, optionally followed by overrides like azure,partition=2000,account=20000,range=2000,servers=16,server=10000,balance=2m,offline=3s,timeouts=10%,burst=100ms"

// Parse reads "azure", "off" or "azure,key=value,...".
func Parse(spec string) (Config, error) {
	parts := strings.Split(strings.TrimSpace(spec), ",")
	var c Config
	switch strings.TrimSpace(parts[0]) {
	case "azure", "":
		c = Default()
	case "off":
		c = Off()
	default:
		return Config{}, fmt.Errorf("%w: %q: start with %s", ErrConfig, parts[0], Forms)
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			return Config{}, fmt.Errorf("%w: %q is not key=value; use %s", ErrConfig, p, Forms)
		}
		if err := c.set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return Config{}, fmt.Errorf("%w: %q: %v", ErrConfig, p, err)
		}
	}
	return c, nil
}

func (c *Config) set(k, v string) error {
	num := func() (float64, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return 0, fmt.Errorf("%s must be a positive number", k)
		}
		return f, nil
	}
	dur := func() (time.Duration, error) {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("%s must be a duration like 30s", k)
		}
		return d, nil
	}
	var err error
	switch k {
	case "partition":
		c.PartitionTarget, err = num()
	case "account":
		c.AccountTarget, err = num()
	case "range":
		c.RangeTarget, err = num()
	case "server":
		c.ServerTarget, err = num()
	case "servers":
		var n float64
		if n, err = num(); err == nil {
			if n != float64(int(n)) || n > 4096 {
				return fmt.Errorf("servers must be a whole number up to 4096")
			}
			c.Servers = int(n)
		}
	case "balance":
		c.BalanceDelay, err = dur()
	case "offline":
		c.MoveOffline, err = dur()
	case "burst":
		c.Burst, err = dur()
	case "timeouts":
		f, perr := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if perr != nil || f < 0 || f > 100 || !strings.HasSuffix(v, "%") {
			return fmt.Errorf("timeouts must be a percentage like 10%%")
		}
		c.TimeoutShare = f / 100
	default:
		return fmt.Errorf("unknown key %q; keys are partition, account, range, servers, server, balance, offline, timeouts, burst", k)
	}
	return err
}

// String returns the spec that parses back to c.
func (c Config) String() string {
	base := "azure"
	if !c.Enabled {
		base = "off"
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("%s,partition=%s,account=%s,range=%s,servers=%d,server=%s,balance=%s,offline=%s,timeouts=%s%%,burst=%s",
		base, f(c.PartitionTarget), f(c.AccountTarget), f(c.RangeTarget), c.Servers, f(c.ServerTarget),
		c.BalanceDelay, c.MoveOffline, f(c.TimeoutShare*100), c.Burst)
}
