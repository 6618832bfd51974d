// Command readmefigures re-runs every command of the Measured table of
// docs/architecture.md and prints, for each figure, the page's value beside what the
// command prints now, their ratio and a verdict: a time or a ratio fails
// when it is over MaxSlower times the figure, a size or an allocation count
// when it is off by more than CountTolerance. An absolute time is judged
// only on the processor its row names (the cpu column, thisCPU). bench/readme-figures.sh runs it from the
// repository's root.
//
// Exit status: 0 when every figure passes, 1 when one fails (or its command
// does), 2 for a page or flags it cannot read.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, shell))
}

// Runner runs a row's command in dir and returns what it printed (stdout
// and stderr together).
type Runner func(ctx context.Context, dir, command string) (string, error)

// shell runs a command with bash, as a reader pasting it would.
func shell(ctx context.Context, dir, command string) (string, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// run checks the page's Measured table as the command line asks and
// returns the exit status: 0 when every judged figure passes (or -list), 1
// when one fails, 2 for flags or a page it cannot read.
func run(args []string, stdout, stderr io.Writer, runCmd Runner) int {
	o, ok := parseFlags(args, stderr)
	if !ok {
		return 2
	}
	rows, picked, ok := o.rows(stderr)
	if !ok {
		return 2
	}
	if o.list {
		for _, k := range picked {
			fmt.Fprintf(stdout, "%d\t%s:%d\t%s\n\t%s\n", k+1, o.page, rows[k].Line, rows[k].What, rows[k].Command)
		}
		return 0
	}
	writeHeader(stdout, o, len(picked), len(rows))
	c := checker{o: o, t: newTable(stdout), stderr: stderr, runCmd: runCmd}
	for _, k := range picked {
		c.row(k, rows[k])
	}
	fmt.Fprintf(stdout, "\n%d of %d figures ok, %d not judged (absolute times measured on another CPU)%s\n", c.passed, c.total, c.unjudged, loadAverage())
	if len(c.failed) > 0 {
		fmt.Fprintf(stdout, "FAIL: rows %s\n", strings.Join(c.failed, ", "))
		return 1
	}
	return 0
}

// options are run's flags.
type options struct {
	page, only string
	runs       int
	list       bool
	cpu        string
}

// parseFlags reads run's flags; false (after saying why on stderr) when
// they are not flags alone or -runs is below 1.
func parseFlags(args []string, stderr io.Writer) (options, bool) {
	fs := flag.NewFlagSet("readme-figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.page, "page", "docs/architecture.md", "the page of the manual whose Measured table to check")
	fs.StringVar(&o.only, "rows", "", "comma-separated row numbers to run (1 is the table's first row); default every row")
	fs.IntVar(&o.runs, "runs", 1, "times to run each command; the median of what they print is compared")
	fs.BoolVar(&o.list, "list", false, "print the rows and their commands without running them")
	fs.StringVar(&o.cpu, "cpu", thisCPU(), "the processor to judge as: absolute times are judged only on rows measured on it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bench/readme-figures.sh [-rows 1,3] [-runs N] [-list] [-page FILE] [-cpu NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, false
	}
	if fs.NArg() > 0 || o.runs < 1 {
		fmt.Fprintf(stderr, "readme-figures: want flags only and -runs of at least 1, got %q\n", args)
		fs.Usage()
		return o, false
	}
	return o, true
}

// rows reads the page's Measured table and the indexes of the rows
// -rows picks; false (after saying why on stderr) when either is bad.
func (o options) rows(stderr io.Writer) ([]Row, []int, bool) {
	text, err := os.ReadFile(o.page)
	if err != nil {
		fmt.Fprintln(stderr, "readme-figures:", err)
		return nil, nil, false
	}
	rows, err := ParseTable(o.page, string(text))
	if err != nil {
		fmt.Fprintln(stderr, "readme-figures:", err)
		return nil, nil, false
	}
	picked, err := pickRows(o.only, len(rows))
	if err != nil {
		fmt.Fprintln(stderr, "readme-figures: -rows:", err)
		return nil, nil, false
	}
	return rows, picked, true
}

// writeHeader says what is checked, on which Go, machine and CPU, how
// figures are judged, and warns when the load would put times off.
func writeHeader(stdout io.Writer, o options, picked, rows int) {
	fmt.Fprintf(stdout, "readme-figures: %s, %d of %d rows, each command run %d time(s); %s %s/%s, %d CPUs%s\n",
		o.page, picked, rows, o.runs, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), loadAverage())
	fmt.Fprintf(stdout, "cpu: %s\n", o.cpu)
	fmt.Fprintf(stdout, "a time or a ratio fails over %.1f× its figure; a size or an allocation count fails off it by more than %.0f%%;\n"+
		"an absolute time is judged only on the cpu it was measured on (a ratio measured in one run, a size or a count on any)\n",
		MaxSlower, CountTolerance*100)
	if load, ok := load1(); ok && load > float64(runtime.NumCPU())/2 {
		fmt.Fprintf(stdout, "warning: the 1-minute load average is %.2f on %d CPUs: while something else runs, times are off\n", load, runtime.NumCPU())
	}
	fmt.Fprintln(stdout)
}

// checker runs rows and judges their figures into its table, counting
// the figures judged, passed and not judged, and naming the failed rows.
type checker struct {
	o                       options
	t                       *table
	stderr                  io.Writer
	runCmd                  Runner
	total, passed, unjudged int
	failed                  []string
}

// row runs row k's command o.runs times (from the repository's top directory) and
// judges each of its figures: an absolute time measured on another CPU is
// printed, not judged, unless its command failed.
func (c *checker) row(k int, row Row) {
	fmt.Fprintf(c.stderr, "row %d (%s:%d): %s\n", k+1, c.o.page, row.Line, row.Command)
	res, cmdErr := runRow(c.runCmd, topDir(c.o.page), row.Command, c.o.runs)
	if cmdErr != nil {
		fmt.Fprintf(c.stderr, "row %d: %v\n", k+1, cmdErr)
	}
	rowOK := true
	for _, f := range row.Figures {
		if absolute(f) && row.CPU != c.o.cpu && cmdErr == nil {
			c.unjudged++
			now, _, _, _ := judgeFigure(f, res, nil)
			c.t.add(strconv.Itoa(k+1), row.What, f.Text, now, "-", notJudged(row.CPU))
			continue
		}
		c.total++
		now, ratio, verdict, ok := judgeFigure(f, res, cmdErr)
		if ok {
			c.passed++
		} else {
			rowOK = false
		}
		c.t.add(strconv.Itoa(k+1), row.What, f.Text, now, ratio, verdict)
	}
	if !rowOK {
		c.failed = append(c.failed, strconv.Itoa(k+1))
	}
}

// runRow runs a row's command runs times and returns the benchmark results
// it printed; the error of a failing run includes the end of its output.
func runRow(runCmd Runner, dir, command string, runs int) ([]Result, error) {
	var res []Result
	for range runs {
		out, err := runCmd(context.Background(), dir, command)
		if err != nil {
			return nil, fmt.Errorf("the command failed (%v); its output ends:\n%s", err, tail(out, 20))
		}
		res = append(res, ParseResults(out)...)
	}
	return res, nil
}

// judgeFigure measures a figure in a row's results and returns the
// columns NOW, RATIO and RESULT of its line and whether it passes.
func judgeFigure(f Figure, res []Result, cmdErr error) (now, ratio, verdict string, ok bool) {
	if cmdErr != nil {
		msg, _, _ := strings.Cut(cmdErr.Error(), ";")
		return "-", "-", "FAIL: " + msg, false
	}
	v, err := Measure(res, f.Metric)
	if err != nil {
		return "-", "-", "FAIL: " + err.Error(), false
	}
	r, ok := f.Judge(v)
	ratio = "-"
	if !math.IsNaN(r) {
		ratio = strconv.FormatFloat(r, 'f', 2, 64)
	}
	return f.Format(v), ratio, verdictOf(f, r, ok), ok
}

// verdictOf is the result column of a judged figure.
func verdictOf(f Figure, ratio float64, ok bool) string {
	switch {
	case !ok && f.Kind == Time:
		return fmt.Sprintf("FAIL: over %.1f×", MaxSlower)
	case !ok:
		return fmt.Sprintf("FAIL: off by over %.0f%%", CountTolerance*100)
	case f.Kind == Time && ratio < 1/MaxSlower:
		return "ok (faster: the page's figure may be stale)"
	}
	return "ok"
}

// notJudged is the result column of an absolute time measured on another
// CPU, or on one the page does not name (NotRecorded).
func notJudged(cpu string) string {
	if cpu == NotRecorded {
		return "CPU not recorded: not judged"
	}
	return "other CPU: not judged (measured on " + cpu + ")"
}

// pickRows parses -rows into 0-based indexes; empty means every row.
func pickRows(spec string, n int) ([]int, error) {
	var out []int
	if strings.TrimSpace(spec) == "" {
		for k := range n {
			out = append(out, k)
		}
		return out, nil
	}
	for _, s := range strings.Split(spec, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 1 || k > n {
			return nil, fmt.Errorf("%q is not a row number from 1 to %d", s, n)
		}
		out = append(out, k-1)
	}
	return out, nil
}

// loadAverage is ", load average X" (see load1), or "" where there is
// none: figures taken on a busy machine say little.
func loadAverage() string {
	load, ok := load1()
	if !ok {
		return ""
	}
	return fmt.Sprintf(", load average %.2f", load)
}

// load1 is the 1-minute load average of /proc/loadavg; false where there
// is none.
func load1() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// topDir is the repository's top directory above page (the nearest
// directory holding go.mod), where the Measured table's commands run;
// the page's own directory when none holds it.
func topDir(page string) string {
	dir, err := filepath.Abs(filepath.Dir(page))
	if err != nil {
		return filepath.Dir(page)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
