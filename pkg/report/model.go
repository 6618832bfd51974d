package report

// runLabel names a run in the parts of a comparison that have no MODEL
// column (throttling by code, latency by operation): its scheme, and its
// model when the runs were judged by different models ("constant @
// cosmos,ru=4000").
func runLabel(r *Report, reps []*Report) string {
	if models(reps) != "" || r.Model == "" {
		return r.Scheme
	}
	return r.Scheme + " @ " + r.Model
}
