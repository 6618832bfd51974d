package model

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/share"
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

// Forms describes the accepted spec, for usage texts.
const Forms = "azure (Azure's targets, the default), off, or azure followed by overrides: " +
	"partition=2000 (entities/s per PartitionKey), account=20000 (requests/s), " +
	"range=2000 (entities/s of each end range partition), servers=16, server=10000 (entities/s per server), " +
	"balance=2m (time over target before load balancing), offline=3s (time a moved partition is offline), " +
	"timeouts=10% (refusals answered 500 OperationTimedOut), burst=100ms (bucket size)"

// keys lists the override keys in the order String writes them.
var keys = []string{"partition", "account", "range", "servers", "server", "balance", "offline", "timeouts", "burst"}

// maxDuration bounds every duration Parse accepts.
const maxDuration = 24 * time.Hour

// Parse reads a model spec: "azure", "off", or either followed by
// comma-separated key=value overrides (see Forms), e.g.
// "azure,partition=500,balance=10s". An empty spec means "azure". Each key
// may appear once. Errors are *SpecError values naming the offending item.
func Parse(spec string) (Config, error) {
	items := strings.Split(spec, ",")
	var c Config
	switch base := strings.TrimSpace(items[0]); base {
	case "azure", "":
		if base == "" && len(items) > 1 {
			return Config{}, &SpecError{spec, "start with azure or off, like azure,partition=500"}
		}
		c = Default()
	case "off":
		c = Off()
	default:
		return Config{}, &SpecError{items[0], "start with azure or off, optionally followed by overrides like azure,partition=500; " + Forms}
	}
	seen := map[string]bool{}
	for _, item := range items[1:] {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case strings.TrimSpace(item) == "":
			return Config{}, &SpecError{spec, "empty item between commas"}
		case !ok:
			return Config{}, &SpecError{item, "not key=value; keys are " + strings.Join(keys, ", ")}
		case seen[k]:
			return Config{}, &SpecError{item, k + " is given twice"}
		}
		seen[k] = true
		if reason := c.set(k, v); reason != "" {
			return Config{}, &SpecError{strings.TrimSpace(item), reason}
		}
	}
	return c, nil
}

// set applies one override and returns "" or what was wrong.
func (c *Config) set(k, v string) string {
	var ok bool
	switch k {
	case "partition":
		c.PartitionTarget, ok = parseRate(v)
	case "account":
		c.AccountTarget, ok = parseRate(v)
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
	case "burst":
		c.Burst, ok = parseDuration(v)
	case "timeouts":
		c.TimeoutShare, ok = share.Parse(v)
		if !ok {
			return "timeouts must be a percentage like 10% or a fraction like 0.1, from 0 to 100%"
		}
	default:
		return "unknown key " + strconv.Quote(k) + "; keys are " + strings.Join(keys, ", ")
	}
	if ok {
		return ""
	}
	switch k {
	case "balance", "offline", "burst":
		return k + " must be a duration from 0s to 24h, like 30s or 2m"
	}
	return k + " must be a positive number per second up to 1e12, like " + k + "=2000"
}

func parseRate(v string) (float64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil && f > 0 && f <= maxTarget
}

func parseDuration(v string) (time.Duration, bool) {
	d, err := time.ParseDuration(v)
	return d, err == nil && d >= 0 && d <= maxDuration
}

// String returns the spec of c: "azure" or "off" followed by the values
// that differ from Default, in a fixed order. For any Config that Parse
// returned, Parse(c.String()) returns c again.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString("off")
	if c.Enabled {
		b.Reset()
		b.WriteString("azure")
	}
	d := Default()
	num := func(k string, v, def float64) {
		if v != def && !math.IsNaN(v) {
			b.WriteString("," + k + "=" + strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	dur := func(k string, v, def time.Duration) {
		if v != def {
			b.WriteString("," + k + "=" + v.String())
		}
	}
	num("partition", c.PartitionTarget, d.PartitionTarget)
	num("account", c.AccountTarget, d.AccountTarget)
	num("range", c.RangeTarget, d.RangeTarget)
	if c.Servers != d.Servers {
		b.WriteString(",servers=" + strconv.Itoa(c.Servers))
	}
	num("server", c.ServerTarget, d.ServerTarget)
	dur("balance", c.BalanceDelay, d.BalanceDelay)
	dur("offline", c.MoveOffline, d.MoveOffline)
	if c.TimeoutShare != d.TimeoutShare {
		b.WriteString(",timeouts=" + share.Format(c.TimeoutShare))
	}
	dur("burst", c.Burst, d.Burst)
	return b.String()
}
