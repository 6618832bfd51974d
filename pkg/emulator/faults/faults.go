// Package faults is the embedded Table service's fault injection: shares of
// throttling answers, added latency, dropped connections and acknowledged
// but discarded writes, optionally only for named partitions. Decisions are
// deterministic for a seed: the n-th decision depends only on (seed, n), so
// tests know how many faults N requests get.
package faults

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Fault is what to do to one request before it is served.
type Fault struct {
	Status  int    // non-zero: answer this instead of serving
	Code    string // Azure error code for Status
	Message string
	Delay   time.Duration // added latency
	Drop    bool          // close the connection without an answer
	Discard bool          // writes only: acknowledge success but store nothing
}

// Config is a parsed fault spec. The zero value injects nothing.
type Config struct {
	// Status maps an answer (503, 500, 504, 429) to its share of requests.
	Status map[int]float64
	// Latency is added to LatencyShare of requests: fixed when LatencyMax is
	// zero, uniform in [Latency, LatencyMax] otherwise.
	Latency, LatencyMax time.Duration
	LatencyShare        float64
	// Drop and Discard are shares of requests (Discard: of writes).
	Drop, Discard float64
	// Partitions, when set, limits faults to these PartitionKeys.
	Partitions []string
	Seed       uint64
}

// Answers of status faults: code and message as Azure and Cosmos DB send them.
var answers = map[int]struct{ code, msg string }{
	503: {"ServerBusy", "The server is currently unable to receive requests. Please retry your request."},
	500: {"OperationTimedOut", "Operation could not be completed within the specified time."},
	504: {"", "Gateway Timeout"},
	429: {"TooManyRequests", "Message: {\"Errors\":[\"Request rate is large. More Request Units may be needed, so operation failed. Please retry after some time.\"]}"},
}

// ErrSpec is wrapped by every parse error.
var ErrSpec = errors.New("faults: bad spec")

// Forms describes the spec.
const Forms = "comma-separated items: 503=2%, 500=1%, 504=0.5%, 429=1%, latency=5ms, latency=1ms..20ms@10%, drop=0.1%, discard=0.1%, partitions=a|b, seed=7"

// Parse reads a fault spec.
func Parse(spec string) (Config, error) {
	c := Config{Status: map[int]float64{}}
	if strings.TrimSpace(spec) == "" || strings.TrimSpace(spec) == "none" {
		return c, nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return Config{}, fmt.Errorf("%w: %q is not key=value; %s", ErrSpec, item, Forms)
		}
		bad := func(why string) (Config, error) { return Config{}, fmt.Errorf("%w: %q: %s", ErrSpec, item, why) }
		switch k {
		case "503", "500", "504", "429":
			s, err := share(v)
			if err != nil {
				return bad(err.Error())
			}
			code, _ := strconv.Atoi(k)
			c.Status[code] = s
		case "drop", "discard":
			s, err := share(v)
			if err != nil {
				return bad(err.Error())
			}
			if k == "drop" {
				c.Drop = s
			} else {
				c.Discard = s
			}
		case "latency":
			d, at, hasShare := strings.Cut(v, "@")
			c.LatencyShare = 1
			if hasShare {
				s, err := share(at)
				if err != nil {
					return bad(err.Error())
				}
				c.LatencyShare = s
			}
			lo, hi, isRange := strings.Cut(d, "..")
			l, err := time.ParseDuration(lo)
			if err != nil || l < 0 {
				return bad("latency must be a duration like 5ms, or a range like 1ms..20ms")
			}
			c.Latency = l
			if isRange {
				h, err := time.ParseDuration(hi)
				if err != nil || h < l {
					return bad("the latency range must be like 1ms..20ms with the upper bound not below the lower")
				}
				c.LatencyMax = h
			}
		case "partitions":
			if v == "" {
				return bad("name at least one partition, like partitions=a|b")
			}
			c.Partitions = strings.Split(v, "|")
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return bad("seed must be a whole number")
			}
			c.Seed = n
		default:
			return bad("unknown key; " + Forms)
		}
	}
	total := c.Drop
	for _, s := range c.Status {
		total += s
	}
	if total > 1 {
		return Config{}, fmt.Errorf("%w: status faults and drops add up to %.1f%%, more than 100%%", ErrSpec, 100*total)
	}
	return c, nil
}

