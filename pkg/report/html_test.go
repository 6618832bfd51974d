package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
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

// pageWidth is the window the page is checked in: every table fits it.
// pageHeight is the window's height, taller than any page checked, so the
// whole page is laid out and shot at once, with no scroll bar.
const (
	pageWidth  = 1300
	pageHeight = 12000
)

// drawnPage is a page as headless Chromium drew it: its <body> tag, with
// what report.js recorded on it, and a screenshot of the whole page.
type drawnPage struct {
	body string
	shot image.Image
}

// attr is the value of the body's attribute name, "" when it has none.
func (d drawnPage) attr(name string) string {
	if m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(d.body); m != nil {
		return m[1]
	}
	return ""
}

// drawInChromium writes reps as a page, loads it in headless Chromium at
// pageWidth x pageHeight, fails the test on any script or console error,
// and shoots it at the same size.
func drawInChromium(t *testing.T, reps ...*Report) drawnPage {
	t.Helper()
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, reps...); err != nil {
		t.Fatal(err)
	}
	f.Close()
	size := fmt.Sprintf("--window-size=%d,%d", pageWidth, pageHeight)
	domBytes, console := headless(t, browser, dir, "--enable-logging=stderr", "--v=0", size, "--dump-dom", "file://"+page)
	for _, l := range strings.Split(console, "\n") {
		if strings.Contains(l, ":CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("the page logged to the console: %s", l)
		}
	}
	d := drawnPage{body: regexp.MustCompile(`<body [^>]*>`).FindString(string(domBytes))}
	if d.attr("data-errors") != "" {
		t.Fatalf("script or console errors: %s", d.attr("data-errors"))
	}
	if d.attr("data-charts") == "" {
		t.Fatalf("the report script did not finish: %q", d.body)
	}
	if h, _ := strconv.Atoi(d.attr("data-height")); h == 0 || h > pageHeight {
		t.Fatalf("the page is %q pixels high; the window of %d must hold it all", d.attr("data-height"), pageHeight)
	}
	shot := filepath.Join(dir, "shot.png")
	_, _ = headless(t, browser, dir, size, "--hide-scrollbars", "--screenshot="+shot, "file://"+page)
	if dst := os.Getenv("TABLESTRESS_SCREENSHOT"); dst != "" { // to look at the page
		data, _ := os.ReadFile(shot)
		os.WriteFile(strings.Replace(dst, ".png", "-"+t.Name()+".png", 1), data, 0o644)
	}
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if d.shot, err = png.Decode(pf); err != nil {
		t.Fatal(err)
	}
	return d
}

// coloured reports whether a pixel is in a series' colours, not white,
// grey or black: report.js's rule.
func coloured(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return max(r, g, b)>>8-min(r, g, b)>>8 > 40
}

// checkCharts checks that every chart element holds a drawn chart: ECharts
// drew coloured pixels inside its grid, in the canvas (report.js counted
// them) and in the screenshot of the whole page, at least minInk pixels,
// and a heatmap over a fifth of its grid (its cells, not only its scale);
// and that the page fits its window's width.
func checkCharts(t *testing.T, d drawnPage, minInk int) {
	t.Helper()
	if d.attr("data-missing") != "" {
		t.Errorf("chart elements left empty: %s", d.attr("data-missing"))
	}
	if w := d.attr("data-overflow"); w != "" {
		t.Errorf("the page is %s pixels wide in a window of %d", w, pageWidth)
	}
	inks := strings.Fields(d.attr("data-ink"))
	t.Logf("coloured pixels / grid area: %s; grids: %s", d.attr("data-ink"), d.attr("data-grids"))
	if n, _ := strconv.Atoi(d.attr("data-charts")); n != len(inks) || n == 0 {
		t.Errorf("%d charts drawn, %d measured", n, len(inks))
	}
	enough := func(id string, ink, area int) bool {
		if strings.HasPrefix(id, "heatmap-") {
			return 5*ink >= area
		}
		return ink >= minInk
	}
	for _, f := range inks {
		id, v, _ := strings.Cut(f, ":")
		a, b, _ := strings.Cut(v, "/")
		ink, _ := strconv.Atoi(a)
		area, _ := strconv.Atoi(b)
		if !enough(id, ink, area) {
			t.Errorf("chart %s drew %d coloured pixels in its grid of %d: it looks blank", id, ink, area)
		}
	}
	for _, f := range strings.Fields(d.attr("data-grids")) {
		id, v, _ := strings.Cut(f, ":")
		var x, y, w, h int
		if _, err := fmt.Sscanf(v, "%d,%d,%d,%d", &x, &y, &w, &h); err != nil {
			t.Fatalf("grid %q: %v", f, err)
		}
		ink := 0
		for py := y; py < y+h; py++ {
			for px := x; px < x+w; px++ {
				if coloured(d.shot.At(px, py)) {
					ink++
				}
			}
		}
		if !enough(id, ink, w*h) {
			t.Errorf("chart %s shows %d coloured pixels in its grid of %dx%d in the screenshot: it looks blank", id, ink, w, h)
		}
	}
}

