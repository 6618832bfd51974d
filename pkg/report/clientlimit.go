package report

import (
	"fmt"
	"math"
)

// ClientLimit says that an open-loop run dropped work because the client
// could not offer the load, what it could offer, and what would help.
type ClientLimit struct {
	// Cause is "cpu" (tablestress's process kept its cores busy), "machine"
	// (other processes kept the machine's CPUs busy) or "workers" (every
	// worker the run may start was busy).
	Cause string `json:"cause"`
	// OfferedOpsPerSec is the rate the schedule offered (operations done
	// and dropped over the measured window).
	OfferedOpsPerSec float64 `json:"offered_ops_per_sec"`
	// SustainedOpsPerSec is the highest rate the client kept up: the most
	// operations completed a second over any sustainWindow consecutive
	// seconds (the whole window when shorter).
	SustainedOpsPerSec float64 `json:"sustained_ops_per_sec"`
	// AchievedOpsPerSec is the rate completed over the whole measured
	// window: below the sustained rate when the client fell behind in
	// bursts (a pause of the process) rather than throughout.
	AchievedOpsPerSec float64 `json:"achieved_ops_per_sec"`
	// Help says what would let the client offer the load.
	Help string `json:"help"`
}

// Thresholds of the judgement: a process using this share of its cores,
// or a machine this busy, is out of CPU.
const (
	cpuBound     = 0.9
	machineBound = 0.95
	// idleBound: a process using less of its cores was not short of CPU
	// for its own work; with every worker busy, the workers were the limit
	// whatever else kept the machine busy.
	idleBound = 0.25
	// sustainWindow is the seconds over which a rate counts as sustained.
	sustainWindow = 5
)

// JudgeClient returns the client limit of an open-loop run that dropped
// over DroppedShare of its operations while the target kept up (it
// refused or failed at most 1% of the requests), from the report's
// client section: nil when the run did not drop, the target did not
// keep up, or the client had CPU and a free worker to spare (then the
// target stalled: DroppedAdvice says so).
func JudgeClient(r *Report) *ClientLimit {
	t, c := r.Totals, r.Client
	offered := t.Ops + t.Dropped
	if r.Run.Mode != "open" || c == nil || offered == 0 || float64(t.Dropped) <= DroppedShare*float64(offered) || r.DurationS <= 0 {
		return nil
	}
	if t.Requests > 0 && float64(badRequests(t)) > 0.01*float64(t.Requests) {
		return nil
	}
	l := &ClientLimit{OfferedOpsPerSec: float64(offered) / r.DurationS, SustainedOpsPerSec: sustained(r),
		AchievedOpsPerSec: float64(t.Ops) / r.DurationS}
	// One machine could not: at least two, and as many as the rate it kept
	// up goes into the rate offered.
	shards := max(2, int(math.Ceil(l.OfferedOpsPerSec/math.Max(min(l.SustainedOpsPerSec, l.AchievedOpsPerSec), 1))))
	split := fmt.Sprintf("split the load over %d machines (tablestress run --shard I/%d --table NAME on each, then tablestress merge), or use a machine with more cores", shards, shards)
	who := "tablestress"
	if c.WithService {
		who = "tablestress and the embedded service in its process"
	}
	// On a virtual clock nothing is short of CPU: work is dropped only when
	// every worker is busy.
	virtual := r.Run.Clock == "virtual"
	switch {
	case !virtual && c.Busy >= cpuBound:
		l.Cause = "cpu"
		l.Help = fmt.Sprintf("%s kept %s of its %d cores busy: %s", who, pctOf(c.Busy), c.Cores, split)
	case !virtual && c.MachineBusy != nil && *c.MachineBusy >= machineBound && !(c.Workers >= r.Run.Workers && c.Busy < idleBound):
		l.Cause = "machine"
		l.Help = fmt.Sprintf("other processes kept the machine's CPUs busy (%s busy, tablestress %s of its %d cores): run where nothing else competes for the CPU, or %s",
			pctOf(*c.MachineBusy), pctOf(c.Busy), c.Cores, split)
	case virtual || c.Workers >= r.Run.Workers:
		need := int(math.Ceil(2 * l.OfferedOpsPerSec * t.Latency.P90 / 1000))
		l.Cause = "workers"
		l.Help = fmt.Sprintf("all %s workers were busy (at %s ops/s and a p90 latency of %s ms about %s are busy at once): raise --workers (to about %s)",
			num(int64(r.Run.Workers)), rate(l.OfferedOpsPerSec), ms(t.Latency.P90), num(int64(math.Ceil(l.OfferedOpsPerSec*t.Latency.P90/1000))),
			num(int64(max(need, 2*r.Run.Workers))))
	default:
		return nil
	}
	return l
}

// Sentence says the limit in words: "the client could not offer 40,000
// ops/s: it sustained at most 31,250 (78.1% of it, 8,750 short); ...", or,
// when it kept the rate over its best seconds and fell behind in bursts,
// "the client could not offer 40,000 ops/s throughout: ... it kept the rate
// over its best 5 s but achieved 38,500 ops/s over the run (96.3% of it,
// 1,500 short) ...".
func (l *ClientLimit) Sentence() string {
	what := map[string]string{"cpu": "it ran out of CPU", "machine": "the machine's CPU was taken", "workers": "it ran out of workers"}[l.Cause]
	if l.SustainedOpsPerSec >= l.OfferedOpsPerSec && l.AchievedOpsPerSec > 0 {
		return fmt.Sprintf("client limit: the client could not offer %s ops/s throughout, %s in bursts: it kept the rate over its best %d s, but achieved %s ops/s over the run (%s of it, %s short); %s",
			rate(l.OfferedOpsPerSec), what, sustainWindow, rate(l.AchievedOpsPerSec), pctOf(l.AchievedOpsPerSec/l.OfferedOpsPerSec),
			rate(l.OfferedOpsPerSec-l.AchievedOpsPerSec), l.Help)
	}
	short := l.OfferedOpsPerSec - l.SustainedOpsPerSec
	return fmt.Sprintf("client limit: the client could not offer %s ops/s, %s: it sustained at most %s ops/s (%s of it, %s short); %s",
		rate(l.OfferedOpsPerSec), what, rate(l.SustainedOpsPerSec), pctOf(l.SustainedOpsPerSec/l.OfferedOpsPerSec), rate(short), l.Help)
}

// sustained is the most operations completed a second over any
// sustainWindow consecutive seconds of the report's intervals (their mean
// over the whole window when there are fewer).
func sustained(r *Report) float64 {
	iv := r.Intervals
	if len(iv) < sustainWindow {
		return r.Totals.OpsPerSec
	}
	sum, best := int64(0), int64(0)
	for i, s := range iv {
		sum += s.Ops
		if i >= sustainWindow {
			sum -= iv[i-sustainWindow].Ops
		}
		if i >= sustainWindow-1 {
			best = max(best, sum)
		}
	}
	return float64(best) / sustainWindow
}

// badRequests are the requests throttled or failed by the target (not
// refused as the client asked, like a 404 of a read).
func badRequests(t Stats) int64 {
	bad := t.Throttled
	for k, n := range t.Status {
		if !isThrottleKey(k) && (k == "" || k[0] < '0' || k[0] > '9' || k[0] == '5') {
			bad += n
		}
	}
	return bad
}

// pctOf writes a share as a percentage with three significant digits.
func pctOf(f float64) string { return trimFloat(math.Round(f*1000)/10) + "%" }
