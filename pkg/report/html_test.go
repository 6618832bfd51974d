package report

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// richReport is a report with every section filled: 60 partitions (the
// heatmap names the busiest and folds the rest), a last second cut short
// (the run stopped 0.4 s into its 20th second, serving 40% of a second's
// entities there), and, for the hot one, a search for its limit.
func richReport(scheme string, hot bool) *Report {
	r := sampleReport()
	r.Scheme = scheme
	r.DurationS = 19.4
	r.ScenarioSource = "name: hot\n# </script><script>alert(1)</script>\n"
	r.Operations["point_read"] = Stats{Counts: metrics.Counts{Ops: 100, Requests: 100}, Latency: Latency{P50: 0.5, P90: 1, P99: 3, P999: 5, Max: 9}}
	r.Heatmap = &Heatmap{BinSeconds: 1}
	perSecond := make([]int64, 20) // every partition's entities, second by second
	for p := 0; p < 60; p++ {
		row := make([]int64, 20)
		for b := range row {
			row[b] = int64(5 * (60 - p))
			if hot && p == 0 {
				row[b] = 2400
			}
			if b == 19 { // 0.4 s of the last second
				row[b] = row[b] * 2 / 5
			}
			perSecond[b] += row[b]
		}
		key := fmt.Sprintf("tenant-%03d_2025-02-04-with-a-long-suffix", p)
		if p < 50 {
			r.Heatmap.Partitions = append(r.Heatmap.Partitions, key)
			r.Heatmap.Entities = append(r.Heatmap.Entities, row)
		}
		r.Partitions = append(r.Partitions, Partition{PartitionKey: key, Counts: metrics.Counts{Requests: 100, Entities: row[0] * 19},
			EntitiesPerSec: float64(row[0]), PeakEntitiesPerSec: float64(row[0] + 10), OverTarget: hot && p == 0})
	}
	for s := 0; s < 20; s++ {
		ops := int64(6000)
		if s == 19 {
			ops = 2400
		}
		r.Intervals = append(r.Intervals, Interval{Second: s, Counts: metrics.Counts{Ops: ops, Requests: ops, Entities: perSecond[s], Throttled: 2 * ops / 3},
			P50: 1, P90: 2, P99: 5 + float64(s%3), Max: 12, Hottest: "Orders", HottestEntities: 2000})
	}
	if hot {
		r.Find = &Find{Rule: "over 1% of requests throttled", LimitOpsPerSec: 39.375, LimitEntitiesPerSec: 1966.7, FailedAtOpsPerSec: 41.25,
			LimitedBy: "partition target (Orders)", Steps: []FindStep{
				{Rate: 120, EntitiesPerSec: 2000, ThrottledPct: 66.7, Why: "66.7% of requests throttled"},
				{Rate: 30, EntitiesPerSec: 1500, OK: true}, {Rate: 41.25, EntitiesPerSec: 2016, ThrottledPct: 1.6, Why: "1.6% of requests throttled"},
				{Rate: 39.375, EntitiesPerSec: 1966.7, OK: true}}}
	}
	r.EvaluateThresholds([]string{"p99(insert) < 10ms", "max_partition_peak < 2000"})
	return r
}

func TestHTMLIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, richReport("constant", true), richReport("hash-buckets", false)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// Nothing is fetched: no external scripts, stylesheets, images or fetches.
	for _, re := range []string{`<script[^>]+src=`, `<link[^>]+href=`, `<img[^>]+src=["']?https?:`, `fetch\(`, `XMLHttpRequest`} {
		if regexp.MustCompile(re).MatchString(strings.ReplaceAll(page, echartsJS, "")) {
			t.Errorf("the page matches %s: it would load something", re)
		}
	}
	// The scenario's text cannot close a script element.
	if strings.Count(page, "<script>alert(1)</script>") != 0 {
		t.Error("the scenario source is not escaped")
	}
	for _, want := range []string{"Comparison", "Scheme constant", "Scheme hash-buckets", "FAIL", "id=\"heatmap-1\"", "tablestress-data"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// headless runs Chromium headless on the page and returns its stdout and
// stderr (where --enable-logging=stderr writes the page's console).
func headless(t *testing.T, browser, dir string, args ...string) ([]byte, string) {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(dir, "profile"), "--virtual-time-budget=10000"}
	cmd := exec.Command(browser, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, errb.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatal("chromium did not finish in 90 s")
	}
	return out.Bytes(), errb.String()
}

