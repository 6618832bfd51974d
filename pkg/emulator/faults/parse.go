package faults

import (
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/percent"
)

const shareForm = "share must be a percentage like 2% or a fraction like 0.02"

// Parse reads a fault spec (see Forms), e.g.
// "503=2%,500=1%,latency=5ms,latency=1ms..20ms@10%,drop=0.1%,partitions=a|b,seed=7".
// "" and "none" inject nothing. Every key but latency may appear once.
// Errors are *SpecError values naming the offending item.
func Parse(spec string) (Config, error) {
	var c Config
	if s := strings.TrimSpace(spec); s == "" || s == "none" {
		return c, nil
	}
	seen := map[string]bool{}
	for _, raw := range strings.Split(spec, ",") {
		item := strings.TrimSpace(raw)
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case item == "":
			return Config{}, &SpecError{spec, "empty item between commas"}
		case !ok:
			return Config{}, &SpecError{item, "not key=value; " + Forms}
		case seen[k] && k != "latency":
			return Config{}, &SpecError{item, k + " is given twice"}
		}
		seen[k] = true
		if reason := c.set(k, v); reason != "" {
			return Config{}, &SpecError{item, reason}
		}
	}
	total := c.Drop
	for _, s := range c.Status {
		total += s
	}
	if total > 1+1e-12 {
		return Config{}, &SpecError{spec, "status answers and drops add up to " + strconv.FormatFloat(total*100, 'g', 4, 64) + "%, more than 100%"}
	}
	return c, nil
}

// set applies one item and returns "" or what was wrong.
func (c *Config) set(k, v string) string {
	switch k {
	case "429", "500", "503", "504":
		s, err := percent.ParseShare(v)
		if err != nil {
			return shareForm
		}
		code, _ := strconv.Atoi(k)
		if c.Status == nil {
			c.Status = map[int]float64{}
		}
		c.Status[code] = s
	case "drop", "discard":
		s, err := percent.ParseShare(v)
		if err != nil {
			return shareForm
		}
		if k == "drop" {
			c.Drop = s
		} else {
			c.Discard = s
		}
	case "latency":
		l, reason := parseLatency(v)
		if reason != "" {
			return reason
		}
		c.Latency = append(c.Latency, l)
	case "partitions":
		names := strings.Split(v, "|")
		for _, n := range names {
			if n == "" {
				return "name one or more PartitionKeys separated by |, like partitions=a|b"
			}
		}
		c.Partitions = names
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return "seed must be a whole number from 0 to 18446744073709551615, like seed=7"
		}
		c.Seed = n
	default:
		return "unknown key " + strconv.Quote(k) + "; keys are 429, 500, 503, 504, latency, drop, discard, partitions, seed"
	}
	return ""
}

// parseLatency reads "5ms", "1ms..20ms", optionally followed by "@10%".
func parseLatency(v string) (Latency, string) {
	const form = "latency must be a duration like 5ms or a range like 1ms..20ms, each at most 10m, optionally with a share like @10%"
	d, at, hasShare := strings.Cut(v, "@")
	l := Latency{Share: 1}
	if hasShare {
		s, err := percent.ParseShare(at)
		if err != nil {
			return Latency{}, "the latency " + shareForm + ", after @"
		}
		l.Share = s
	}
	lo, hi, isRange := strings.Cut(d, "..")
	var ok bool
	if l.Min, ok = parseDelay(lo); !ok {
		return Latency{}, form
	}
	l.Max = l.Min
	if isRange {
		if l.Max, ok = parseDelay(hi); !ok {
			return Latency{}, form
		}
		if l.Max < l.Min {
			return Latency{}, "the latency range must be like 1ms..20ms, the upper bound not below the lower"
		}
	}
	return l, ""
}

func parseDelay(v string) (time.Duration, bool) {
	d, err := time.ParseDuration(v)
	return d, err == nil && d >= 0 && d <= maxLatency
}

// String returns the spec of c in canonical order (statuses by code,
// latency rules as given, drop, discard, partitions, seed), or "none". For
// any Config Parse returned, Parse(c.String()) returns an equal Config.
func (c Config) String() string {
	var items []string
	for _, a := range answers {
		if s, ok := c.Status[a.status]; ok {
			items = append(items, strconv.Itoa(a.status)+"="+percent.FormatShare(s))
		}
	}
	for _, l := range c.Latency {
		s := "latency=" + l.Min.String()
		if l.Max > l.Min {
			s += ".." + l.Max.String()
		}
		if l.Share != 1 {
			s += "@" + percent.FormatShare(l.Share)
		}
		items = append(items, s)
	}
	if c.Drop != 0 {
		items = append(items, "drop="+percent.FormatShare(c.Drop))
	}
	if c.Discard != 0 {
		items = append(items, "discard="+percent.FormatShare(c.Discard))
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