// share parses "2%" or "0.02".
func share(v string) (float64, error) {
	pct := strings.HasSuffix(v, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if pct {
		f /= 100
	}
	if err != nil || f < 0 || f > 1 {
		return 0, fmt.Errorf("a share must be a percentage like 2%% or a fraction like 0.02")
	}
	return f, nil
}

// String returns the spec that parses back to c.
func (c Config) String() string {
	var items []string
	codes := make([]int, 0, len(c.Status))
	for code := range c.Status {
		codes = append(codes, code)
	}
	sort.Ints(codes)
	f := func(x float64) string { return strconv.FormatFloat(x*100, 'g', -1, 64) + "%" }
	for _, code := range codes {
		items = append(items, fmt.Sprintf("%d=%s", code, f(c.Status[code])))
	}
	if c.LatencyShare > 0 {
		l := c.Latency.String()
		if c.LatencyMax > 0 {
			l += ".." + c.LatencyMax.String()
		}
		items = append(items, "latency="+l+"@"+f(c.LatencyShare))
	}
	if c.Drop > 0 {
		items = append(items, "drop="+f(c.Drop))
	}
	if c.Discard > 0 {
		items = append(items, "discard="+f(c.Discard))
	}
	if len(c.Partitions) > 0 {
		items = append(items, "partitions="+strings.Join(c.Partitions, "|"))
	}
	if c.Seed != 0 {
		items = append(items, "seed="+strconv.FormatUint(c.Seed, 10))
	}
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ",")
}

// Injector decides faults. It is safe for concurrent use.
type Injector struct {
	cfg    Config
	codes  []int
	parts  map[string]bool
	n      atomic.Uint64
	counts [5]atomic.Int64 // status, delay, drop, discard, total
}

// New returns an injector; a zero Config injects nothing.
func New(cfg Config) *Injector {
	in := &Injector{cfg: cfg}
	for code := range cfg.Status {
		in.codes = append(in.codes, code)
	}
	sort.Ints(in.codes)
	if len(cfg.Partitions) > 0 {
		in.parts = map[string]bool{}
		for _, p := range cfg.Partitions {
			in.parts[p] = true
		}
	}
	return in
}

// Active reports whether the injector can inject anything.
func (in *Injector) Active() bool {
	return in != nil && (len(in.codes) > 0 || in.cfg.LatencyShare > 0 || in.cfg.Drop > 0 || in.cfg.Discard > 0)
}

// uniform returns the k-th uniform draw of decision n.
func (in *Injector) uniform(n uint64, k uint64) float64 {
	x := in.cfg.Seed*0x9e3779b97f4a7c15 + n*0xbf58476d1ce4e5b9 + k*0x94d049bb133111eb
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// Decide returns the fault for one request to partition ("" for requests
// that span partitions or address no partition).
func (in *Injector) Decide(partition string, write bool) Fault {
	if !in.Active() || (in.parts != nil && !in.parts[partition]) {
		return Fault{}
	}
	n := in.n.Add(1)
	in.counts[4].Add(1)
	var f Fault
	if u := in.uniform(n, 1); u < in.cfg.LatencyShare {
		f.Delay = in.cfg.Latency
		if in.cfg.LatencyMax > in.cfg.Latency {
			f.Delay += time.Duration(in.uniform(n, 2) * float64(in.cfg.LatencyMax-in.cfg.Latency))
		}
		in.counts[1].Add(1)
	}
	u := in.uniform(n, 3)
	if u < in.cfg.Drop {
		f.Drop = true
		in.counts[2].Add(1)
		return f
	}
	u -= in.cfg.Drop
	for _, code := range in.codes {
		s := in.cfg.Status[code]
		if u < s {
			a := answers[code]
			f.Status, f.Code, f.Message = code, a.code, a.msg
			in.counts[0].Add(1)
			return f
		}
		u -= s
	}
	if write && in.uniform(n, 4) < in.cfg.Discard {
		f.Discard = true
		in.counts[3].Add(1)
	}
	return f
}

// Counts is how many faults were injected.
type Counts struct {
	Decisions int64 `json:"decisions"`
	Status    int64 `json:"status"`
	Delayed   int64 `json:"delayed"`
	Dropped   int64 `json:"dropped"`
	Discarded int64 `json:"discarded"`
}

// Counts returns the injector's tallies.
func (in *Injector) Counts() Counts {
	if in == nil {
		return Counts{}
	}
	return Counts{Decisions: in.counts[4].Load(), Status: in.counts[0].Load(), Delayed: in.counts[1].Load(), Dropped: in.counts[2].Load(), Discarded: in.counts[3].Load()}
}
