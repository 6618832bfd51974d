package plan

import "github.com/tablestress/tablestress/pkg/scenario"

// Peak is the highest rate (operations/s) the load offers: its constant
// rate, or the highest its stages reach; 0 for a closed loop, which offers
// no rate (its workers go as fast as the target answers).
func (l Load) Peak() float64 {
	if !l.Open {
		return 0
	}
	peak := l.Rate
	for _, st := range l.Stages {
		peak = max(peak, st.Target)
	}
	return peak
}

// PeakRate is the highest rate the scenario's workload offers, read as
// Build reads it (workload.rate, else its stages; neither is a closed
// loop, 0): the rate an analysis without a run judges partitions at.
func PeakRate(w scenario.Workload) float64 { return loadOf(&w).Peak() }
