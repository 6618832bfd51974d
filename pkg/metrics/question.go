package metrics

import (
	"encoding/json"
	"time"
)

// QuestionFigures are what the questions of one kind took, summed over the
// completed ones: the partitions each asked, the rows the service visited
// to answer (its own count where it sends one, else the rows returned),
// and the rows returned. The request units a question's requests were
// charged are not here: they are its Counts' (Charged, RequestUnits),
// counted request by request as its requests are, so they add up with the
// totals' and the question operation's.
type QuestionFigures struct {
	Partitions int64 `json:"partitions"`
	// Visited is the rows visited; VisitedByService counts the requests
	// whose figure came from the service (the rest are rows returned), of
	// Pages, the query pages answered.
	Visited          int64 `json:"rows_visited"`
	VisitedByService int64 `json:"rows_visited_by_service"`
	Pages            int64 `json:"pages_answered"`
	Returned         int64 `json:"rows_returned"`
	// Unfinished counts the questions the run's end cut short: still in
	// flight when the measured window ended, they were stopped before
	// their last request (no further page or retry starts after the end).
	// They are neither completed nor failed, and none of the figures above
	// are theirs; UnfinishedRequests and UnfinishedRequestUnits are the
	// requests they made and the units those were charged, which the
	// question's Counts hold with the completed questions' (the service
	// served them), so that the per-question means can leave them out.
	Unfinished             int64   `json:"unfinished,omitempty"`
	UnfinishedRequests     int64   `json:"unfinished_requests,omitempty"`
	UnfinishedRequestUnits float64 `json:"unfinished_request_units,omitempty"`
}

// Add adds o's figures to f.
func (f *QuestionFigures) Add(o QuestionFigures) {
	f.Partitions += o.Partitions
	f.Visited += o.Visited
	f.VisitedByService += o.VisitedByService
	f.Pages += o.Pages
	f.Returned += o.Returned
	f.Unfinished += o.Unfinished
	f.UnfinishedRequests += o.UnfinishedRequests
	f.UnfinishedRequestUnits += o.UnfinishedRequestUnits
}

// QuestionStats are one question's figures: those of an operation, for
// the question's requests and completions, and its own.
type QuestionStats struct {
	Stats
	QuestionFigures
}

// qAcc is one question's figures within one tick.
type qAcc struct {
	opAcc
	fig QuestionFigures
}

// question returns question k's accumulator (nil for k < 0).
func (d *tickData) question(k int) *qAcc {
	if k < 0 {
		return nil
	}
	for len(d.qs) <= k {
		d.qs = append(d.qs, qAcc{opAcc: opAcc{lat: NewCompact(HDRBits)}})
	}
	return &d.qs[k]
}

// QuestionDone records a completed question k (its index in
// Options.Questions): as an operation of kind Question on partition
// (CrossPartition when it asked several), latency from scheduled to end
// when it was answered (ok; a failed question's is recorded nowhere, as
// Done's), and the question's own figures. Questions scheduled before the
// measurement start are warm-up, ignored.
func (r *Recorder) QuestionDone(k int, partition string, scheduled, end time.Time, ok bool, f QuestionFigures) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, in := r.done(Question, partition, scheduled, end, ok)
	if !in || k < 0 {
		return
	}
	qa := r.d.question(k)
	qa.c.done(ok, n)
	if ok {
		qa.lat.Record(latencyUS(scheduled, end))
	}
	qa.fig.Add(f)
}

// QuestionCutShort records question k, scheduled at scheduled, that the
// run's end cut short at end, having made requests requests charged units
// request units (each recorded by Request as it completed): counted as
// unfinished, not as an operation, neither answered nor failed, its
// requests kept apart from the completed questions' (QuestionFigures).
// Questions scheduled before the measurement start are warm-up, ignored.
func (r *Recorder) QuestionCutShort(k int, scheduled, end time.Time, requests int64, units float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.takeServing(scheduled) // neither answered nor failed: its entities are no answer's
	if _, in := r.reg.secondOf(end, Question); !in || r.reg.warmup(scheduled) || k < 0 {
		return
	}
	r.d.question(k).fig.Add(QuestionFigures{Unfinished: 1, UnfinishedRequests: requests, UnfinishedRequestUnits: units})
}

// QuestionDropped records question k due at at that could not start on
// time.
func (r *Recorder) QuestionDropped(k int, at time.Time) {
	r.Dropped(Question, at)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, in := r.reg.secondOf(at, Question); !in || k < 0 {
		return
	}
	r.d.question(k).c.Dropped++
}

// qTotal is one question's merged figures.
type qTotal struct {
	opTotal
	fig QuestionFigures
}

// mergeQuestions adds one recorder's questions to the registry; r.mu is
// held.
func (r *Registry) mergeQuestions(d *tickData) {
	for k := range d.qs {
		a := &d.qs[k]
		if a.c.IsZero() && a.fig == (QuestionFigures{}) {
			continue
		}
		for len(r.qs) <= k {
			r.qs = append(r.qs, qTotal{opTotal: newOpTotal()})
		}
		t := &r.qs[k]
		t.c.Add(a.c)
		for id, n := range a.status {
			if n > 0 {
				t.status[d.outcomes.key(uint16(id))] += n
			}
		}
		t.recordCompact(a.lat)
		t.fig.Add(a.fig)
	}
}

// resetQuestions empties the questions' accumulators.
func (d *tickData) resetQuestions() {
	for k := range d.qs {
		a := &d.qs[k]
		a.c, a.fig = Counts{}, QuestionFigures{}
		clear(a.status)
		a.lat.Reset()
	}
}

// questionStats are the summary's questions, by name (Options.Questions).
func (r *Registry) questionStats() map[string]QuestionStats {
	out := map[string]QuestionStats{}
	for k := range r.qs {
		t := &r.qs[k]
		if k >= len(r.opts.Questions) || (t.c.IsZero() && t.fig == (QuestionFigures{})) {
			continue
		}
		out[r.opts.Questions[k]] = QuestionStats{Stats: t.stats(), QuestionFigures: t.fig}
	}
	return out
}

// MarshalJSON encodes the operation figures (Stats.MarshalJSON) and the
// question's own in one object.
func (q QuestionStats) MarshalJSON() ([]byte, error) {
	a, err := q.Stats.MarshalJSON()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(q.QuestionFigures)
	if err != nil {
		return nil, err
	}
	return append(append(a[:len(a)-1], ','), b[1:]...), nil
}

// UnmarshalJSON decodes what MarshalJSON writes.
func (q *QuestionStats) UnmarshalJSON(b []byte) error {
	if err := q.Stats.UnmarshalJSON(b); err != nil {
		return err
	}
	return json.Unmarshal(b, &q.QuestionFigures)
}
