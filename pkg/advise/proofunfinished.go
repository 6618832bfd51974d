package advise

import (
	"fmt"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// A question still in flight when a proof run's window ends is cut short
// by the end: the run counts it as unfinished, apart from those it asked
// (answered or failed), and its requests and rows visited are in none of
// the means the proof reads. A question none of whose asks finished is
// not checked, with the reason in words; one some of whose asks finished
// is checked on those, with a note of how many were cut short.

// predictTimes sets each of r's questions' modelled time at the proof's
// depth (the judge's QuestionCost.Ms at r.depth), by name.
func (r *ProofRun) predictTimes() {
	if r.depth == nil {
		return
	}
	for k := range r.Questions {
		for _, q := range r.depth.Questions {
			if q.Name == r.Questions[k].Name {
				r.Questions[k].predictedMs, r.Questions[k].predictedRounds = q.Ms, q.RoundsPerQuestion
			}
		}
	}
}

// judgeUnfinished sets NotChecked, the reason, for each of r's questions
// whose measured figures are of no whole question over a run of d: none
// of its asks finished within the run, or all that did failed (after
// retries: a failure ends a question partway too).
func judgeUnfinished(r *ProofRun, d time.Duration) {
	for k := range r.Questions {
		q := &r.Questions[k]
		q.NotChecked = ""
		switch {
		case q.Asked == 0 && q.Unfinished > 0:
			made := textfit.Float(textfit.Round2(float64(q.unfinishedRequests) / float64(q.Unfinished)))
			if q.Unfinished == 1 {
				q.NotChecked = fmt.Sprintf("its one question did not finish within the %s run (predicted %s requests%s; it made %s before the end): not checked",
					d, textfit.Float(textfit.Round2(q.PredictedRequests)), paceWords(q.predictedMs, d), made)
				break
			}
			q.NotChecked = fmt.Sprintf("none of its %s questions finished within the %s run (predicted %s requests each%s; they made %s each on average before the end): not checked",
				textfit.Int(q.Unfinished), d, textfit.Float(textfit.Round2(q.PredictedRequests)), paceWords(q.predictedMs, d), made)
		case q.Asked > 0 && q.Failed == q.Asked:
			q.NotChecked = fmt.Sprintf("all %s of its questions that finished failed (after retries), partway: their requests and rows visited are not a question's, so they were not checked", textfit.Int(q.Asked))
			if q.Asked == 1 {
				q.NotChecked = "its one question that finished failed (after retries), partway: its requests and rows visited are not a question's, so they were not checked"
			}
			switch {
			case q.Unfinished == 1:
				q.NotChecked += "; 1 more was still running when the run ended"
			case q.Unfinished > 1:
				q.NotChecked += fmt.Sprintf("; %s more were still running when the run ended", textfit.Int(q.Unfinished))
			}
		}
	}
}

// unfinishedNotes say, for each scheme's questions the run's end cut
// short, what the proof did with them: not checked when none finished,
// else checked on those that finished.
func unfinishedNotes(p *Proof) []string {
	var out []string
	for _, r := range p.Schemes {
		for _, q := range r.Questions {
			name := q.Name
			if len(p.Schemes) > 1 {
				name += " under " + r.Scheme + " (" + r.Role + ")"
			}
			switch {
			case q.NotChecked != "":
				out = append(out, name+": "+q.NotChecked)
			case q.Unfinished > 0 && q.Asked > 0:
				out = append(out, fmt.Sprintf("%s: %s of its %s questions were still running when the run ended (cut short, not failed): its figures are of the %s that finished, which may be the cheaper ones",
					name, textfit.Int(q.Unfinished), textfit.Int(q.Asked+q.Unfinished), textfit.Int(q.Asked)))
			}
		}
	}
	return out
}

// slowWhy adds to the duration's why the questions, of any scheme, that
// cannot finish within the run of d: their last round of requests is
// modelled to start after the run's end even for a question asked at its
// start (the request in flight at the end completes; no later one
// starts), so none finishes, and such a question is not checked.
func slowWhy(runs []ProofRun, d time.Duration) string {
	var slow []string
	for _, r := range runs {
		for _, q := range r.Questions {
			if !beyond(q, d) {
				continue
			}
			reqs := textfit.Float(textfit.Round2(q.PredictedRequests)) + " requests"
			slow = append(slow, fmt.Sprintf("%s under %s (about %s a question, %s)", q.Name, r.Scheme, spanWords(msDuration(q.predictedMs)), reqs))
		}
	}
	if len(slow) == 0 {
		return ""
	}
	return fmt.Sprintf("; modelled to start their last requests after the end of the %s run, so none of their questions can finish within it and they are not checked: %s",
		d, strings.Join(slow, ", "))
}

// beyond reports whether q's last round of requests is modelled to start
// later than d after the question does.
func beyond(q ProofQuestion, d time.Duration) bool {
	if q.predictedRounds <= 1 {
		return false
	}
	return msDuration(q.predictedMs*(q.predictedRounds-1)/q.predictedRounds) > d
}

// paceWords is ", modelled at about N a question" for the judge's
// modelled time of ms milliseconds when it is longer than the run of d
// (it explains why none finished), else "".
func paceWords(ms float64, d time.Duration) string {
	if ms <= 0 || msDuration(ms) <= d {
		return ""
	}
	return ", modelled at about " + spanWords(msDuration(ms)) + " a question"
}

// msDuration is ms milliseconds as a duration, at most a year.
func msDuration(ms float64) time.Duration {
	return time.Duration(min(ms, float64(365*24*time.Hour/time.Millisecond)) * float64(time.Millisecond))
}
