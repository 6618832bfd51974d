package faults

import (
	"slices"
	"sync/atomic"
	"time"
)

// Streams of uniform draws per decision: each kind of fault uses its own,
// so that changing one share leaves the other faults' decisions unchanged.
const (
	streamOutcome = 0 // drop or a status answer: one draw, exclusive bins
	streamDiscard = 1
	streamLatency = 2 // rule i: 2+2i whether it applies, 3+2i the delay
)

// bin is one exclusive outcome of the outcome draw: u < upTo (and not
// below the previous bin's upTo).
type bin struct {
	upTo   float64
	status int // 0: drop
	fault  Fault
}

// Injector decides faults. Every method is safe for concurrent use; a nil
// *Injector injects nothing.
type Injector struct {
	cfg    Config
	bins   []bin
	parts  map[string]bool
	active bool
	delays bool          // a latency rule applies to some requests
	n      atomic.Uint64 // decisions so far
	counts counters
}

// New returns an injector for cfg. A zero Config injects nothing.
func New(cfg Config) *Injector {
	in := &Injector{cfg: cfg}
	upTo := 0.0
	if cfg.Drop > 0 {
		upTo += cfg.Drop
		in.bins = append(in.bins, bin{upTo: upTo, fault: Fault{Drop: true}})
	}
	for _, a := range answers {
		if s := cfg.Status[a.status]; s > 0 {
			upTo += s
			in.bins = append(in.bins, bin{upTo: upTo, status: a.status, fault: Fault{Status: a.status, Code: a.code, Message: a.message}})
		}
	}
	if len(cfg.Partitions) > 0 {
		in.parts = map[string]bool{}
		for _, p := range cfg.Partitions {
			in.parts[p] = true
		}
	}
	in.delays = slices.ContainsFunc(cfg.Latency, func(l Latency) bool { return l.Share > 0 })
	in.active = len(in.bins) > 0 || cfg.Discard > 0 || in.delays
	return in
}

// Active reports whether the injector can inject anything at all.
func (in *Injector) Active() bool { return in != nil && in.active }

// Delays reports whether the injector can add latency to a request.
func (in *Injector) Delays() bool { return in != nil && in.delays }

// Config returns the injector's configuration.
func (in *Injector) Config() Config {
	if in == nil {
		return Config{}
	}
	return in.cfg
}

// uniform returns draw number stream of decision n: a float in [0, 1) that
// depends only on (seed, n, stream), from SplitMix64's finalizer over a
// combination of the three.
func (in *Injector) uniform(n, stream uint64) float64 {
	x := in.cfg.Seed + n*0x9e3779b97f4a7c15 + (stream+1)*0xd1b54a32d192ed03
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// Decide returns the fault for one request to partition ("" or "*" for a
// request spanning partitions, which the partition filter never selects).
// Requests the filter excludes get the zero Fault and are not counted;
// the others are numbered n = 1, 2, ... and the n-th Fault depends only on
// (seed, n, write):
//   - each latency rule adds Min + u·(Max-Min) with probability Share;
//   - one draw picks drop (probability Drop) or a status answer (each with
//     its share) or neither;
//   - a write with neither is discarded with probability Discard.
func (in *Injector) Decide(partition string, write bool) Fault {
	if !in.Active() || in.parts != nil && !in.parts[partition] {
		return Fault{}
	}
	n := in.n.Add(1)
	in.counts.decisions.Add(1)
	var f Fault
	for i, l := range in.cfg.Latency {
		s := streamLatency + 2*uint64(i)
		if in.uniform(n, s) < l.Share {
			f.Delay += l.Min
			if l.Max > l.Min {
				f.Delay += time.Duration(in.uniform(n, s+1) * float64(l.Max-l.Min))
			}
		}
	}
	if f.Delay > 0 {
		in.counts.delayed.Add(1)
	}
	if len(in.bins) > 0 {
		u := in.uniform(n, streamOutcome)
		for i := range in.bins {
			if b := &in.bins[i]; u < b.upTo {
				in.counts.hit(b.status)
				f.Status, f.Code, f.Message, f.Drop = b.fault.Status, b.fault.Code, b.fault.Message, b.fault.Drop
				return f
			}
		}
	}
	if write && in.cfg.Discard > 0 && in.uniform(n, streamDiscard) < in.cfg.Discard {
		in.counts.discarded.Add(1)
		f.Discard = true
	}
	return f
}

// Counts returns how many faults the injector has decided so far. A nil
// *Injector has none.
func (in *Injector) Counts() Counts {
	if in == nil {
		return Counts{Statuses: map[string]int64{}}
	}
	return in.counts.snapshot()
}
