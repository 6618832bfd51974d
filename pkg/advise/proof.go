package advise

import (
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// The proof's rules (issue: "If the recommendation is throttled over 1%
// of requests, or its measured busiest partition is more than 15% off
// its prediction, the command says so and exits non-zero").
const (
	MaxThrottled = 0.01
	MaxOff       = 0.15
	// sigmas is how many standard deviations of sampling the 15% must
	// cover for the check to be sound: a correct prediction then fails
	// it about three times in a thousand.
	sigmas = 3
)

// proofDurations are the measured durations the proof chooses from: the
// shortest whose busiest-partition figure is stable enough, and at least
// two seconds, so that one second's hiccup of the client (a collection, a
// busy core) cannot make the whole measure.
var proofDurations = []time.Duration{2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30}

// ProofWarmup is the proof's default warm-up: on a loaded two-core machine
// hundreds of workers need about two seconds before the client offers
// thousands of operations a second on time (a one-second warm-up dropped a
// fifth of them); the service model's buckets, which start full, settle
// within it. Nothing in it is measured.
const ProofWarmup = 2 * time.Second

// Proof is the plan of the proof run (the recommendation, the runner-up
// and the scenario's own schemes on the same entity stream at the peak)
// and, once run and judged, what it measured and its verdict.
type Proof struct {
	Rate      float64 `json:"rate_ops_per_sec"`
	WarmupS   float64 `json:"warmup_s"`
	DurationS float64 `json:"duration_s"`
	// DurationWhy says why the run lasts as long as it does.
	DurationWhy string `json:"duration_why"`
	// Tolerance is how far the measured busiest partition may be from
	// its prediction: MaxOff, or when 3 standard deviations of sampling
	// are wider even at the longest duration, those (DurationWhy says).
	Tolerance float64    `json:"tolerance"`
	Schemes   []ProofRun `json:"schemes"`
	Run       bool       `json:"run"`
	OK        bool       `json:"ok"`
	Failures  []string   `json:"failures"`
	Skipped   string     `json:"skipped,omitempty"`
	Target    string     `json:"target,omitempty"`
}

// ProofRun is one scheme of the proof: what the judge predicts for the
// run and what it measured.
type ProofRun struct {
	Scheme    string          `json:"scheme"`
	Role      string          `json:"role"` // recommended, runner-up or own
	Predicted ProofFigures    `json:"predicted"`
	Measured  *ProofFigures   `json:"measured"`
	Questions []ProofQuestion `json:"questions"`
	cand      *Candidate
}

// ProofFigures are the busiest partition's figures of a run: the same
// quantities predicted and measured. BusiestEntitiesPerSec is its mean
// over the measured window, as a client counts entities (written, read,
// returned by queries); PeakEntitiesPerSec the most any partition served
// in one second.
type ProofFigures struct {
	BusiestPartition      string  `json:"busiest_partition"`
	BusiestEntitiesPerSec float64 `json:"busiest_entities_per_sec"`
	// BusiestSD is the prediction's sampling standard deviation.
	BusiestSD          float64 `json:"busiest_sd,omitempty"`
	PeakEntitiesPerSec float64 `json:"busiest_peak_entities_per_sec"`
	ThrottledShare     float64 `json:"throttled_share"`
	DroppedShare       float64 `json:"dropped_share,omitempty"`
	// ClientLimit says why the client dropped work, when it could not
	// offer the load (report.ClientLimit's sentence).
	ClientLimit string `json:"client_limit,omitempty"`
}

// ProofQuestion is one question of a proof run: its requests per
// question, predicted and measured, and its measured p99.
type ProofQuestion struct {
	Name              string  `json:"name"`
	Plan              string  `json:"plan"`
	PredictedRequests float64 `json:"predicted_requests_per_question"`
	Requests          float64 `json:"requests_per_question"`
	// P99Ms is the p99 of the questions answered; 0 when none was.
	P99Ms float64 `json:"p99_ms"`
	// Asked counts the questions asked, Failed those of them that failed
	// (after retries): their time is not in P99Ms. Failed is absent from
	// JSON when none failed.
	Asked              int64   `json:"questions"`
	Failed             int64   `json:"failed,omitempty"`
	PredictedPerSecond float64 `json:"predicted_questions_per_sec"`
}

// ProofOptions change the proof's plan.
type ProofOptions struct {
	// Duration is the measured duration (0: the shortest that measures
	// the busiest partition to within MaxOff at sigmas standard
	// deviations).
	Duration time.Duration
	// RecommendedOnly proves the recommendation alone, without running
	// the runner-up and the scenario's own schemes beside it.
	RecommendedOnly bool
	// Warmup is the warm-up before each measured run (0: ProofWarmup).
	Warmup time.Duration
}

// Plan is the proof of the advice: the recommendation, the runner-up and
// the scenario's own schemes at the peak, for the shortest duration that
// measures the recommendation's busiest partition to within MaxOff at
// sigmas standard deviations. nil when there is nothing to prove.
func (a *Advice) Plan(o ProofOptions) *Proof {
	if a.Recommended == nil {
		return nil
	}
	in := a.Input
	if a.Split != nil {
		in = a.Split.Input
	}
	p := &Proof{Rate: in.Peak, WarmupS: ProofWarmup.Seconds(), Failures: []string{}}
	if o.Warmup > 0 {
		p.WarmupS = o.Warmup.Seconds()
	}
	p.Schemes = a.proofRuns(o)
	rc := a.Recommended.Candidate
	warmup := time.Duration(p.WarmupS * float64(time.Second))
	d, m, sd := in.duration(rc, warmup)
	if o.Duration > 0 {
		d = o.Duration
		m, sd = in.busiestOver(rc.Prediction, d, in.windowShare(rc, warmup, d))
	}
	p.DurationS = d.Seconds()
	p.Tolerance = math.Max(MaxOff, sigmas*sd/math.Max(m, 1e-9))
	p.DurationWhy = durationWhy(d, m, sd, p.Tolerance, o.Duration > 0, in.windowShare(rc, warmup, d))
	for k := range p.Schemes {
		in.predictRun(&p.Schemes[k], warmup, d)
	}
	return p
}

// proofRuns are the schemes the proof runs, each once: the recommendation,
// then, unless o.RecommendedOnly, the runner-up and the scenario's own
// schemes in rank order.
func (a *Advice) proofRuns(o ProofOptions) []ProofRun {
	var runs []ProofRun
	add := func(c *Candidate, role string) {
		for _, r := range runs {
			if r.cand == c {
				return
			}
		}
		runs = append(runs, ProofRun{Scheme: c.Spec.Name, Role: role, cand: c})
	}
	add(a.Recommended.Candidate, "recommended")
	if a.RunnerUp != nil && !o.RecommendedOnly {
		add(a.RunnerUp.Candidate, "runner-up")
	}
	for _, c := range a.ranked() {
		if c.Own && !o.RecommendedOnly {
			add(c, "own")
		}
	}
	return runs
}

// durationWhy says why the proof lasts d: the busiest partition's
// predicted mean m and sd over d, how wide sigmas sd are against the
// check, whether d was given (--proof-duration), the shortest that
// measures within the check, or the shortest the proof runs, and the
// share of the window the busiest partition is current for, when its
// time bucket turns within it.
func durationWhy(d time.Duration, m, sd, tolerance float64, given bool, share float64) string {
	why := fmt.Sprintf("over %s the busiest partition's mean is predicted %s ± %s entities/s (1 sd): %d sd are %s of it",
		d, textfit.Rate(m), textfit.Rate(sd), sigmas, pctText(sigmas*sd/math.Max(m, 1e-9)))
	switch {
	case tolerance > MaxOff:
		why += fmt.Sprintf(", more than %s: the check allows those %d sd", pctText(MaxOff), sigmas)
	case given:
		why += fmt.Sprintf(", within the %s check (--proof-duration)", pctText(MaxOff))
	case d > proofDurations[0]*time.Second:
		why += fmt.Sprintf(", within the %s check, which a shorter run would not be", pctText(MaxOff))
	default:
		why += fmt.Sprintf(", within the %s check (%s is the shortest the proof runs)", pctText(MaxOff), d)
	}
	if share < 1 {
		why += fmt.Sprintf("; the window's event time crosses a time bucket boundary, so the busiest partition takes its writes for %s of it", pctText(share))
	}
	return why
}

// predictRun fills what the judge predicts for one scheme's run of d
// after warmup: its busiest partition's mean and sd over the window, its
// peak second, and each question's requests.
func (in *Input) predictRun(r *ProofRun, warmup, d time.Duration) {
	pr := r.cand.Prediction
	mean, sd := in.busiestOver(pr, d, in.windowShare(r.cand, warmup, d))
	peak, _ := in.busiestOver(pr, time.Second, 1)
	r.Predicted = ProofFigures{BusiestPartition: pr.BusiestPartition, BusiestEntitiesPerSec: mean, BusiestSD: sd, PeakEntitiesPerSec: in.peakOver(pr, d, peak)}
	for _, q := range pr.Questions {
		r.Questions = append(r.Questions, ProofQuestion{Name: q.Name, Plan: q.Label, PredictedRequests: q.RequestsPerQuestion})
	}
}

// ranked are the candidates judged, best first (a split's when there is
// one).
func (a *Advice) ranked() []*Candidate {
	if a.Split != nil {
		return a.Split.Ranked
	}
	return a.Ranked
}

// duration is the shortest proof duration over which the busiest
// partition's measured mean is within MaxOff of its prediction at sigmas
// standard deviations (the longest when none is), with that mean and
// standard deviation.
func (in *Input) duration(c *Candidate, warmup time.Duration) (time.Duration, float64, float64) {
	var d time.Duration
	var m, sd float64
	for _, s := range proofDurations {
		d = s * time.Second
		if m, sd = in.busiestOver(c.Prediction, d, in.windowShare(c, warmup, d)); sigmas*sd <= MaxOff*m {
			break
		}
	}
	return d, m, sd
}

// busiestOver is the law of the busiest partition's mean entities/s over
// a window of d, as a client counts them: the largest of every
// partition's compound Poisson count (mean Σ rate·e·t, variance
// Σ rate·e²·t, t the share of the window it is current), divided by d.
// Requests spanning partitions are no one partition's; a new partition
// per entity takes its rows once.
func (in *Input) busiestOver(p *Prediction, d time.Duration, share float64) (mean, sd float64) {
	secs := d.Seconds()
	t := secs * share
	var cs []count
	for k, l := range p.loads.parts {
		if k == crossPartition || l.counted <= 0 {
			continue
		}
		cs = append(cs, count{mean: l.counted * t, scale: l.sq / l.counted, n: 1})
	}
	m, s := maxOf(cs)
	if rows := p.loads.newRows; rows > m {
		m, s = rows, 0
	}
	return m / secs, s / secs
}

// peakOver is the expected most entities one partition serves in one
// second of a window of d: the largest of d's seconds of every partition.
func (in *Input) peakOver(p *Prediction, d time.Duration, oneSecond float64) float64 {
	var cs []count
	for k, l := range p.loads.parts {
		if k != crossPartition && l.counted > 0 {
			cs = append(cs, count{mean: l.counted, scale: l.sq / l.counted, n: int(d.Seconds())})
		}
	}
	m, _ := maxOf(cs)
	return math.Max(m, oneSecond)
}