// The page loads in headless Chromium with no script error and draws every
// chart; the screenshot shows them.
func TestHTMLDrawsInChromium(t *testing.T) {
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, _ := os.Create(page)
	r := richReport("constant", true)
	withLongWhy(r)
	if err := WriteHTML(f, r, richReport("hash-buckets", false)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	domBytes, console := headless(t, browser, dir, "--enable-logging=stderr", "--v=0", "--window-size=1300,4000", "--dump-dom", "file://"+page)
	dom := string(domBytes)
	for _, l := range strings.Split(console, "\n") {
		if strings.Contains(l, ":CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("the page logged to the console: %s", l)
		}
	}
	body := regexp.MustCompile(`<body [^>]*>`).FindString(dom)
	if strings.Contains(body, "data-errors") {
		t.Fatalf("script or console errors: %s", body)
	}
	if strings.Contains(body, "data-missing") {
		t.Errorf("chart elements left empty: %s", body)
	}
	// At 1,300 pixels every table fits: long verdicts and reasons wrap.
	if m := regexp.MustCompile(`data-overflow="(\d+)"`).FindStringSubmatch(body); m != nil {
		t.Errorf("the page is %s pixels wide in a window of 1,300", m[1])
	}
	m := regexp.MustCompile(`data-charts="(\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the report script did not finish: %q", body)
	}
	// The comparison's four charts (entities/s by scheme, busiest peak and
	// throttled share, load spread over partitions, latency by operation)
	// and its questions' chart, then each run's throughput, latency,
	// operations, partitions and heatmap, and the hot run's search.
	if n, _ := strconv.Atoi(m[1]); n != 4+1+2*5+1 {
		t.Errorf("%d charts drawn, want 16", n)
	}
	if c := strings.Count(dom, "<canvas"); c < 15 {
		t.Errorf("%d canvases in the page, want at least 15", c)
	}
	// The last second, 0.4 s of the window with 40% of a second's
	// entities, is drawn at the rate it ran at: no drop at the chart's end.
	if !strings.Contains(body, `data-last-entities="throughput-0:11250 throughput-1:9150"`) {
		t.Errorf("the last second's rate is not the run's rate (11,250 and 9,150 entities/s): %s", body)
	}
	shot := filepath.Join(dir, "shot.png")
	_, _ = headless(t, browser, dir, "--window-size=1400,4000", "--screenshot="+shot, "file://"+page)
	if dst := os.Getenv("TABLESTRESS_SCREENSHOT"); dst != "" { // to look at the page
		data, _ := os.ReadFile(shot)
		os.WriteFile(dst, data, 0o644)
	}
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	// Charts are colourful: count distinct colours and coloured pixels.
	colours := map[uint32]bool{}
	coloured := 0
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y += 2 {
		for x := bnd.Min.X; x < bnd.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			colours[r<<16|g<<8|b] = true
			if max(r, g, b)-min(r, g, b) > 60 {
				coloured++
			}
		}
	}
	if len(colours) < 200 || coloured < 5000 {
		t.Errorf("the screenshot looks empty: %d colours, %d coloured pixels", len(colours), coloured)
	}
}

// withLongWhy gives r a question whose plan's reason is a long sentence,
// as a scan's is, which the page must wrap.
func withLongWhy(r *Report) {
	q := Question{QuestionPlan: QuestionPlan{Name: "newest-by-device", Plan: "scan",
		Why: "the RowKey does not order rows newest first: the whole partition is read, sorted on the client and cut to the newest 50"}}
	q.Ops, q.Requests, q.Sums = 40, 80, metrics.QuestionFigures{Partitions: 40, Visited: 40_000, VisitedByService: 80, Pages: 80, Returned: 2_000}
	q.derive()
	r.Questions = map[string]Question{q.Name: q}
}
