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

// richReport is a report with every section filled.
func richReport(scheme string, hot bool) *Report {
	r := sampleReport()
	r.Scheme = scheme
	r.ScenarioSource = "name: hot\n# </script><script>alert(1)</script>\n"
	r.Operations["point_read"] = Stats{Counts: metrics.Counts{Ops: 100, Requests: 100}, Latency: Latency{P50: 0.5, P90: 1, P99: 3, P999: 5, Max: 9}}
	for s := 0; s < 20; s++ {
		r.Intervals = append(r.Intervals, Interval{Second: s, Counts: metrics.Counts{Ops: 6000, Requests: 6000, Entities: 2000 + int64(s), Throttled: 4000},
			P50: 1, P90: 2, P99: 5 + float64(s%3), Max: 12, Hottest: "Orders", HottestEntities: 2000})
	}
	r.Heatmap = &Heatmap{BinSeconds: 1}
	for p := 0; p < 12; p++ {
		row := make([]int64, 20)
		for b := range row {
			row[b] = int64(200 * p)
			if hot && p == 11 {
				row[b] = 2400
			}
		}
		r.Heatmap.Partitions = append(r.Heatmap.Partitions, fmt.Sprintf("part-%02d", p))
		r.Heatmap.Entities = append(r.Heatmap.Entities, row)
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

func headless(t *testing.T, browser, dir string, args ...string) []byte {
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
	return out.Bytes()
}

// The page loads in headless Chromium with no script error and draws every
// chart; the screenshot shows them.
func TestHTMLDrawsInChromium(t *testing.T) {
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, _ := os.Create(page)
	if err := WriteHTML(f, richReport("constant", true), richReport("hash-buckets", false)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dom := string(headless(t, browser, dir, "--dump-dom", "file://"+page))
	body := regexp.MustCompile(`<body data-(?:charts|errors)[^>]*>`).FindString(dom)
	if strings.Contains(body, "data-errors") {
		t.Fatalf("script errors: %s", body)
	}
	m := regexp.MustCompile(`data-charts="(\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the report script did not finish: %q", body)
	}
	// two comparison charts, then five per run
	if n, _ := strconv.Atoi(m[1]); n != 2+2*5 {
		t.Errorf("%d charts drawn, want 12", n)
	}
	if c := strings.Count(dom, "<canvas"); c < 12 {
		t.Errorf("%d canvases in the page, want at least 12", c)
	}
	shot := filepath.Join(dir, "shot.png")
	headless(t, browser, dir, "--window-size=1400,2400", "--screenshot="+shot, "file://"+page)
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
