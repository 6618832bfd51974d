package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/report"
)

// junitFlags is --junit of run, compare and find. Copies of the runFlags
// that hold it (compare's per model) share it.
type junitFlags struct {
	path string
	// reps are the reports the command wrote its files from (emitFiles).
	reps []*report.Report
}

func (j *junitFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&j.path, "junit", "", "write the thresholds as JUnit XML test results to this file, for CI test reporters (each run a suite, each threshold a test case); written also when the command fails")
}

// withJUnit wraps the RunE of run, compare or find: when --junit is given,
// it writes the JUnit XML of the reports the command wrote, whatever the
// command returned. An error no report carries (the command failed before
// a run, or between runs, or a search's step failed) becomes one more
// suite with one test case in error, its message the error as printed,
// with what the command wrote on stderr. The exit code stays the
// command's; failing to write the file is a runtime failure (1) unless the
// command already failed otherwise.
func withJUnit(e *env, f *runFlags, runE func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		f.junit.reps = nil
		if f.junit.path == "" {
			return runE(cmd, args)
		}
		errs := &headBuffer{max: 64 << 10}
		stderr := e.stderr
		e.stderr = io.MultiWriter(stderr, errs)
		err := runE(cmd, args)
		e.stderr = stderr
		reps := f.junit.reps
		if err != nil && codeOf(err) != exitThreshold && !carried(reps) {
			reps = append(reps, errorReport(args, err, errs.String()))
		}
		host, herr := os.Hostname()
		if herr != nil {
			host = ""
		}
		werr := writeFile(f.junit.path, func(w *os.File) error {
			return report.WriteJUnit(w, reps, report.JUnitOptions{Hostname: host, Now: time.Now()})
		})
		switch {
		case werr == nil:
			return err
		case err == nil || codeOf(err) == exitThreshold:
			return fmt.Errorf("--junit: %w", werr)
		}
		fmt.Fprintf(e.stderr, "tablestress: --junit: %s\n", message(werr))
		return err
	}
}

// carried reports whether a report says the command failed: its run
// failed, was interrupted or did not read back.
func carried(reps []*report.Report) bool {
	for _, r := range reps {
		if err := outcomeOf(r, nil); r.Failure != "" || err != nil && codeOf(err) == exitFailure {
			return true
		}
	}
	return false
}

// errorReport stands for a command that failed with err outside any run:
// the message it printed (or, when it printed its causes itself, the
// first of them), and what it wrote on stderr.
func errorReport(args []string, err error, stderr string) *report.Report {
	name := "tablestress"
	if len(args) > 0 {
		name = strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))
	}
	msg := message(err)
	if xe, ok := err.(*exitError); ok && xe.silent {
		first, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
		msg = fmt.Sprintf("exit %d: %s", xe.code, first)
	}
	if strings.TrimSpace(stderr) != "" {
		msg += "\n\nstandard error:\n" + stderr
	}
	return &report.Report{Scenario: name, Failure: msg}
}

// headBuffer keeps the first max bytes written to it; writes from several
// goroutines are safe.
type headBuffer struct {
	mu        sync.Mutex
	b         strings.Builder
	max       int
	truncated bool
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - h.b.Len(); room < len(p) {
		h.b.Write(p[:max(room, 0)])
		h.truncated = true
	} else {
		h.b.Write(p)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.truncated {
		return h.b.String() + "\n(cut at " + fmt.Sprint(h.max) + " bytes)\n"
	}
	return h.b.String()
}
