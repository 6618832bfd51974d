package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// runTerm executes a command line as on a terminal of the given width
// (stdout and stderr terminals, COLUMNS unset) or, with width 0, with the
// environment vars given; it returns the exit code and output.
func runTerm(t *testing.T, width int, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(""),
		hard: context.Background(), isTerminal: width > 0, errTerminal: width > 0, termWidth: func(int) int { return width }}
	code := execute(context.Background(), args, e)
	return code, out.String(), errb.String()
}

// longLines lists the lines of s over width characters (colour excluded).
func longLines(s string, width int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if textfit.Len(l) > width {
			out = append(out, l)
		}
	}
	return out
}

// With COLUMNS=100 no line run, compare, keys or schemes prints is longer
// than 100 characters; --wide keeps every column whatever COLUMNS says.
func TestOutputFitsColumns(t *testing.T) {
	cols := map[string]string{"COLUMNS": "100"}
	quick := []string{"--duration", "2s", "--warmup", "0s", "--entities", "1000", "--rate", "100", "--quiet"}
	for _, args := range [][]string{
		append([]string{"run", "../../scenarios/quickstart.yaml"}, quick...),
		append([]string{"compare", "../../scenarios/hot-partition.yaml"}, quick...),
		{"keys", "../../scenarios/iot-telemetry.yaml"},
		{"keys", "../../scenarios/blog-posts.yaml"},
		{"schemes"},
	} {
		code, out, errs := runTerm(t, 0, cols, args...)
		if code != exitOK && code != exitThreshold {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		if long := longLines(out, 100); len(long) > 0 {
			t.Errorf("%s: %d line(s) over 100 columns, like\n%s", args[0], len(long), long[0])
		}
		if strings.Contains(out, "\x1b[") {
			t.Errorf("%s: colour on a pipe", args[0])
		}
	}
	code, out, _ := runTerm(t, 0, cols, "schemes", "--wide")
	if code != exitOK || len(longLines(out, 100)) == 0 || !strings.Contains(out, "NAME ") {
		t.Errorf("--wide: exit %d, want the full table:\n%.300s", code, out)
	}
}

// On a terminal, FAIL, hot partitions and throttling are in colour, and the
// table fits the terminal's own width; NO_COLOR turns the colour off.
func TestColourOnTerminal(t *testing.T) {
	// A report whose partition is throttled at its target, built from
	// recorded requests: the colours are under test, not this machine's
	// ability to push a partition to its target.
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	reg := metrics.NewRegistry(metrics.Options{Start: t0, End: t0.Add(3 * time.Second), PartitionTarget: 2000})
	rec := reg.NewRecorder()
	for s := 0; s < 3; s++ {
		at := t0.Add(time.Duration(s)*time.Second + 10*time.Millisecond)
		rec.Request(metrics.Request{Op: metrics.Batch, Partition: "Orders", Outcome: outcome.New(202, ""), Entities: 1950, At: at})
		rec.Request(metrics.Request{Op: metrics.Batch, Partition: "Orders", Outcome: outcome.New(503, "ServerBusy"), At: at})
	}
	r := report.Build(report.Meta{Scenario: "hot-partition", Scheme: "constant", Run: report.RunInfo{PartitionTarget: 2000}}, reg.Finish(t0.Add(3*time.Second)))
	path := filepath.Join(t.TempDir(), "report.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, out, errs := runTerm(t, 90, nil, "report", path)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	red := regexp.QuoteMeta("\x1b[1;31m")
	if !regexp.MustCompile(red + `(OVER TARGET|HOT)`).MatchString(out) {
		t.Errorf("no red verdict on a terminal:\n%s", out)
	}
	if long := longLines(out, 90); len(long) > 0 {
		t.Errorf("a line over the terminal's 90 columns: %q", long[0])
	}
	_, out, _ = runTerm(t, 90, map[string]string{"NO_COLOR": "1"}, "report", path)
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour despite NO_COLOR:\n%s", out)
	}
}

// The live status line on a 60-column terminal never reaches the last
// column (a redraw would leave a wrapped line behind), says "warming up"
// with the warm-up's elapsed/total during the warm-up, and elapsed/total
// during the run.
func TestLiveLineFitsTerminal(t *testing.T) {
	code, _, errs := runTerm(t, 60, nil, "run", "../../scenarios/hot-partition.yaml", "--duration", "2s", "--warmup", "3s")
	if code != exitOK && code != exitThreshold {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, seg := range regexp.MustCompile("[\r\n]").Split(errs, -1) {
		if n := textfit.Len(strings.TrimRight(seg, " ")); n > 59 {
			t.Errorf("status line of %d columns on a 60-column terminal: %q", n, seg)
		}
		if textfit.Len(seg) > 59 {
			t.Errorf("status line padded to %d columns: %q", textfit.Len(seg), seg)
		}
	}
	// The run lives on the virtual clock (the default on the embedded
	// service in process), and its elapsed times say so.
	if !regexp.MustCompile(`\[constant\] warming up  [0-3]s/3s virtual`).MatchString(errs) {
		t.Errorf("no warming-up progress:\n%q", errs)
	}
	if !regexp.MustCompile(`\[constant\] [12]s/2s virtual  [0-9,.]+ ops/s`).MatchString(errs) {
		t.Errorf("no elapsed/total in the run's status line:\n%q", errs)
	}
}

// keys labels a one-partition scheme as such (no Gini for a single
// partition), shows append-only's busiest partition as the judge finds it
// (a new partition per entity, each taking its one row), and gives each
// scheme the same load Gini in its section and in the summary.
func TestKeysLabels(t *testing.T) {
	code, out, errs := runCLI(t, "keys", "../../scenarios/hot-partition.yaml", "--wide")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	row := regexp.MustCompile(`(?m)^constant\s+1\s+100%\s+6,000\s+-\s+one partition\s+hot: partition "Orders"`)
	if !row.MatchString(out) {
		t.Errorf("constant is not labelled one partition:\n%s", out)
	}
	code, out, _ = runCLI(t, "keys", "../../scenarios/append-only.yaml", "--wide", "--ops", "10000", "--rate", "4000")
	if code != exitOK || !regexp.MustCompile(`(?m)^append-only\s+10,000\s+0\.01%\s+1\.00\s`).MatchString(out) ||
		!strings.Contains(out, `at the horizon "(a new partition per entity)" takes 1.00 entities/s`) {
		t.Errorf("append-only's busiest partition should take its one row:\n%s", out)
	}
	code, out, _ = runCLI(t, "keys", "../../scenarios/multi-tenant.yaml", "--wide")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	section := regexp.MustCompile(`(?s)scheme (\S+)\n.*?load Gini (\S+)`)
	found := 0
	for _, m := range section.FindAllStringSubmatch(out, -1) {
		summary := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(m[1]) + `\s+[\d,]+\s+\S+\s+\S+\s+(\S+)\s`).FindStringSubmatch(out)
		if summary == nil || summary[1] != m[2] {
			t.Errorf("scheme %s: load Gini %s in its section, %v in the summary", m[1], m[2], summary)
		}
		found++
	}
	if found < 2 {
		t.Errorf("%d scheme sections found:\n%s", found, out)
	}
}
