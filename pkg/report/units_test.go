package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// chargedReport is a 2-second run of a target that charges request units
// with a 100 RU/s share per physical partition: Hot is charged 120 RU in
// second 0 (over its share) and a 429; Cool 10 RU a second. With charge
// false the same requests carry no charge.
func chargedReport(charge bool) *Report {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	units := 0.0
	if charge {
		units = 100
	}
	reg := metrics.NewRegistry(metrics.Options{Start: t0, End: t0.Add(2 * time.Second), PartitionUnits: units})
	rec := reg.NewRecorder()
	req := func(op metrics.Op, part string, o outcome.Outcome, ru float64, ms int) {
		at := t0.Add(time.Duration(ms) * time.Millisecond)
		n := 0
		if o.Class == outcome.OK {
			n = 1
		}
		rec.Request(metrics.Request{Op: op, Partition: part, Outcome: o, Entities: n, At: at, Charged: charge, Charge: ru})
		rec.Done(op, part, at.Add(-time.Millisecond), at, o.Class == outcome.OK)
	}
	for i := 0; i < 24; i++ {
		req(metrics.Insert, "Hot", outcome.New(201, ""), 5, 10+i)
	}
	req(metrics.Insert, "Hot", outcome.New(429, "TooManyRequests"), 0, 40)
	for s := 0; s < 2; s++ {
		for i := 0; i < 10; i++ {
			req(metrics.PointRead, "Cool", outcome.New(200, ""), 1, 1000*s+100+i)
		}
	}
	return Build(Meta{Scenario: "s", Scheme: "constant", Run: RunInfo{PartitionTarget: 2000, PartitionUnits: units}}, reg.Finish(t0.Add(2*time.Second)))
}

