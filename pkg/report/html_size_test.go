package report

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// bigRun is a 5 s run of scheme over parts partitions, built as a run
// builds its report (a metrics registry, then Build): partition i serves
// about busiest/(i+1) entities over the five seconds (a few busy
// partitions, a long tail of one or two writes each), the first one
// throttled on one write in ten.
func bigRun(scheme string, parts, busiest int) *Report {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := metrics.NewRegistry(metrics.Options{Start: t0, End: t0.Add(5 * time.Second)})
	rec := reg.NewRecorder()
	ok, busy := outcome.New(201, ""), outcome.New(503, "ServerBusy")
	for i := 0; i < parts; i++ {
		key := fmt.Sprintf("%s-user-%06d_2025-02-04", scheme, i)
		n := max(busiest/(i+1), 1+i%2)
		for k := 0; k < n; k++ {
			at := t0.Add(time.Duration((int64(k)*5_000_000_000)/int64(n)) + time.Duration(i%997)*time.Microsecond)
			o := ok
			if i == 0 && k%10 == 0 {
				o = busy
			}
			rec.Request(metrics.Request{Op: metrics.Insert, Partition: key, Outcome: o, Entities: 1, At: at, Start: at})
			rec.Done(metrics.Insert, key, at, at.Add(time.Duration(1+k%7)*time.Millisecond), o == ok)
		}
		if i%5000 == 0 {
			reg.Tick(t0.Add(time.Duration(i) * time.Microsecond))
		}
	}
	r := Build(Meta{Scenario: "notify", Scheme: scheme, Run: RunInfo{Mode: "open", Workers: 64, Seed: 1, PartitionTarget: 2000}},
		reg.Finish(t0.Add(5*time.Second)))
	r.EvaluateThresholds([]string{"max_partition_peak < 2000", "p99(insert) < 50ms"})
	return r
}

// bigCompare is a 5 s compare of three schemes over 30,000 partitions each.
func bigCompare() []*Report {
	return []*Report{bigRun("user-idx", 30_000, 10_000), bigRun("kind-hour", 30_000, 4_000), bigRun("hash-16", 30_000, 50)}
}

// The HTML of a 5 s compare of three schemes over 30,000 partitions each
// embeds what the page draws, not every partition: it stays under 2 MB,
// while the JSON report keeps every partition.
func TestHTMLSizeFollowsWhatItDraws(t *testing.T) {
	reps := bigCompare()
	for _, r := range reps {
		if len(r.Partitions) != 30_000 {
			t.Fatalf("%s: %d partitions, want 30,000", r.Scheme, len(r.Partitions))
		}
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, reps...); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, &Compare{Schema: SchemaCompare, Runs: reps}); err != nil {
		t.Fatal(err)
	}
	t.Logf("HTML %d bytes (ECharts %d), JSON %d bytes", h.Len(), len(echartsJS), js.Len())
	if h.Len() >= 2_000_000 {
		t.Errorf("the HTML is %d bytes, want under 2 MB", h.Len())
	}
	if dst := os.Getenv("TABLESTRESS_BIG_HTML"); dst != "" { // to look at the page
		os.WriteFile(dst, h.Bytes(), 0o644)
	}
}

// Every figure the page writes in its tables and sentences carries
// thousands separators: 11984.33 rows visited per question is 11,984.33.
func TestHTMLNumbersHaveSeparators(t *testing.T) {
	r := richReport("constant", true)
	withLongWhy(r)
	q := r.Questions["newest-by-device"]
	q.Sums.Visited = 479_373 // 11,984.325 a question
	ru := 1234.5
	q.RequestUnitsPerQuestion = &ru
	q.derive()
	q.RequestUnitsPerQuestion = &ru
	r.Questions["newest-by-device"] = q
	r.Totals.Ops, r.Totals.Dropped, r.Totals.Failed = 1_234_567, 98_765, 4_321
	r.DurationS, r.Run.Workers = 12_345.6, 2_000
	var b bytes.Buffer
	if err := WriteHTML(&b, r, bigRun("big", 2_000, 10_000)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// What the reader sees: the page without its scripts, styles and the
	// scenario's source, its tags, dates, keys, and the thresholds and flag
	// values as they are written.
	for _, re := range []string{`(?s)<script.*?</script>`, `(?s)<style.*?</style>`, `(?s)<pre>.*?</pre>`, `<[^>]*>`} {
		page = regexp.MustCompile(re).ReplaceAllString(page, " ")
	}
	page = html.UnescapeString(page)
	for _, re := range []string{`\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d)?`, `[\w-]*\d[\w-]*-\w+`, `[a-z_0-9]+(\([^)]*\))? [<>=!]+ \S+`, `--[\w-]+ \(?(to about )?\d+`} {
		page = regexp.MustCompile(re).ReplaceAllString(page, " ")
	}
	if bad := regexp.MustCompile(`\b\d{4,}(\.\d+)?\b`).FindAllString(page, -1); len(bad) > 0 {
		t.Errorf("figures without separators: %q in %s", bad, regexp.MustCompile(`.{0,80}\b\d{4,}\b.{0,20}`).FindAllString(page, 3))
	}
	for _, want := range []string{"11,984.33", "1,234.50", "1,234,567", "12,345.6s", "2,000 workers"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
