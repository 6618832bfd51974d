// Package promexport serves a run's live figures to Prometheus: totals and
// per-operation counters by status, latency histograms, and the busiest
// partitions' entities, peaks and throttling. Figures are read from the
// run's metrics registry when Prometheus scrapes; nothing is recorded twice.
package promexport

import (
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// TopPartitions is how many of the busiest partitions get their own series.
const TopPartitions = 20

// Exporter is a prometheus.Collector over the current run. Safe for
// concurrent use: Set switches runs (compare runs several schemes).
type Exporter struct {
	mu       sync.Mutex
	snapshot func() *metrics.Summary
	labels   prometheus.Labels

	info, ops, requests, entities, throttled, errors, failed, dropped, retries *prometheus.Desc
	latency, partEntities, partPeak, partThrottled, partRequests               *prometheus.Desc
	// Request units, for a target that charges them (Cosmos DB): served
	// only for what was charged.
	units, partUnits, partPeakUnits *prometheus.Desc
}

// New returns an exporter with no run yet.
func New() *Exporter {
	run := []string{"scenario", "scheme"}
	d := func(name, help string, extra ...string) *prometheus.Desc {
		return prometheus.NewDesc("tablestress_"+name, help, append(append([]string{}, run...), extra...), nil)
	}
	return &Exporter{
		info:          prometheus.NewDesc("tablestress_run_info", "The run being measured.", []string{"scenario", "scheme", "target_kind"}, nil),
		ops:           d("operations_total", "Operations completed.", "op"),
		requests:      d("requests_total", "HTTP requests sent (attempts and query pages), by outcome.", "op", "status"),
		entities:      d("entities_total", "Entities served by successful requests.", "op"),
		throttled:     d("throttled_total", "Requests answered with throttling (503, 500 OperationTimedOut, 504, 429).", "op"),
		errors:        d("errors_total", "Requests that failed other than by throttling.", "op"),
		failed:        d("failed_total", "Operations that failed after their retries (in operations_total, not in the latency histogram).", "op"),
		dropped:       d("dropped_total", "Operations due in open loop that found no free worker.", "op"),
		retries:       d("retries_total", "Requests that were retry attempts.", "op"),
		latency:       d("operation_latency_seconds", "Latency of the answered operations, from the scheduled start.", "op"),
		partEntities:  d("partition_entities_total", "Entities served per partition (busiest partitions).", "partition"),
		partRequests:  d("partition_requests_total", "Requests per partition (busiest partitions).", "partition"),
		partPeak:      d("partition_peak_entities_per_second", "Busiest one-second interval per partition (sealed seconds).", "partition"),
		partThrottled: d("partition_throttled_total", "Throttled requests per partition (busiest partitions).", "partition"),
		units:         d("request_units_total", "Request units charged (x-ms-request-charge), for a target that charges them.", "op"),
		partUnits:     d("partition_request_units_total", "Request units charged per partition (busiest partitions).", "partition"),
		partPeakUnits: d("partition_peak_request_units_per_second", "Most request units charged in one second per partition (sealed seconds).", "partition"),
	}
}

// Set points the exporter at a run: snapshot returns its figures so far.
func (e *Exporter) Set(scenario, scheme, targetKind string, snapshot func() *metrics.Summary) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.snapshot = snapshot
	e.labels = prometheus.Labels{"scenario": scenario, "scheme": scheme, "target_kind": targetKind}
}

// Describe implements prometheus.Collector.
func (e *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{e.info, e.ops, e.requests, e.entities, e.throttled, e.errors, e.failed, e.dropped, e.retries,
		e.latency, e.partEntities, e.partRequests, e.partPeak, e.partThrottled, e.units, e.partUnits, e.partPeakUnits} {
		ch <- d
	}
}

// latencyBuckets are the histogram bounds in seconds.
var latencyBuckets = []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}

