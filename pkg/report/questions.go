package report

import (
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// Question is one of the application's questions as the run's scheme
// answered it: the plan, the figures of an operation (ops are questions
// answered, requests every request of them, latency the whole question's
// from its scheduled start), and per question the requests, partitions,
// rows visited and returned and, where the service charged them, request
// units.
type Question struct {
	Stats
	QuestionPlan
	RequestsPerQuestion     float64 `json:"requests_per_question"`
	PartitionsPerQuestion   float64 `json:"partitions_per_question"`
	RowsVisitedPerQuestion  float64 `json:"rows_visited_per_question"`
	RowsReturnedPerQuestion float64 `json:"rows_returned_per_question"`
	// RowsVisitedFrom says where the rows visited come from: "service"
	// (the embedded service's count of every query page answered; a point
	// read reads its one row), "rows returned" (a service that does not
	// count them), "both" (some of each), or "point reads" (a point plan,
	// whose requests visit the one row each reads, on any service); empty
	// when no query page was answered (nothing was visited).
	RowsVisitedFrom string `json:"rows_visited_from,omitempty"`
	// RequestUnitsPerQuestion is the mean of the request units the
	// service charged (Cosmos DB's x-ms-request-charge) the question's
	// requests, retries included, which its Stats count (request_units);
	// absent when no request carried a charge.
	RequestUnitsPerQuestion *float64 `json:"request_units_per_question,omitempty"`
	// Unfinished counts the questions still in flight when the measured
	// window ended that the end cut short: not in ops (neither answered
	// nor failed), nor in any per-question figure; their requests are in
	// the question's requests and the run's totals, as the service served
	// them (Sums.UnfinishedRequests), but not in RequestsPerQuestion.
	Unfinished int64 `json:"unfinished,omitempty"`
	// Sums are the totals the per-question figures are means of, kept so
	// that shards' reports merge exactly.
	Sums metrics.QuestionFigures `json:"sums"`
}

// QuestionPlan is a scheme's plan for a question.
type QuestionPlan struct {
	Name string `json:"-"`
	// Plan is point, range, fan_out, index or scan.
	Plan string `json:"plan"`
	// Scope is a scan's: partition, or table for a table scan.
	Scope string `json:"scope,omitempty"`
	// Index is the index table an index plan reads.
	Index string `json:"index,omitempty"`
	// Why says in words what decided the plan.
	Why string `json:"why,omitempty"`
}

// Label is the plan as the text shows it: "scan (table)", "index X".
func (p QuestionPlan) Label() string {
	switch {
	case p.Plan == "scan" && p.Scope == "table":
		return "scan (table)"
	case p.Plan == "index" && p.Index != "":
		return "index " + p.Index
	}
	return p.Plan
}

// buildQuestions fills the report's questions: every planned question,
// with the figures of those the run measured.
func (r *Report) buildQuestions(plans []QuestionPlan, s *metrics.Summary, secs float64) {
	if len(plans) == 0 && (s == nil || len(s.Questions) == 0) {
		return
	}
	r.Questions = map[string]Question{}
	for _, p := range plans {
		r.Questions[p.Name] = Question{QuestionPlan: p, Stats: Stats{Status: map[string]int64{}}}
	}
	if s == nil {
		return
	}
	for name, qs := range s.Questions {
		q := r.Questions[name]
		q.Stats = stats(qs.Stats, secs)
		q.Sums = qs.QuestionFigures
		q.derive()
		r.Questions[name] = q
		if enc, err := qs.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err == nil {
			r.Histograms["question:"+name] = string(enc)
		}
	}
}

// derive computes the per-question means from the sums: of the
// completed questions (ops), the unfinished ones' requests and charges
// taken out.
func (q *Question) derive() {
	q.RequestsPerQuestion, q.PartitionsPerQuestion, q.RowsVisitedPerQuestion, q.RowsReturnedPerQuestion, q.RequestUnitsPerQuestion = 0, 0, 0, 0, nil
	q.RowsVisitedFrom = ""
	f := q.Sums
	q.Unfinished = f.Unfinished
	if q.Ops == 0 {
		return
	}
	n := float64(q.Ops)
	q.RequestsPerQuestion = float64(q.Requests-f.UnfinishedRequests) / n
	q.PartitionsPerQuestion = float64(f.Partitions) / n
	q.RowsVisitedPerQuestion = float64(f.Visited) / n
	q.RowsReturnedPerQuestion = float64(f.Returned) / n
	switch {
	case q.Plan == "point":
		q.RowsVisitedFrom = "point reads" // a point read visits the one row it reads
	case f.Pages == 0:
		// no query page answered (all throttled or failed): nothing
		// visited, whoever counts
	case f.VisitedByService == 0:
		q.RowsVisitedFrom = "rows returned"
	case f.VisitedByService == f.Pages:
		q.RowsVisitedFrom = "service" // every query page; point reads read one row
	default:
		q.RowsVisitedFrom = "both"
	}
	if q.Charged > 0 { // the question's requests' charges, counted as its requests are
		ru := (q.RequestUnits - f.UnfinishedRequestUnits) / n
		q.RequestUnitsPerQuestion = &ru
	}
}

// QuestionOrder lists the questions by name.
func QuestionOrder(qs map[string]Question) []string {
	out := make([]string, 0, len(qs))
	for name := range qs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// mergeQuestions combines the questions of shards' reports: counts and
// sums add, latency comes from the merged histograms, the plan is the
// shards' own (one scheme).
func (m *Report) mergeQuestions(reps []*Report, secs float64) error {
	for _, r := range reps {
		for name, q := range r.Questions {
			if m.Questions == nil {
				m.Questions = map[string]Question{}
			}
			if _, done := m.Questions[name]; done {
				continue
			}
			key := "question:" + name
			views := make([]*Report, 0, len(reps))
			var sums metrics.QuestionFigures
			for _, s := range reps {
				if sq, ok := s.Questions[name]; ok {
					views = append(views, &Report{Operations: map[string]Stats{key: sq.Stats}, Histograms: s.Histograms})
					sums.Add(sq.Sums)
				}
			}
			st, enc, err := mergeStats(views, key, secs)
			if err != nil {
				return err
			}
			out := Question{Stats: st, QuestionPlan: q.QuestionPlan, Sums: sums}
			out.derive()
			m.Questions[name] = out
			if enc != "" {
				m.Histograms[key] = enc
			}
		}
	}
	return nil
}
