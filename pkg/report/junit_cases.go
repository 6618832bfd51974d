package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/threshold"
)

// What a JUnit suite says of a report: its test cases and properties, and
// the text forms XML Schema wants.

// runCases are the test cases of a run: that it completed, its read-back,
// its thresholds.
func runCases(r *Report, class string) []junitCase {
	where := fmt.Sprintf("scheme %s on %s (%s), measured %s", r.Scheme, r.Target.Kind, r.Target.Endpoint, secondsText(r.DurationS))
	run := junitCase{Name: JUnitRunCase, Classname: class, Time: seconds(r.DurationS)}
	switch {
	case r.Failure != "" || r.Interrupted:
		msg := r.Failure
		if msg == "" {
			msg = "interrupted before the end of the run"
		}
		text := "the run did not complete: " + msg + "\n" + where
		if r.StartedAt.IsZero() {
			text = "the command failed before it measured anything: " + msg
		}
		first, _, _ := strings.Cut(msg, "\n")
		run.Error = &junitProblem{Type: "run", Message: first, Text: text}
	case r.Aborted != "":
		run.Failure = &junitProblem{Type: "aborted", Message: r.Aborted, Text: "the run was stopped early: " + r.Aborted + "\n" + where}
	}
	cases := []junitCase{run}
	if v := r.Verify; v != nil {
		c := junitCase{Name: JUnitVerifyCase, Classname: class, Time: "0"}
		if !v.OK() {
			msg := fmt.Sprintf("of %s acknowledged writes, %s missing, %s with another version, %s deleted but present, %s unreadable",
				num(v.Checked), num(v.Missing), num(v.Mismatched), num(v.Resurrected), num(v.Unreadable))
			c.Failure = &junitProblem{Type: "verify", Message: msg, Text: msg + "\n" + strings.Join(v.Examples, "\n")}
		}
		cases = append(cases, c)
	}
	for _, t := range r.Thresholds {
		c := junitCase{Name: xmlToken(t.Expr, "threshold"), Classname: class, Time: "0"}
		if !t.OK {
			msg := thresholdFailure(t)
			c.Failure = &junitProblem{Type: "threshold", Message: msg, Text: t.Expr + ": " + msg + "\n" + where}
		}
		cases = append(cases, c)
	}
	return append(cases, answeredCases(r, class, where)...)
}

// answeredCases are a case per operation and per question the run offered
// ("operation insert answered", "question tenant-day answered"), failing
// when none of them was answered: every one that ran failed after its
// retries, or none could start. Those that failed when others were
// answered are counted in the properties and the text, not judged here.
func answeredCases(r *Report, class, where string) []junitCase {
	var cases []junitCase
	add := func(name string, s Stats) {
		if s.Offered() == 0 {
			return
		}
		c := junitCase{Name: xmlToken(name+" answered", "answered"), Classname: class, Time: "0"}
		if s.Answered() == 0 {
			msg := neverAnswered(s)
			c.Failure = &junitProblem{Type: "failed", Message: msg, Text: name + ": " + msg + "\n" + where}
		}
		cases = append(cases, c)
	}
	for _, op := range OperationOrder(r.Operations) {
		add("operation "+op, r.Operations[op])
	}
	for _, n := range QuestionOrder(r.Questions) {
		add("question "+n, r.Questions[n].Stats)
	}
	return cases
}

// neverAnswered says why nothing of s was answered: how many failed after
// their retries, with what, and how many were dropped.
func neverAnswered(s Stats) string {
	var parts []string
	if s.Ops > 0 {
		parts = append(parts, fmt.Sprintf("all %s that ran failed after their retries (%s)", num(s.Ops), statusLine(s.Status)))
	}
	if s.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped: no worker was free when they were due", num(s.Dropped)))
	}
	return "none answered: " + strings.Join(parts, "; ")
}

// thresholdFailure says why threshold t failed: "observed 312.4ms, bound
// < 250ms", or what the run did not observe.
func thresholdFailure(t Threshold) string {
	if t.Missing != "" {
		return "nothing observed: " + t.Missing
	}
	observed := "observed " + exact(t.Observed) + t.Unit + observedIn(t)
	if _, cmp, bound, ok := threshold.Split(t.Expr); ok {
		return observed + ", bound " + cmp + " " + bound
	}
	return observed + ", threshold " + t.Expr
}