// A run charged in request units reports them in the JSON (totals, each
// operation, each partition, with RU/s and peaks), the CSV, the text and
// the verdict, judging partitions by their RU/s against the physical
// partition's share; a run charged nothing has none of it.
func TestRequestUnitsReported(t *testing.T) {
	r := chargedReport(true)
	if tot := r.Totals; tot.RequestUnits != 140 || tot.RequestUnitsPerSec == nil || *tot.RequestUnitsPerSec != 70 {
		t.Errorf("totals %+v", tot)
	}
	hot := r.Partitions[0]
	if hot.PartitionKey != "Hot" || peakUnits(hot) != 120 || !hot.OverTarget || *hot.RequestUnitsPerSec != 60 {
		t.Errorf("Hot %+v", hot)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Totals     map[string]any            `json:"totals"`
		Operations map[string]map[string]any `json:"operations"`
		Partitions []map[string]any          `json:"partitions"`
	}
	json.Unmarshal(js.Bytes(), &doc)
	for where, m := range map[string]map[string]any{"totals": doc.Totals, "insert": doc.Operations["insert"], "partition": doc.Partitions[0]} {
		if m["request_units"] == nil || m["request_units_per_sec"] == nil {
			t.Errorf("%s lacks request_units or request_units_per_sec: %v", where, m)
		}
	}
	if doc.Partitions[0]["peak_request_units_per_sec"] != 120.0 {
		t.Errorf("peak %v", doc.Partitions[0]["peak_request_units_per_sec"])
	}
	var text bytes.Buffer
	WriteText(&text, r)
	for _, want := range []string{"RU/OP", "PEAK RU/S", "target 100 RU/s per partition", "hot partition Hot at or over its physical partition's 100 RU/s share",
		"70.0 RU/s charged (3.11 RU per operation); busiest partition Hot at 120 RU/s of its 100 RU/s share (120%)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	var c bytes.Buffer
	WriteCSV(&c, r)
	rows, _ := csv.NewReader(&c).ReadAll()
	if col := slices.Index(rows[0], "peak_request_units_per_sec"); col < 0 || rows[1][col] != "120" {
		t.Errorf("CSV %v", rows)
	}
	if got := peakCell(r); got != "120/100 RU" {
		t.Errorf("compare cell %q", got)
	}

	plain := chargedReport(false)
	js.Reset()
	WriteJSON(&js, plain)
	if strings.Contains(js.String(), "request_units") {
		t.Errorf("an uncharged run's JSON speaks of request units:\n%s", js.String())
	}
	text.Reset()
	WriteText(&text, plain)
	if strings.Contains(text.String(), "RU") || !strings.Contains(text.String(), "target 2,000 entities/s per partition") {
		t.Errorf("an uncharged run's text:\n%s", text.String())
	}
	if got := peakCell(plain); got != "24.0/2,000" {
		t.Errorf("compare cell %q", got)
	}
}

// Shards' request units add when merged.
func TestRequestUnitsMerge(t *testing.T) {
	a, b := chargedReport(true), chargedReport(true)
	a.Run.Shard, b.Run.Shard = "0/2", "1/2"
	m, err := Merge([]Shard{{"a", a}, {"b", b}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Totals.RequestUnits != 280 || *m.Totals.RequestUnitsPerSec != 140 || peakUnits(m.Partitions[0]) != 120 {
		t.Errorf("merged totals %+v, partition %+v", m.Totals, m.Partitions[0])
	}
}

// The HTML of a charged run draws its request units chart in Chromium.
func TestRequestUnitsHTMLDraws(t *testing.T) {
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, _ := os.Create(page)
	if err := WriteHTML(f, chargedReport(true)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	domBytes, console := headless(t, browser, dir, "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)
	dom := string(domBytes)
	if strings.Contains(console, "Uncaught") {
		t.Errorf("script error: %s", console)
	}
	body := regexp.MustCompile(`<body [^>]*>`).FindString(dom)
	m := regexp.MustCompile(`data-charts="(\d+)"`).FindStringSubmatch(body)
	if m == nil || strings.Contains(body, "data-missing") || strings.Contains(body, "data-errors") {
		t.Fatalf("charts not all drawn: %s", body)
	}
	// throughput, latency, operations, partitions, heatmap, request units.
	if n, _ := strconv.Atoi(m[1]); n != 6 || !strings.Contains(dom, `id="units-0"`) || !strings.Contains(dom, "Busiest partitions by request units") {
		t.Errorf("%s charts drawn, want 6 with the request units chart", m[1])
	}
}

// A search on a target that charges request units states the RU/s its
// limit was charged beside its entities/s, and each step's RU/s and
// busiest peak RU/s; one on a target that charges none does not.
func TestFindSpeaksOfRequestUnits(t *testing.T) {
	r := chargedReport(true)
	perSec, peak := r.StepUnits()
	if perSec != 70 || peak != 120 {
		t.Errorf("StepUnits %v, %v; want 70 and 120", perSec, peak)
	}
	f := &Find{Rule: "over 1% of requests throttled", LimitOpsPerSec: 16, LimitEntitiesPerSec: 800, LimitUnitsPerSec: 3960, FailedAtOpsPerSec: 17, LimitedBy: "x",
		Steps: []FindStep{{Rate: 16, EntitiesPerSec: 800, RequestUnitsPerSec: 3960, BusiestPeakUnits: 4000, OK: true}}}
	if got := f.Sentence(); got != "sustains 800 entities/s (16.0 ops/s, 3,960 RU/s); 17.0 ops/s failed: x" {
		t.Errorf("sentence %q", got)
	}
	var b bytes.Buffer
	p := &textfit.Printer{W: &b}
	writeFind(p, "constant", f)
	if !strings.Contains(b.String(), "PEAK RU/S") || !strings.Contains(b.String(), "4,000") {
		t.Errorf("steps:\n%s", b.String())
	}
	f.LimitUnitsPerSec, f.Steps[0].RequestUnitsPerSec = 0, 0
	b.Reset()
	writeFind(p, "constant", f)
	if strings.Contains(f.Sentence(), "RU") || strings.Contains(b.String(), "RU/S") {
		t.Errorf("an uncharged search speaks of request units: %s\n%s", f.Sentence(), b.String())
	}
}

// A JUnit suite of a charged run carries its RU/s and the physical
// partition's share among its properties, and a search's limit and steps
// their RU/s; an uncharged run's carries none of them.
func TestJUnitSpeaksOfRequestUnits(t *testing.T) {
	props := func(r *Report) map[string]string {
		doc, _ := junitOf(t, r)
		out := map[string]string{}
		for _, p := range doc.Suites[0].Properties.List {
			out[p.Name] = p.Value
		}
		return out
	}
	r := chargedReport(true)
	r.Find = &Find{Rule: "x", LimitOpsPerSec: 16, LimitEntitiesPerSec: 800, LimitUnitsPerSec: 3960, FailedAtOpsPerSec: 17, LimitedBy: "x",
		Steps: []FindStep{{Rate: 16, EntitiesPerSec: 800, RequestUnitsPerSec: 3960, OK: true}}}
	p := props(r)
	if p["request_units_per_sec"] != "70" || p["partition_request_units"] != "100" || p["find.limit_request_units_per_sec"] != "3960" ||
		!strings.Contains(p["find.step.1"], "800 entities/s, 3960 RU/s,") {
		t.Errorf("charged: %v", p)
	}
	for name, v := range props(chargedReport(false)) {
		if strings.Contains(name, "request_units") || strings.Contains(v, "RU") {
			t.Errorf("uncharged: %s=%s", name, v)
		}
	}
}

// fixed gives figures thousands separators and a fixed number of decimals.
func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		f      float64
		digits int
		want   string
	}{
		{11984.33, 2, "11,984.33"}, {11984.333, 0, "11,984"}, {0.5, 2, "0.50"}, {-1234.5, 1, "-1,234.5"}, {-0.001, 2, "0.00"}, {1e6, 1, "1,000,000.0"},
	} {
		if got := fixed(tc.f, tc.digits); got != tc.want {
			t.Errorf("fixed(%v, %d) = %q, want %q", tc.f, tc.digits, got, tc.want)
		}
	}
}
