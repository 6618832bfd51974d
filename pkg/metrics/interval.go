package metrics

// Interval is one second of the measured run: second i covers
// [start + i s, start + (i+1) s). Counts follow the package's counting rules
// by the time requests and operations completed; latencies are in
// milliseconds, of the operations completing in that second.
type Interval struct {
	Second int `json:"second"`
	Counts
	// P50, P90, P99 and Max are latency quantiles in ms (Compact precision).
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
	// Hottest is the partition (never CrossPartition) that served the most
	// entities this second, ties going to the smaller key; empty when none
	// did.
	Hottest         string `json:"hottest,omitempty"`
	HottestEntities int64  `json:"hottest_entities"`
	// Latency is the second's latency histogram (µs), kept so that merged
	// summaries recompute the quantiles exactly; nil in Tick's interval and
	// for seconds without answered operations.
	Latency *Compact `json:"latency_hist,omitempty"`
}

// Live is what the status line shows: the figures of the last tick's
// interval, as rates per second.
type Live struct {
	Second                             int
	OpsPerSec, EntitiesPerSec          float64
	P99                                float64 // ms
	Throttled, Errors, Failed, Dropped int64
	Hottest                            string
	HottestEntities                    int64
}

// fold adds the figures of o, a later second, to iv.
func (iv *Interval) fold(o Interval) {
	iv.Counts.Add(o.Counts)
	if o.Latency != nil {
		if iv.Latency == nil {
			iv.Latency = NewCompact(DefaultCompactBits)
		}
		iv.Latency.Merge(o.Latency)
	}
	if o.HottestEntities > iv.HottestEntities {
		iv.Hottest, iv.HottestEntities = o.Hottest, o.HottestEntities
	}
}

// setQuantiles sets the latency quantiles from h.
func (iv *Interval) setQuantiles(h *Compact) {
	iv.P50, iv.P90, iv.P99 = usToMs(h.Quantile(0.5)), usToMs(h.Quantile(0.9)), usToMs(h.Quantile(0.99))
	iv.Max = usToMs(h.Max())
}

func usToMs(us int64) float64 { return float64(us) / 1000 }

func liveFrom(iv Interval) Live {
	return Live{Second: iv.Second, OpsPerSec: float64(iv.Ops), EntitiesPerSec: float64(iv.Entities), P99: iv.P99,
		Throttled: iv.Throttled, Errors: iv.Errors, Failed: iv.Failed, Dropped: iv.Dropped, Hottest: iv.Hottest, HottestEntities: iv.HottestEntities}
}