// junitProps are a suite's properties: what ran where and how, its figures,
// and a search's result and steps.
func junitProps(r *Report) []junitProperty {
	var ps []junitProperty
	add := func(name, value string) {
		if value != "" {
			ps = append(ps, junitProperty{Name: name, Value: value})
		}
	}
	add("scenario", xmlToken(r.Scenario, "(unnamed)")) // the schemas want at least one property
	add("scheme", r.Scheme)
	add("model", r.Model)
	add("target.kind", r.Target.Kind)
	add("target.endpoint", r.Target.Endpoint)
	add("table", r.Table)
	add("run.id", r.Run.ID)
	add("run.shard", r.Run.Shard)
	add("failure", r.Failure)
	if r.StartedAt.IsZero() {
		return ps
	}
	add("started_at", r.StartedAt.UTC().Format(time.RFC3339))
	add("duration_s", exact(r.DurationS))
	add("load", LoadShape(r.Run))
	add("retry", r.Run.Retry)
	add("seed", strconv.FormatUint(r.Run.Seed, 10))
	add("ops_per_sec", exact(r.Totals.OpsPerSec))
	add("entities_per_sec", exact(r.Totals.EntitiesPerSec))
	add("throttled", strconv.FormatInt(r.Totals.Throttled, 10))
	add("errors", strconv.FormatInt(r.Totals.Errors, 10))
	add("failed", strconv.FormatInt(r.Totals.Failed, 10))
	add("dropped", strconv.FormatInt(r.Totals.Dropped, 10))
	for _, n := range QuestionOrder(r.Questions) {
		if q := r.Questions[n]; q.Failed > 0 {
			add("question."+n+".failed", strconv.FormatInt(q.Failed, 10)+" of "+strconv.FormatInt(q.Ops, 10))
		}
	}
	add("p99_ms", exact(r.Totals.Latency.P99))
	if r.Charged() {
		add("request_units_per_sec", exact(rateOf(r.Totals.RequestUnitsPerSec)))
		if r.Run.PartitionUnits > 0 {
			add("partition_request_units", exact(r.Run.PartitionUnits))
		}
	}
	add("verdict", Verdict(r))
	if f := r.Find; f != nil {
		add("find.result", r.Scheme+" "+f.Sentence())
		add("find.rule", f.Rule)
		add("find.limit_ops_per_sec", exact(f.LimitOpsPerSec))
		add("find.limit_entities_per_sec", exact(f.LimitEntitiesPerSec))
		if f.LimitUnitsPerSec > 0 {
			add("find.limit_request_units_per_sec", exact(f.LimitUnitsPerSec))
		}
		add("find.limited_by", f.LimitedBy)
		for i, st := range f.Steps {
			add(fmt.Sprintf("find.step.%d", i+1), junitStep(st))
		}
	}
	return ps
}

// junitStep is what a search's step property says: the offered rate, what
// it served (and was charged, for a target that charges request units) and
// its result.
func junitStep(st FindStep) string {
	res := "ok"
	if !st.OK {
		res = "FAIL: " + st.Why
	}
	units := ""
	if st.RequestUnitsPerSec > 0 {
		units = ", " + exact(st.RequestUnitsPerSec) + " RU/s"
	}
	return fmt.Sprintf("%s ops/s offered: %s ops/s, %s entities/s%s, %s%% throttled, %s%% dropped, p99 %s ms: %s",
		exact(st.Rate), exact(st.OpsPerSec), exact(st.EntitiesPerSec), units, exact(st.ThrottledPct), exact(st.DroppedPct), exact(st.P99), res)
}

// xmlToken is s as an XML Schema token (no leading, trailing or repeated
// white space, no tabs or line breaks), or fallback when nothing is left.
func xmlToken(s, fallback string) string {
	if t := strings.Join(strings.Fields(s), " "); t != "" {
		return t
	}
	return fallback
}

// xmlText is s without the characters XML 1.0 does not allow (control
// characters but tab, line feed and carriage return; surrogates; U+FFFE
// and U+FFFF), each replaced by U+FFFD as encoding/xml does in text it
// escapes: CDATA sections are written as they are.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// seconds is a duration in seconds as an XML Schema decimal.
func seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return "0"
	}
	return strconv.FormatFloat(s, 'f', 3, 64)
}

// exact writes a figure to the thousandth, without the rounding to three
// significant digits the text uses: a failure says 250.4, not 250.
func exact(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