// Collect implements prometheus.Collector: the run's info, each
// operation's series and those of the TopPartitions busiest partitions, as
// the run's snapshot has them now; nothing before a run is set.
func (e *Exporter) Collect(ch chan<- prometheus.Metric) {
	e.mu.Lock()
	snap, l := e.snapshot, e.labels
	e.mu.Unlock()
	if snap == nil {
		return
	}
	s := snap()
	scenario, scheme := l["scenario"], l["scheme"]
	ch <- prometheus.MustNewConstMetric(e.info, prometheus.GaugeValue, 1, scenario, scheme, l["target_kind"])
	for op, st := range s.Ops {
		e.collectOp(ch, scenario, scheme, op.String(), st)
	}
	for i, p := range s.Partitions {
		if i == TopPartitions {
			break
		}
		e.collectPartition(ch, scenario, scheme, p)
	}
}

// collectOp sends one operation's counters, its requests by status, its
// request units when any were charged, and its latency histogram.
func (e *Exporter) collectOp(ch chan<- prometheus.Metric, scenario, scheme, name string, st metrics.Stats) {
	c := func(d *prometheus.Desc, v int64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), scenario, scheme, name)
	}
	c(e.ops, st.Ops)
	c(e.entities, st.Entities)
	c(e.throttled, st.Throttled)
	c(e.errors, st.Errors)
	c(e.failed, st.Failed)
	c(e.dropped, st.Dropped)
	c(e.retries, st.Retries)
	if st.Charged > 0 {
		ch <- prometheus.MustNewConstMetric(e.units, prometheus.CounterValue, st.RequestUnits, scenario, scheme, name)
	}
	for status, n := range st.Status {
		ch <- prometheus.MustNewConstMetric(e.requests, prometheus.CounterValue, float64(n), scenario, scheme, name, status)
	}
	// The histogram is served as soon as its operation is, empty until
	// an operation completes (a request's status is counted before its
	// operation's latency), so a scrape never lacks it.
	if h := st.Latency; h != nil {
		buckets, sum := latencyHistogram(h)
		ch <- prometheus.MustNewConstHistogram(e.latency, uint64(h.TotalCount()), sum, buckets, scenario, scheme, name)
	}
}

// latencyHistogram folds an HDR histogram of microseconds into the
// cumulative counts of latencyBuckets (every bound present, 0 when empty)
// and the sum in seconds, each recorded bucket counted at its upper end.
func latencyHistogram(h *hdrhistogram.Histogram) (map[float64]uint64, float64) {
	buckets := make(map[float64]uint64, len(latencyBuckets))
	for _, ub := range latencyBuckets {
		buckets[ub] = 0
	}
	var sum float64
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		v := float64(b.To) / 1e6
		sum += v * float64(b.Count)
		for _, ub := range latencyBuckets {
			if v <= ub {
				buckets[ub] += uint64(b.Count)
			}
		}
	}
	return buckets, sum
}

// collectPartition sends one partition's entities, requests, throttled
// requests and peak, and its request units and their peak when charged.
func (e *Exporter) collectPartition(ch chan<- prometheus.Metric, scenario, scheme string, p metrics.PartitionStats) {
	g := func(d *prometheus.Desc, t prometheus.ValueType, v int64) {
		ch <- prometheus.MustNewConstMetric(d, t, float64(v), scenario, scheme, p.Key)
	}
	g(e.partEntities, prometheus.CounterValue, p.Entities)
	g(e.partRequests, prometheus.CounterValue, p.Requests)
	g(e.partThrottled, prometheus.CounterValue, p.Throttled)
	g(e.partPeak, prometheus.GaugeValue, p.Peak)
	if p.Charged > 0 {
		ch <- prometheus.MustNewConstMetric(e.partUnits, prometheus.CounterValue, p.RequestUnits, scenario, scheme, p.Key)
		ch <- prometheus.MustNewConstMetric(e.partPeakUnits, prometheus.GaugeValue, p.PeakUnits, scenario, scheme, p.Key)
	}
}
