package model

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/percent"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// ErrConfig is what every Parse error wraps (errors.Is(err, ErrConfig)).
var ErrConfig = errors.New("model: bad configuration")

// SpecError is a Parse error: the offending item of the spec and what would
// be right. It unwraps to ErrConfig.
type SpecError struct {
	Item   string // the item as written ("partition=abc"), or the whole spec
	Reason string // what was wrong and what would be right
}

// Error returns `model: "ITEM": REASON`.
func (e *SpecError) Error() string { return "model: " + strconv.Quote(e.Item) + ": " + e.Reason }

// Unwrap returns ErrConfig.
func (e *SpecError) Unwrap() error { return ErrConfig }

// Forms describes the accepted spec, for usage texts, with the defaults.
var Forms = "azure (Azure Table Storage's targets, the default), cosmos (the Cosmos DB Table API), off, " +
	"or azure or cosmos followed by overrides. Azure: partition=" + itoa(defaultPartitionTarget) + " (entities/s per PartitionKey), " +
	"account=" + itoa(defaultAccountTarget) + " (requests/s), ingress=" + itoa(defaultIngressGbps) + " and egress=" + itoa(defaultEgressGbps) + " (the account's bandwidth, Gbps), " +
	"range=" + itoa(defaultPartitionTarget) + " (entities/s of each end range partition), servers=16, server=10000 (entities/s per server), " +
	"balance=2m (time over target before load balancing), offline=3s (time a moved partition is offline), " +
	"timeouts=10% (refusals answered 500 OperationTimedOut). Cosmos DB: ru=" + itoa(defaultCosmosRU) + " (RU/s of each table), " +
	"physical=N (physical partitions; default RU/" + textfit.Int(defaultPartitionRU) + " rounded up), " +
	"physical_ru=" + itoa(defaultPartitionRU) + " and logical_ru=" + itoa(defaultPartitionRU) + " (most RU/s of a physical " +
	"and a logical partition), logical_size=20GB (most a PartitionKey may hold). Both: burst=100ms (bucket size), " +
	"latency=on|off (service time), read=5ms and write=10ms (base time; Cosmos DB 3ms and 6ms), entity=50us " +
	"(per entity read, written or visited), kib=20us (per KiB moved), queue=50% (utilisation at the target, for the queueing time; Cosmos DB 0)"

// itoa writes a whole number without separators, as a spec takes it.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The override keys, in the order String writes them.
var (
	azureKeys   = []string{"partition", "account", "ingress", "egress", "range", "servers", "server", "balance", "offline", "timeouts"}
	cosmosKeys  = []string{"ru", "physical", "physical_ru", "logical_ru", "logical_size"}
	commonKeys  = []string{"burst", "latency", "read", "write", "entity", "kib", "queue"}
	keysOfKinds = [...][]string{Azure: slices.Concat(azureKeys, commonKeys), Cosmos: slices.Concat(cosmosKeys, commonKeys)}
)

// maxDuration bounds every duration Parse accepts.
const maxDuration = 24 * time.Hour

// Parse reads a model spec: "azure", "cosmos", "off", or one of them
// followed by comma-separated key=value overrides (see Forms), e.g.
// "azure,partition=500,balance=10s" or "cosmos,ru=10000". An empty spec
// means "azure"; "off" takes Azure's keys. Each key may appear once.
// Errors are *SpecError values naming the offending item.
func Parse(spec string) (Config, error) {
	items := strings.Split(spec, ",")
	var c Config
	switch base := strings.TrimSpace(items[0]); base {
	case "azure", "":
		if base == "" && len(items) > 1 {
			return Config{}, &SpecError{spec, "start with azure, cosmos or off, like azure,partition=500"}
		}
		c = Default()
	case "cosmos":
		c = CosmosDefault()
	case "off":
		c = Off()
	default:
		return Config{}, &SpecError{items[0], "start with azure, cosmos or off, optionally followed by overrides like azure,partition=500 or cosmos,ru=10000; " + Forms}
	}
	seen := map[string]bool{}
	for _, item := range items[1:] {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		keys := strings.Join(keysOfKinds[c.Kind], ", ")
		switch {
		case strings.TrimSpace(item) == "":
			return Config{}, &SpecError{spec, "empty item between commas"}
		case !ok:
			return Config{}, &SpecError{item, "not key=value; keys are " + keys}
		case seen[k]:
			return Config{}, &SpecError{item, k + " is given twice"}
		}
		seen[k] = true
		if reason := c.set(k, v); reason != "" {
			return Config{}, &SpecError{strings.TrimSpace(item), reason}
		}
	}
	if c.Kind == Cosmos && c.Cosmos.Partitions > 0 && float64(c.Cosmos.Partitions)*c.Cosmos.PartitionRU < c.Cosmos.RU {
		return Config{}, &SpecError{spec, "physical partitions cannot serve ru: each serves at most physical_ru, so physical must be at least ru/physical_ru"}
	}
	return c, nil
}

