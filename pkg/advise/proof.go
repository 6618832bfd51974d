package advise

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/choose"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// The proof's rules: if the recommendation is throttled on over 1% of
// its requests, a question of it fails (after retries) over 1% of the
// times it is asked, or its measured busiest partition is more than 15%
// off its prediction, the command says so and exits non-zero.
const (
	MaxThrottled = choose.MaxThrottled
	MaxFailed    = choose.MaxFailed
	MaxOff       = choose.NearTie
	// MinOffRows and MinOffRequests are the proof's absolute floor beside
	// the 15%: a question's rows visited (requests) within less than a
	// row (a request) of the prediction agree, however small the figure
	// (1.5 rows against 2 is 25% off and less than a row).
	MinOffRows     = 1
	MinOffRequests = 1
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

// DefaultProofDepth is how many entities the proof seeds by default
// (REST "Design a scalable partitioning strategy for Azure Table
// storage", "Table partition stress testing": "Load the test table with
// data", then run the queries and storage operations at the peak): deep
// enough that the questions' costs are measured where they differ.
const DefaultProofDepth = 1_000_000

// CoolShare is the share of its target under which a busiest partition's
// prediction is checked only for staying under the headroom.
const CoolShare = 0.1

// Proof is the plan of the proof run (the recommendation, the runner-up
// and the scenario's own schemes on the same entity stream at the peak,
// on a table seeded Entities deep) and, once run and judged, what it
// measured and its verdict.
type Proof struct {
	Rate      float64 `json:"rate_ops_per_sec"`
	Entities  int64   `json:"entities"`
	EventTime string  `json:"event_time"`
	WarmupS   float64 `json:"warmup_s"`
	DurationS float64 `json:"duration_s"`
	// DurationWhy says why the run lasts as long as it does.
	DurationWhy string `json:"duration_why"`
	// Tolerance is how far the measured busiest partition may be from
	// its prediction: MaxOff, or when 3 standard deviations of sampling
	// are wider even at the longest duration, those (DurationWhy says).
	Tolerance float64 `json:"tolerance"`
	// CoolBelow is the busiest partition's predicted entities/s under
	// which it is not checked against the prediction but against
	// HotAbove (the headroom share of its target): a partition that cool
	// decides nothing, and the busiest of many cool partitions is the
	// luckiest, which a mean and its spread do not describe.
	CoolBelow float64    `json:"cool_below"`
	HotAbove  float64    `json:"hot_above"`
	Schemes   []ProofRun `json:"schemes"`
	Run       bool       `json:"run"`
	OK        bool       `json:"ok"`
	Failures  []string   `json:"failures"`
	// Notes say what the proof could not check, and why.
	Notes   []string `json:"notes,omitempty"`
	Skipped string   `json:"skipped,omitempty"`
	Target  string   `json:"target,omitempty"`
	// Clock is the time the proof's runs lived on ("virtual" or "wall",
	// as their reports say); VirtualPerWall, on a virtual clock, the
	// virtual seconds they advanced per second of wall time (slowest run).
	Clock          string  `json:"clock,omitempty"`
	VirtualPerWall float64 `json:"virtual_per_wall,omitempty"`
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
	depth     *judge.Figures
	// excess is the share of the run's requests that the partitions
	// refused, by the prediction, after questions asked more often in
	// the run than their rate says (a rare question asked once in a short
	// run): throttling the run owes to its draw, not to the keys.
	excess float64
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

// ProofQuestion is one question of a proof run: its requests and rows
// visited per question, predicted at the proof's depth and measured (the
// service's own count of rows visited), the tolerance their means are
// checked with, and its measured p99.
type ProofQuestion struct {
	Name                 string  `json:"name"`
	Plan                 string  `json:"plan"`
	PredictedRequests    float64 `json:"predicted_requests_per_question"`
	Requests             float64 `json:"requests_per_question"`
	PredictedRowsVisited float64 `json:"predicted_rows_visited_per_question"`
	RowsVisited          float64 `json:"rows_visited_per_question"`
	// Tolerance is how far each measured mean may be from its
	// prediction: MaxOff, or 3 standard deviations of the mean of the
	// questions the run is predicted to ask, when wider; Checked is
	// false when the run is predicted to ask it less than once.
	Tolerance float64 `json:"tolerance"`
	Checked   bool    `json:"checked"`
	// P99Ms is the p99 of the questions answered; 0 when none was.
	P99Ms float64 `json:"p99_ms"`
	// Asked counts the questions asked, Failed those of them that failed
	// (after retries): their time is not in P99Ms. Failed is absent from
	// JSON when none failed.
	Asked  int64 `json:"questions"`
	Failed int64 `json:"failed,omitempty"`
	// Unfinished counts the questions the run's end cut short (still in
	// flight when its window ended): not in Asked, Failed or any measured
	// figure. NotChecked says why the question's figures were not
	// checked when none of its questions finished within the run.
	Unfinished         int64   `json:"unfinished,omitempty"`
	NotChecked         string  `json:"not_checked,omitempty"`
	PredictedPerSecond float64 `json:"predicted_questions_per_sec"`
	// PredictedRefused are the other requests the partitions are
	// predicted to refuse per question asked, while they pay off its
	// passes.
	PredictedRefused   float64 `json:"predicted_refused_per_question,omitempty"`
	requestsSD, rowsSD float64
	visitedFrom        string
	unfinishedRequests int64
	// predictedMs is the question's modelled time at the proof's depth,
	// predictedRounds its rounds of requests one after another.
	predictedMs, predictedRounds float64
}

// ProofOptions change the proof's plan.
type ProofOptions struct {
	// Duration is the measured duration (0: the shortest that measures
	// the busiest partition and the questions to within MaxOff at sigmas
	// standard deviations).
	Duration time.Duration
	// RecommendedOnly proves the recommendation alone, without running
	// the runner-up and the scenario's own schemes beside it.
	RecommendedOnly bool
	// Warmup is the warm-up before each measured run (0: ProofWarmup).
	Warmup time.Duration
	// Depth is the entities the proof seeds (0: DefaultProofDepth, or
	// the table at the horizon when it holds fewer; never fewer than the
	// scenario seeds).
	Depth int64
}

// Plan is the proof of the advice: the recommendation, the runner-up and
// the scenario's own schemes at the peak on a table seeded Depth deep,
// for the shortest duration that measures the recommendation's busiest
// partition and its questions to within MaxOff at sigmas standard
// deviations, each figure predicted at that depth. nil when there is
// nothing to prove.
func (a *Advice) Plan(ctx context.Context, o ProofOptions) (*Proof, error) {
	if a.Recommended == nil {
		return nil, nil
	}
	in := a.Input
	if a.Split != nil {
		in = a.Split.Input
	}
	depth := o.Depth
	if depth <= 0 {
		// No deeper than the table will ever be: a table that does not
		// grow (or that the retention keeps small) is proved at its own
		// size, not as another application's.
		depth = int64(math.Min(DefaultProofDepth, math.Ceil(in.HorizonSize().Entities)))
	}
	depth = max(depth, in.Seeded)
	p := &Proof{Rate: in.Peak, Entities: depth, WarmupS: ProofWarmup.Seconds(), Failures: []string{},
		CoolBelow: CoolShare * in.PartitionTarget(), HotAbove: in.Opts.Headroom * in.PartitionTarget()}
	if o.Warmup > 0 {
		p.WarmupS = o.Warmup.Seconds()
	}
	p.Schemes = a.proofRuns(o)
	rc := &p.Schemes[0]
	warmup := time.Duration(p.WarmupS * float64(time.Second))
	// The duration is chosen on the figures of a run of middling length;
	// each scheme is then judged at the depth of the run chosen.
	var err error
	if rc.depth, err = in.JudgeAt(ctx, rc.cand.Scheme, in.DepthSize(depth, warmup, 10*time.Second)); err != nil {
		return nil, err
	}
	d := o.Duration
	if d <= 0 {
		d = in.duration(rc, depth, warmup)
	}
	for k := range p.Schemes {
		r := &p.Schemes[k]
		if r.depth, err = in.JudgeAt(ctx, r.cand.Scheme, in.DepthSize(depth, warmup, d)); err != nil {
			return nil, err
		}
		in.predictRun(r, depth, warmup, d)
		r.predictTimes()
	}
	shares := in.windowShares(rc.cand, depth, warmup, d)
	m, sd := rc.depth.BusiestOver(d, shares)
	p.DurationS = d.Seconds()
	p.EventTime = rc.depth.EventTime
	p.Tolerance = math.Max(MaxOff, sigmas*sd/math.Max(m, 1e-9))
	p.DurationWhy = durationWhy(d, m, sd, p.Tolerance, o.Duration > 0, shares.Of(rc.depth.BusiestTable())) + questionsWhy(rc.Questions, d)
	p.DurationWhy += slowWhy(p.Schemes, d)
	return p, nil
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
// peak second, the share of its requests the partitions and partition
// servers refuse at the depth, and each question's requests and rows visited at the
// depth, with the tolerance the mean of the questions the run asks is
// checked with.
func (in *Input) predictRun(r *ProofRun, depth int64, warmup, d time.Duration) {
	f := r.depth
	mean, sd := f.BusiestOver(d, in.windowShares(r.cand, depth, warmup, d))
	peak, _ := f.BusiestOver(time.Second, nil)
	r.Predicted = ProofFigures{BusiestPartition: f.BusiestPartition, BusiestEntitiesPerSec: mean, BusiestSD: sd, PeakEntitiesPerSec: f.PeakOver(d, peak), ThrottledShare: f.ThrottledShare}
	r.Questions = nil
	for _, q := range f.Questions {
		pq := ProofQuestion{Name: q.Name, Plan: q.Label, PredictedRequests: q.RequestsPerQuestion, PredictedRowsVisited: q.RowsVisitedPerQuestion,
			PredictedPerSecond: q.PerSec, PredictedRefused: q.RefusedPerQuestion, requestsSD: q.RequestsSD, rowsSD: q.RowsVisitedSD}
		pq.Tolerance = questionTolerance(pq, d)
		if pq.Checked = !math.IsInf(pq.Tolerance, 1); !pq.Checked {
			pq.Tolerance = 0
		}
		r.Questions = append(r.Questions, pq)
	}
}

// questionTolerance is how far a question's measured means may be from
// the prediction over a run of d: MaxOff, or sigmas standard deviations
// of the mean of the questions the run asks (their spread from question
// to question over the square root of their number), whichever is wider.
func questionTolerance(q ProofQuestion, d time.Duration) float64 {
	n := q.PredictedPerSecond * d.Seconds()
	if n < 1 {
		return math.Inf(1)
	}
	rel := math.Max(q.requestsSD/math.Max(q.PredictedRequests, 1e-9), q.rowsSD/math.Max(q.PredictedRowsVisited, 1e-9))
	return math.Max(MaxOff, sigmas*rel/math.Sqrt(n))
}

// questionsWhy adds, when a question's check is wider than MaxOff, why.
func questionsWhy(qs []ProofQuestion, d time.Duration) string {
	var out string
	for _, q := range qs {
		switch {
		case !q.Checked:
			out += fmt.Sprintf("; %s is asked %s times a second, fewer than once in %s: not checked", q.Name, textfit.Float(textfit.Round2(q.PredictedPerSecond)), d)
		case q.Tolerance > MaxOff:
			out += fmt.Sprintf("; %s is asked about %s times in %s and its cost varies from question to question: its means are checked within %s (%d sd)",
				q.Name, textfit.Int(int64(math.Round(q.PredictedPerSecond*d.Seconds()))), d, pctText(q.Tolerance), sigmas)
		}
	}
	return out
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
// partition's measured mean and each question's are within MaxOff of
// their predictions at sigmas standard deviations (the longest when none
// is). What the verdict does not check at any duration sets none: a
// busiest partition predicted under CoolBelow (checked against HotAbove
// alone), a question asked less than once even in the longest run.
func (in *Input) duration(r *ProofRun, depth int64, warmup time.Duration) time.Duration {
	var d time.Duration
	longest := proofDurations[len(proofDurations)-1] * time.Second
	for _, s := range proofDurations {
		d = s * time.Second
		m, sd := r.depth.BusiestOver(d, in.windowShares(r.cand, depth, warmup, d))
		ok := sigmas*sd <= MaxOff*m || m < CoolShare*in.PartitionTarget()
		for _, q := range r.depth.Questions {
			pq := ProofQuestion{PredictedRequests: q.RequestsPerQuestion, PredictedRowsVisited: q.RowsVisitedPerQuestion, PredictedPerSecond: q.PerSec,
				requestsSD: q.RequestsSD, rowsSD: q.RowsVisitedSD}
			if math.IsInf(questionTolerance(pq, longest), 1) {
				continue // never checked
			}
			ok = ok && questionTolerance(pq, d) <= MaxOff
		}
		if ok {
			break
		}
	}
	return d
}
