package report

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// Find is the result of searching for the highest offered rate a scheme
// sustains (tablestress find): every step the search ran, and the limit.
// The report carrying it is the run of the highest step that passed (or,
// when none did, of the lowest step).
type Find struct {
	// Rule is the stop condition in words: when a step fails.
	Rule string `json:"rule"`
	// LimitOpsPerSec is the highest offered rate (operations/s) that
	// passed; 0 when no step passed. LimitEntitiesPerSec is the
	// entities/s that step served.
	LimitOpsPerSec      float64 `json:"limit_ops_per_sec"`
	LimitEntitiesPerSec float64 `json:"limit_entities_per_sec"`
	// LimitUnitsPerSec is the request units per second that step was
	// charged, for a target that charges them (0: none).
	LimitUnitsPerSec float64 `json:"limit_request_units_per_sec,omitempty"`
	// Ceiling is set when the step at the maximum rate passed: the limit
	// is at least this, the search did not find it.
	Ceiling bool `json:"ceiling,omitempty"`
	// LimitedBy says what failed at the lowest failing rate: a partition's
	// target, a shared limit, latency, the client.
	LimitedBy string `json:"limited_by,omitempty"`
	// FailedAtOpsPerSec is the lowest offered rate that failed (0: none).
	FailedAtOpsPerSec float64    `json:"failed_at_ops_per_sec,omitempty"`
	Steps             []FindStep `json:"steps"`
}

// FindStep is one step of the search: a run at an offered rate.
type FindStep struct {
	// Rate is the offered rate, operations/s.
	Rate           float64 `json:"rate"`
	OpsPerSec      float64 `json:"ops_per_sec"`
	EntitiesPerSec float64 `json:"entities_per_sec"`
	// ThrottledPct is the share of requests throttled, DroppedPct the
	// share of the operations offered (run or dropped) that were dropped.
	ThrottledPct float64 `json:"throttled_pct"`
	DroppedPct   float64 `json:"dropped_pct"`
	P99          float64 `json:"p99_ms"`
	BusiestPeak  float64 `json:"busiest_peak_entities_per_sec"`
	// RequestUnitsPerSec and BusiestPeakUnits are the request units per
	// second the step was charged and its busiest partition's peak RU/s,
	// for a target that charges them.
	RequestUnitsPerSec float64 `json:"request_units_per_sec,omitempty"`
	BusiestPeakUnits   float64 `json:"busiest_peak_request_units_per_sec,omitempty"`
	OK                 bool    `json:"ok"`
	// Why says which condition the step failed.
	Why string `json:"why,omitempty"`
}

// Sentence says what a search found, for one scheme: "sustains 39.4 ops/s
// (1,970 entities/s); 41.3 ops/s failed: partition limit (Orders)".
func (f *Find) Sentence() string {
	switch {
	case f.LimitOpsPerSec == 0:
		return fmt.Sprintf("sustains none of the rates tried: %s ops/s failed: %s", rate(f.FailedAtOpsPerSec), f.LimitedBy)
	case f.Ceiling:
		return fmt.Sprintf("sustains at least %s entities/s (%s ops/s%s), the highest rate tried", rate(f.LimitEntitiesPerSec), rate(f.LimitOpsPerSec), f.units())
	}
	return fmt.Sprintf("sustains %s entities/s (%s ops/s%s); %s ops/s failed: %s", rate(f.LimitEntitiesPerSec), rate(f.LimitOpsPerSec), f.units(),
		rate(f.FailedAtOpsPerSec), f.LimitedBy)
}

// units is ", N RU/s" when the search's limit was charged request units.
func (f *Find) units() string {
	if f.LimitUnitsPerSec == 0 {
		return ""
	}
	return ", " + rate(f.LimitUnitsPerSec) + " RU/s"
}

// writeFind writes a search's steps and its result.
func writeFind(p *textfit.Printer, scheme string, f *Find) {
	p.Line("find %s: raise the offered rate until a step fails (%s)", scheme, f.Rule)
	t := &textfit.Table{Indent: "  ", Cols: []textfit.Column{
		{Header: "STEP", Right: true}, {Header: "OFFERED OPS/S", Short: "OFFERED", Right: true}, {Header: "OPS/S", Right: true},
		{Header: "ENTITIES/S", Short: "ENT/S", Right: true}, {Header: "THROTTLED", Right: true}, {Header: "DROPPED", Right: true, Drop: 2},
		{Header: "P99 MS", Right: true, Drop: 1}, {Header: "BUSIEST PEAK/S", Short: "PEAK/S", Right: true, Drop: 3},
		{Header: "RU/S", Right: true, Drop: 4, Hide: true}, {Header: "PEAK RU/S", Right: true, Drop: 2, Hide: true}, {Header: "RESULT", Wrap: true},
	}}
	for _, s := range f.Steps {
		if s.RequestUnitsPerSec > 0 {
			t.Cols[9].Hide, t.Cols[10].Hide = false, false
		}
	}
	for i, s := range f.Steps {
		res := textfit.Cell{Text: "ok"}
		if !s.OK {
			res = textfit.Cell{Text: "FAIL: " + s.Why, Color: textfit.Red}
		}
		t.Cells(cell(num(int64(i+1))), cell(rate(s.Rate)), cell(rate(s.OpsPerSec)), cell(rate(s.EntitiesPerSec)),
			warn(textfit.Float(textfit.Round2(s.ThrottledPct))+"%", s.ThrottledPct > 0), warn(textfit.Float(textfit.Round2(s.DroppedPct))+"%", s.DroppedPct > 0),
			cell(ms(s.P99)), cell(rate(s.BusiestPeak)), cell(rate(s.RequestUnitsPerSec)), cell(rate(s.BusiestPeakUnits)), res)
	}
	render(p, t)
	p.Painted(textfit.Green, "%s %s", scheme, f.Sentence())
}

// WriteFindSummary writes one line per scheme of a search over several:
// "constant sustains 1,970 entities/s ...".
func WriteFindSummary(p *textfit.Printer, reps []*Report) {
	var lines []string
	for _, r := range reps {
		if r.Find != nil {
			lines = append(lines, r.Scheme+" "+r.Find.Sentence())
		}
	}
	if len(lines) == 0 {
		return
	}
	p.Blank()
	p.Line("limits found (%s):", reps[0].Find.Rule)
	for _, l := range lines {
		p.Wrapped("  "+l, "")
	}
}