// set applies one override and returns "" or what was wrong.
func (c *Config) set(k, v string) string {
	if !known(keysOfKinds[c.Kind], k) {
		if known(keysOfKinds[1-c.Kind], k) {
			return k + " belongs to " + (1 - c.Kind).String() + ", not " + c.Kind.String() + "; " + c.Kind.String() + " takes " + strings.Join(keysOfKinds[c.Kind], ", ")
		}
		return "unknown key " + strconv.Quote(k) + "; keys are " + strings.Join(keysOfKinds[c.Kind], ", ")
	}
	if reason, done := c.setCommon(k, v); done {
		return reason
	}
	if c.Kind == Cosmos {
		return c.Cosmos.set(k, v)
	}
	return c.setAzure(k, v)
}

func known(keys []string, k string) bool { return slices.Contains(keys, k) }

// setCommon applies a key both kinds take; done is false for other keys.
func (c *Config) setCommon(k, v string) (reason string, done bool) {
	l := &c.Latency
	var ok bool
	switch k {
	case "burst":
		c.Burst, ok = parseDuration(v)
	case "read":
		l.Read, ok = parseDuration(v)
	case "write":
		l.Write, ok = parseDuration(v)
	case "entity":
		l.Entity, ok = parseDuration(v)
	case "kib":
		l.KiB, ok = parseDuration(v)
	case "latency":
		switch v {
		case "on", "off":
			l.On = v == "on"
			return "", true
		}
		return "latency must be on or off", true
	case "queue":
		f, err := percent.ParseShare(v)
		if err != nil {
			return "queue must be the utilisation of a partition at its target, a percentage like 50% or a fraction like 0.5 (0 for no queueing)", true
		}
		l.Queue = f
		return "", true
	default:
		return "", false
	}
	if !ok {
		return k + " must be a duration from 0s to 24h, like " + k + "=5ms", true
	}
	return "", true
}

// setAzure applies one of Azure's keys.
func (c *Config) setAzure(k, v string) string {
	var ok bool
	switch k {
	case "partition":
		c.PartitionTarget, ok = parseRate(v)
	case "account":
		c.AccountTarget, ok = parseRate(v)
	case "ingress":
		c.IngressGbps, ok = parseRate(v)
	case "egress":
		c.EgressGbps, ok = parseRate(v)
	case "range":
		c.RangeTarget, ok = parseRate(v)
	case "server":
		c.ServerTarget, ok = parseRate(v)
	case "servers":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxServers {
			return "servers must be a whole number from 1 to 4096, like servers=16"
		}
		c.Servers, ok = n, true
	case "balance":
		c.BalanceDelay, ok = parseDuration(v)
	case "offline":
		c.MoveOffline, ok = parseDuration(v)
	case "timeouts":
		s, err := percent.ParseShare(v)
		if ok = err == nil; !ok {
			return "timeouts must be a percentage like 10% or a fraction like 0.1, from 0 to 100%"
		}
		c.TimeoutShare = s
	}
	if ok {
		return ""
	}
	if k == "balance" || k == "offline" {
		return k + " must be a duration from 0s to 24h, like 30s or 2m"
	}
	if k == "ingress" || k == "egress" {
		return k + " must be a positive number of gigabits per second up to 1e12, like " + k + "=" + itoa(defaultIngressGbps)
	}
	return k + " must be a positive number per second up to 1e12, like " + k + "=" + itoa(defaultPartitionTarget)
}

// set applies one of Cosmos DB's keys.
func (c *CosmosConfig) set(k, v string) string {
	var ok bool
	switch k {
	case "ru":
		c.RU, ok = parseRate(v)
	case "physical_ru":
		c.PartitionRU, ok = parseRate(v)
	case "logical_ru":
		c.LogicalRU, ok = parseRate(v)
	case "physical":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPartitions {
			return "physical must be a whole number from 1 to 1024, like physical=4"
		}
		c.Partitions = n
		return ""
	case "logical_size":
		n, ok := parseBytes(v)
		if !ok {
			return "logical_size must be a size from 1KB to 1TB, like 20GB or 512MB"
		}
		c.LogicalBytes = n
		return ""
	}
	if ok {
		return ""
	}
	return k + " must be a positive number of RU per second up to 1e12, like " + k + "=10000"
}

func parseRate(v string) (float64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil && f > 0 && f <= maxTarget
}

func parseDuration(v string) (time.Duration, bool) {
	d, err := time.ParseDuration(v)
	return d, err == nil && d >= 0 && d <= maxDuration
}
