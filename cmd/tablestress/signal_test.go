package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds tablestress once for the signal tests.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tablestress")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// SIGINT and SIGTERM stop a run gracefully: partial report, exit 1. A
// second signal cancels the in-flight requests.
func TestSignals(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		name    string
		signals []syscall.Signal
	}{
		{"interrupt", []syscall.Signal{syscall.SIGINT}},
		{"terminate", []syscall.Signal{syscall.SIGTERM}},
		{"twice", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			cmd, stdout, stderr := startUntil(t, "] run", bin, "run", "../../scenarios/quickstart.yaml", "--duration", "5m", "--warmup", "0s",
				"--entities", "1000", "--rate", "200", "--out", out, "--grace", "20s")
			time.Sleep(1500 * time.Millisecond)
			for _, sig := range tc.signals {
				cmd.Process.Signal(sig)
				time.Sleep(50 * time.Millisecond)
			}
			waitExit(t, cmd, stderr, "the run")
			if !strings.Contains(stdout.String(), "RUN DID NOT COMPLETE: interrupted") {
				t.Errorf("stdout lacks the interruption:\n%s", stdout.String())
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Interrupted bool `json:"interrupted"`
				Totals      struct {
					Ops int64 `json:"ops"`
				} `json:"totals"`
			}
			if json.Unmarshal(data, &rep) != nil || !rep.Interrupted || rep.Totals.Ops == 0 {
				t.Errorf("partial report: %s", data)
			}
		})
	}
}

// startUntil starts the binary with args and waits (up to a minute) until
// its stderr shows mark.
func startUntil(t *testing.T, mark, bin string, args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(stderr.String(), mark) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	return cmd, stdout, stderr
}

// waitExit waits (up to a minute) for the signalled command to leave and
// wants exit 1.
func waitExit(t *testing.T, cmd *exec.Cmd, stderr *syncBuffer, what string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != exitFailure {
			t.Fatalf("exit %v, want 1\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s did not stop after the signal", what)
	}
}

// syncBuffer is a bytes.Buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Ctrl-C during the seed phase stops it and says so: "interrupted", not a
// seed failure with "context canceled".
func TestSignalDuringSeed(t *testing.T) {
	bin := buildBinary(t)
	cmd, _, stderr := startUntil(t, "] seed", bin, "run", "../../scenarios/quickstart.yaml", "--entities", "2000000", "--duration", "5s")
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure {
			t.Fatalf("exit %v, want 1\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the seed phase did not stop after the signal")
	}
	msg := stderr.String()
	if !regexp.MustCompile(`tablestress: interrupted during the seed phase, with [\d,]+ of 2,000,000 rows written`).MatchString(msg) ||
		strings.Contains(msg, "canceled") || strings.Contains(msg, "seed phase failed") {
		t.Errorf("stderr:\n%s", msg)
	}
}

// SIGINT and SIGTERM stop advise and keys while they judge: the command
// leaves with exit 1, says it was interrupted, and prints no advice (the
// judging loops see the signal's context, so no judging runs on to the
// end first).
func TestJudgingStopsAtTheSignal(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"advise interrupt", syscall.SIGINT, []string{"advise", "testdata/advise-slow.yaml", "--no-prove"}},
		{"advise terminate", syscall.SIGTERM, []string{"advise", "testdata/advise-slow.yaml", "--no-prove", "--json"}},
		{"keys interrupt", syscall.SIGINT, []string{"keys", "testdata/advise-slow.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mark := "advise: judging"
			if tc.args[0] == "keys" {
				mark = ""
			}
			cmd, stdout, stderr := startUntil(t, mark, bin, tc.args...)
			time.Sleep(300 * time.Millisecond)
			cmd.Process.Signal(tc.sig)
			waitExit(t, cmd, stderr, tc.args[0])
			if !strings.Contains(stderr.String(), "interrupted: stopped judging at the signal") || stdout.String() != "" {
				t.Errorf("stderr %q, stdout %.300q: want the interruption and no advice", stderr.String(), stdout.String())
			}
		})
	}
}

// Ctrl-C during the seed phase of advise's proof says so and nothing
// else: the interrupted proof is not judged, so no "proof: FAILED" and no
// withdrawn recommendation are printed before the true line.
func TestSignalDuringAdviseSeed(t *testing.T) {
	bin := buildBinary(t)
	cmd, stdout, stderr := startUntil(t, "] seed", bin, "advise", "../../scenarios/hot-partition.yaml")
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	waitExit(t, cmd, stderr, "advise")
	msg := stderr.String()
	if !regexp.MustCompile(`\ntablestress: interrupted during the seed phase, with [\d,]+ of [\d,]+ rows written\n$`).MatchString(msg) {
		t.Errorf("stderr does not end with the interruption:\n%s", msg)
	}
	if out := stdout.String(); out != "" || strings.Contains(msg, "withdrawn") || strings.Contains(msg, "proof: FAILED") {
		t.Errorf("advice printed after the interruption:\nstdout:\n%s\nstderr:\n%s", out, msg)
	}
}

// Ctrl-C during a comparison's first scheme stops it cleanly and lists
// every scheme with how far it ran, in the text and the JSON: the first
// stopped after its seconds, the others not run, and no decision.
func TestSignalDuringCompare(t *testing.T) {
	bin := buildBinary(t)
	out := filepath.Join(t.TempDir(), "c.json")
	cmd, stdout, stderr := startUntil(t, "[constant] run", bin, "compare", "../../scenarios/hot-partition.yaml", "--duration", "5m", "--warmup", "0s",
		"--entities", "1000", "--rate", "100", "--out", out)
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	waitExit(t, cmd, stderr, "compare")
	text := stdout.String()
	for _, re := range []string{`2 scheme\(s\)`, `NOT EVERY SCHEME RAN: constant stopped after [\d.]+ s of 300.0 s; hash-buckets not run`,
		`decision: no decision: not every scheme ran to its end \(constant stopped after [\d.]+ s of 300.0 s; hash-buckets not run\)`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("stdout lacks %s:\n%s", re, text)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NotRun []struct {
			Scheme string `json:"scheme"`
		} `json:"not_run"`
		Decisions []struct {
			Pick    string `json:"pick"`
			Schemes []struct {
				Scheme, Result string
			} `json:"schemes"`
		} `json:"decisions"`
	}
	if json.Unmarshal(data, &doc) != nil || len(doc.NotRun) != 1 || doc.NotRun[0].Scheme != "hash-buckets" || doc.Decisions[0].Pick != "" ||
		doc.Decisions[0].Schemes[0].Result != "stopped" || doc.Decisions[0].Schemes[1].Result != "not run" {
		t.Errorf("the JSON: %+v", doc)
	}
}
