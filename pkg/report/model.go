package report

// sharedModel is the model every run of a comparison answered with, or ""
// when they differ (each row then names its own) or none is known.
func sharedModel(reps []*Report) string {
	for _, r := range reps[1:] {
		if r.Model != reps[0].Model {
			return ""
		}
	}
	return reps[0].Model
}

// runLabel names a run in a comparison: its scheme, and its model when the
// runs were judged by different models ("constant @ cosmos,ru=4000").
func runLabel(r *Report, reps []*Report) string {
	if sharedModel(reps) != "" || r.Model == "" {
		return r.Scheme
	}
	return r.Scheme + " @ " + r.Model
}