// The page loads in headless Chromium with no script error and draws every
// chart, each with coloured pixels in its plot, in the page and in the
// screenshot of the whole page; every table fits 1,300 pixels.
func TestHTMLDrawsInChromium(t *testing.T) {
	r := richReport("constant", true)
	withLongWhy(r)
	// A key as long as Azure allows wraps wherever it is written: the hot
	// partition's, in the tables, the verdicts and the thresholds.
	long := strings.Repeat("device-with-a-long-name_", 42)
	for i := range r.Partitions {
		if r.Partitions[i].PartitionKey == r.Heatmap.Partitions[0] {
			r.Partitions[i].PartitionKey, r.Heatmap.Partitions[0] = long, long
		}
	}
	r.EvaluateThresholds([]string{"p99(insert) < 10ms", "max_partition_peak < 2000"})
	other := richReport("hash-buckets", false)
	withLongWhy(other)
	d := drawInChromium(t, r, other)
	checkCharts(t, d, 800)
	// The comparison's four charts (entities/s by scheme, busiest peak and
	// throttled share, load spread over partitions, latency by operation)
	// and its questions' chart, then each run's throughput, latency,
	// operations, partitions and heatmap, and the hot run's search.
	if n, _ := strconv.Atoi(d.attr("data-charts")); n != 4+1+2*5+1 {
		t.Errorf("%d charts drawn, want 16", n)
	}
	// The last second, 0.4 s of the window with 40% of a second's
	// entities, is drawn at the rate it ran at: no drop at the chart's end.
	if got := d.attr("data-last-entities"); got != "throughput-0:11250 throughput-1:9150" {
		t.Errorf("the last second's rate is not the run's rate (11,250 and 9,150 entities/s): %s", got)
	}
}

// A compare of three schemes over 30,000 partitions each, embedded as its
// charts draw it, draws every chart, the per-scheme heatmaps included.
func TestHTMLOfABigCompareDrawsInChromium(t *testing.T) {
	d := drawInChromium(t, bigCompare()...)
	checkCharts(t, d, 800)
	if n, _ := strconv.Atoi(d.attr("data-charts")); n != 4+3*5 {
		t.Errorf("%d charts drawn, want 19: the comparison's 4, and each scheme's throughput, latency, operations, partitions and heatmap", n)
	}
}

// withLongWhy gives r a question whose plan's reason is a long sentence,
// as a scan's is, which the page must wrap.
func withLongWhy(r *Report) {
	q := Question{QuestionPlan: QuestionPlan{Name: "newest-by-device", Plan: "scan",
		Why: "the RowKey does not order rows newest first: the whole partition is read, sorted on the client and cut to the newest 50"}}
	q.Ops, q.Requests, q.Sums = 40, 80, metrics.QuestionFigures{Partitions: 40, Visited: 40_000, VisitedByService: 80, Pages: 80, Returned: 2_000}
	q.derive()
	// An index plan whose every question failed, and whose reason is long.
	ix := Question{QuestionPlan: QuestionPlan{Name: "notifications-of-kind-in-hour", Plan: "index", Index: "NotificationsByKindHour",
		Why: "the main table needs a table scan (the PartitionKey needs user, which the question does not know); the index NotificationsByKindHour: one partition, RowKey range from kind, time, then a point read per entity"}}
	ix.Ops, ix.Failed, ix.Requests, ix.Throttled, ix.Sums = 46, 46, 181, 181, metrics.QuestionFigures{Partitions: 46, Visited: 86_824, Pages: 46}
	ix.derive()
	r.Questions = map[string]Question{q.Name: q, ix.Name: ix}
}

// A run charged in request units draws its busiest partitions by RU/s
// against a physical partition's share too.
func TestHTMLOfAChargedRunDrawsInChromium(t *testing.T) {
	d := drawInChromium(t, chargedReport(true))
	checkCharts(t, d, 300)
	if !strings.Contains(d.attr("data-ink"), "units-0:") {
		t.Errorf("no request units chart: %s", d.attr("data-ink"))
	}
}

// The page says what the text says under the questions: a question never
// answered, and one the run's end cut short (unfinished), with the same
// sentences, in the comparison and in the scheme's own section.
func TestHTMLSaysUnfinishedQuestions(t *testing.T) {
	r := richReport("constant", true)
	withLongWhy(r)
	q := r.Questions["newest-by-device"]
	q.Sums.Unfinished, q.Sums.UnfinishedRequests = 3, 5
	q.derive()
	r.Questions["newest-by-device"] = q
	var b bytes.Buffer
	if err := WriteHTML(&b, r, richReport("hash-buckets", false)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	unfinished := "question newest-by-device under constant: 3 questions were still running when the run ended (unfinished: cut short by the end, neither answered nor failed); their 5 requests are in the requests and the totals"
	never := "question notifications-of-kind-in-hour under constant was never answered: all 46 asked failed after their retries"
	for _, want := range []string{unfinished, never, "question newest-by-device: 3 questions were still running when the run ended"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	var text bytes.Buffer
	if err := WriteCompare(&text, []*Report{r, richReport("hash-buckets", false)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), unfinished) || !strings.Contains(text.String(), never) {
		t.Errorf("the text says otherwise:\n%s", text.String())
	}
}
