package metrics

// Interval is one second of the measured run. Latencies are in milliseconds.
type Interval struct {
	Second          int
	Ops             int64
	Requests        int64
	Entities        int64
	Throttled       int64
	Errors          int64
	Failed          int64
	Dropped         int64
	P50, P90, P99   float64
	Max             float64
	Hottest         string // the partition that served the most entities this second
	HottestEntities int64
}

// Live is what the status line shows: the figures of the last second.
type Live struct {
	Second                     int
	OpsPerSec, EntitiesPerSec  float64
	P99                        float64
	Throttled, Errors, Dropped int64
	Hottest                    string
	HottestEntities            int64
}

func usToMs(us int64) float64 { return float64(us) / 1000 }

func intervalOf(sec int, s *secTotal) Interval {
	iv := Interval{Second: sec, Ops: s.ops, Requests: s.requests, Entities: s.entities, Throttled: s.throttled,
		Errors: s.errors, Failed: s.failed, Dropped: s.dropped,
		P50: usToMs(s.lat.Quantile(0.5)), P90: usToMs(s.lat.Quantile(0.9)), P99: usToMs(s.lat.Quantile(0.99)), Max: usToMs(s.lat.Max())}
	for p, n := range s.parts {
		if n > iv.HottestEntities || (n == iv.HottestEntities && p.key < iv.Hottest) {
			iv.Hottest, iv.HottestEntities = p.key, n
		}
	}
	return iv
}

func liveFrom(iv Interval) Live {
	return Live{Second: iv.Second, OpsPerSec: float64(iv.Ops), EntitiesPerSec: float64(iv.Entities), P99: iv.P99,
		Throttled: iv.Throttled, Errors: iv.Errors, Dropped: iv.Dropped, Hottest: iv.Hottest, HottestEntities: iv.HottestEntities}
}
