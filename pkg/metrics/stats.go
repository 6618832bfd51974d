package metrics

import (
	"encoding/json"
	"fmt"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Stats are the figures of the whole run or of one operation.
type Stats struct {
	Counts
	// OpsPerSec and EntitiesPerSec are per second of the measured duration.
	OpsPerSec      float64 `json:"ops_per_sec"`
	EntitiesPerSec float64 `json:"entities_per_sec"`
	// Status counts requests by outcome key; it sums to Requests.
	Status map[string]int64 `json:"status"`
	// Quantiles are Latency's, in milliseconds.
	Quantiles Percentiles `json:"latency_ms"`
	// Latency holds every answered (completed, not failed) operation's
	// latency in microseconds: hdrhistogram-go, 1 µs to 1 h, 3 significant
	// digits; never nil in a Summary. JSON carries it as "latency_hdr", its V2 compressed encoding.
	Latency *hdrhistogram.Histogram `json:"-"`
}

// Percentiles are latency quantiles in milliseconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// LatencyMs returns the latency at percentile q (0..100, as hdrhistogram
// takes it; 100 is the maximum) in milliseconds, 0 when nothing completed.
func (s Stats) LatencyMs(q float64) float64 {
	if s.Latency == nil || s.Latency.TotalCount() == 0 {
		return 0
	}
	if q >= 100 {
		return usToMs(s.Latency.Max())
	}
	return usToMs(s.Latency.ValueAtQuantile(q))
}

// finish computes the derived figures: rates over secs and quantiles.
func (s *Stats) finish(secs float64) {
	if s.Latency == nil {
		s.Latency = newHDR()
	}
	if s.Status == nil {
		s.Status = map[string]int64{}
	}
	s.OpsPerSec, s.EntitiesPerSec = perSec(s.Ops, secs), perSec(s.Entities, secs)
	s.Quantiles = Percentiles{P50: s.LatencyMs(50), P90: s.LatencyMs(90), P99: s.LatencyMs(99), P999: s.LatencyMs(99.9),
		Max: s.LatencyMs(100)}
}

func perSec(n int64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(n) / secs
}

// stats returns a copy of the merged figures.
func (o *opTotal) stats() Stats {
	s := Stats{Counts: o.c, Status: make(map[string]int64, len(o.status))}
	addMap(s.Status, o.status)
	if o.hist != nil {
		s.Latency = o.hist.Clone()
	} else {
		s.Latency = newHDR()
	}
	return s
}

// statsJSON is Stats with its histogram encoded.
type statsJSON struct {
	statsFields
	LatencyHDR string `json:"latency_hdr"`
}

type statsFields Stats // Stats without its methods, for encoding/json

// MarshalJSON encodes the stats with the latency histogram as "latency_hdr",
// its hdrhistogram V2 compressed base64 encoding.
func (s Stats) MarshalJSON() ([]byte, error) {
	h := s.Latency
	if h == nil {
		h = newHDR()
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, fmt.Errorf("metrics: encoding latency histogram: %w", err)
	}
	return json.Marshal(statsJSON{statsFields: statsFields(s), LatencyHDR: string(enc)})
}

// UnmarshalJSON decodes what MarshalJSON writes. A missing "latency_hdr"
// gives an empty histogram; a malformed one is an error wrapping
// ErrMalformedHistogram.
func (s *Stats) UnmarshalJSON(b []byte) error {
	var v statsJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Stats(v.statsFields)
	s.Latency = newHDR()
	if v.LatencyHDR != "" {
		h, err := hdrhistogram.Decode([]byte(v.LatencyHDR))
		if err != nil {
			return fmt.Errorf("%w: latency_hdr: %v", ErrMalformedHistogram, err)
		}
		s.Latency = h
	}
	return nil
}
