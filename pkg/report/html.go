package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// The HTML report embeds Apache ECharts (assets/ECHARTS-LICENSE), so the
// file works offline and fetches nothing.
var (
	//go:embed assets/echarts-5.6.0.min.js
	echartsJS string
	//go:embed assets/report.js
	reportJS string
	//go:embed assets/report.css
	reportCSS string
)

// WriteHTML writes one self-contained HTML file for a run or a comparison
// (decided as NewCompare decides it): summary and per-operation tables,
// thresholds, throughput and throttling over time, latency percentiles
// over time, a partition heatmap with the target marked, the partition
// load distribution, per-operation latency distributions, and the
// scenario. It loads no resource from the network, and embeds what it
// draws (pageOf), not every partition of the runs.
func WriteHTML(w io.Writer, reps ...*Report) error {
	switch len(reps) {
	case 0:
		return fmt.Errorf("report: nothing to render")
	case 1:
		return writeHTML(w, nil, reps)
	}
	return WriteHTMLDoc(w, NewCompare(reps, nil, nil))
}

// WriteHTMLDoc writes the HTML file of a comparison: its decision at the
// top, then its table and charts with the schemes best first, then each
// scheme's run.
func WriteHTMLDoc(w io.Writer, c *Compare) error {
	if len(c.Runs) == 0 {
		return fmt.Errorf("report: nothing to render")
	}
	ds := c.Decided()
	reps, rk := rankedRuns(c.Runs, ds)
	return writeHTML(w, &htmlCompare{c: c, ds: ds, rk: rk}, reps)
}

// htmlCompare is what the page of a comparison shows besides its runs.
type htmlCompare struct {
	c  *Compare
	ds []Decision
	rk ranking
}

// writeHTML writes the page of reps, with the comparison's sections when
// hc is not nil.
func writeHTML(w io.Writer, hc *htmlCompare, reps []*Report) error {
	page := pageData{Runs: make([]pageRun, len(reps))}
	for i, r := range reps {
		page.Runs[i] = pageOf(r)
	}
	data, err := json.Marshal(page) // json.Marshal escapes <, > and &, so the data cannot end the script element
	if err != nil {
		return err
	}
	ew := &textfit.Printer{W: w}
	e := html.EscapeString
	r0 := reps[0]
	title := "tablestress: " + r0.Scenario
	if hc == nil {
		title += ", scheme " + r0.Scheme
	} else {
		title += ", " + fmt.Sprint(len(reps)+len(hc.c.NotRun)) + " schemes compared"
	}
	ew.Printf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	ew.Printf("<title>%s</title>\n<style>%s</style>\n</head><body>\n", e(title), reportCSS)
	model := ""
	if m := models(reps); m != "" {
		model = ", model " + m + clockNote(r0.Run)
	}
	ew.Printf("<header><h1>%s</h1><p>%s%s; started %s, seed %d</p></header>\n<main>\n",
		e(title), e(RunHow(r0)), e(model), e(r0.StartedAt.Format("2006-01-02 15:04:05 MST")), r0.Run.Seed)
	if hc != nil {
		writeDecisionHTML(ew, hc, reps)
		writeCompareHTML(ew, hc, reps)
	}
	for i, r := range reps {
		writeRunHTML(ew, i, r)
	}
	if src := r0.ScenarioSource; src != "" {
		ew.Printf("<section><h2>Scenario</h2><pre>%s</pre></section>\n", e(src))
	}
	ew.Printf("</main>\n<script>%s</script>\n", echartsJS)
	ew.Printf("<script type=\"application/json\" id=\"tablestress-data\">%s</script>\n", data)
	ew.Printf("<script>%s</script>\n</body></html>\n", reportJS)
	return ew.Err
}

// writeCompareHTML writes the comparison's section: its table, the limits
// found, its charts and its questions.
func writeCompareHTML(ew *textfit.Printer, hc *htmlCompare, reps []*Report) {
	e := html.EscapeString
	ew.Printf("<section><h2>Comparison</h2>\n")
	writeCompareTable(ew, hc, reps)
	if reps[0].Find != nil {
		ew.Printf("<h3>Limits found</h3><ul>\n")
		for _, r := range reps {
			if r.Find != nil {
				ew.Printf("<li><b>%s</b> %s</li>\n", e(r.Scheme), e(r.Find.Sentence()))
			}
		}
		ew.Printf("</ul>\n")
	}
	ew.Printf("<div class=\"grid\"><div id=\"compare\" class=\"chart\"></div><div id=\"compare-peak\" class=\"chart\"></div>\n")
	ew.Printf("<div id=\"compare-spread\" class=\"chart\"></div><div id=\"compare-latency\" class=\"chart\"></div></div>\n")
	if hasQuestions(reps) {
		ew.Printf("<h3>Questions</h3>\n")
		writeQuestionsHTML(ew, reps)
		ew.Printf("<div id=\"compare-questions\" class=\"chart\"></div>\n")
	}
	ew.Printf("</section>\n")
}

// writeCharts writes the chart elements of run i that its data can fill
// (report.js draws one into each).
func writeCharts(ew *textfit.Printer, i int, r *Report) {
	var charts []string
	if r.Find != nil && len(r.Find.Steps) > 0 {
		ew.Printf("<p class=\"verdict\">%s %s</p>\n", html.EscapeString(r.Scheme), html.EscapeString(r.Find.Sentence()))
		charts = append(charts, "find")
	}
	if len(r.Intervals) > 0 {
		charts = append(charts, "throughput", "latency")
	}
	if len(r.Operations) > 0 {
		charts = append(charts, "operations")
	}
	for _, p := range r.Partitions {
		if p.PartitionKey != "*" {
			charts = append(charts, "distribution")
			if r.Charged() {
				charts = append(charts, "units")
			}
			break
		}
	}
	ew.Printf("<div class=\"grid\">")
	for _, c := range charts {
		ew.Printf("<div id=\"%s-%d\" class=\"chart\"></div>", c, i)
	}
	ew.Printf("</div>\n")
	if r.Heatmap != nil && len(r.Heatmap.Partitions) > 0 {
		ew.Printf("<div id=\"heatmap-%d\" class=\"chart tall\"></div>\n", i)
	}
}

// badTD is a table cell, marked bad when bad: a failure.
func badTD(text string, bad bool) string {
	if bad {
		return "<td class=\"bad\">" + html.EscapeString(text) + "</td>"
	}
	return "<td>" + html.EscapeString(text) + "</td>"
}
