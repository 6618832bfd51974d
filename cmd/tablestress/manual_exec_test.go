package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/manual"
)

// TestManualCommands runs every command of the manual's code blocks, page
// by page in a working directory of its own, as a reader pasting them
// would, and holds each to what the manual shows: its exit code, and
// every cell of the output shown beside it but for the numbers
// (shownCells). A command on the embedded service runs in a synctest
// bubble, so that what the service's model decides is exact and no client
// is late whatever this machine's load; the others run on this machine's
// clock, against a tablestress emulator the page starts, against an
// embedded service on a loopback port standing for the reader's account
// ($TARGET), or against the tests' Azurite (--target azurite). The
// commands of shortened run shorter than written.
func TestManualCommands(t *testing.T) {
	used := map[string]bool{}
	pages, whole := loadManual(t), 0
	for _, p := range pages {
		t.Run(strings.ReplaceAll(p.Path, "/", "_"), func(t *testing.T) {
			s := newTerminal(t)
			t.Chdir(s.dir)
			for _, b := range p.Blocks() {
				s.runBlock(b, used)
			}
			whole++ // not reached when the page stopped early (a skip, a fatal failure)
		})
	}
	for line := range shortened {
		// -run may leave pages out, and a page stopped early (no Azurite
		// outside CI) leaves its later commands unrun: judge only a whole run.
		if !used[line] && whole == len(pages) {
			t.Errorf("shortened names %q, which no page of the manual runs", line)
		}
	}
}

// shortened are the commands the test runs with these flags appended, each
// for a reason of time, never to change what the manual shows:
//   - on this machine's clock (against a service of their own, not in a
//     bubble), the time written would be spent waiting: fewer entities and
//     a second or a few measured, after a second's warm-up that opens the
//     connections;
//   - in a bubble, the time written is spent in CPU: commands whose output
//     the manual does not show, and those whose shown output holds at a
//     shorter length (a partition over its target is throttled from its
//     first second), run shorter.
var shortened = map[string][]string{
	// On this machine's clock.
	`tablestress seed scenarios/quickstart.yaml --target "$TARGET" --table tsprepared --keep-table --yes`:                                  {"--entities", "2000"},
	`tablestress run scenarios/quickstart.yaml --target "$TARGET" --table tsprepared --skip-seed --yes`:                                    {"--entities", "2000", "--duration", "2s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target "$TARGET" --shard 0/3 --table tsrun042 --run-id run042 --yes --out shard-0.json &`: {"--entities", "2000", "--duration", "6s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target "$TARGET" --shard 1/3 --table tsrun042 --run-id run042 --yes --out shard-1.json &`: {"--entities", "2000", "--duration", "6s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target "$TARGET" --shard 2/3 --table tsrun042 --run-id run042 --yes --out shard-2.json &`: {"--entities", "2000", "--duration", "6s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target azurite --duration 5s`:                                                             {"--entities", "2000", "--duration", "2s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target https://127.0.0.1:33809/devstoreaccount1 --ca-file ca.pem`:                         {"--entities", "300", "--duration", "2s", "--warmup", "1s"},
	`tablestress run scenarios/quickstart.yaml --target azurite --out report.json --junit report.xml`:                                      {"--entities", "2000", "--duration", "2s", "--warmup", "1s"},
	// In a bubble, no output shown.
	`bin/tablestress run scenarios/quickstart.yaml`:                        {"--duration", "2s"},
	`tablestress compare scenarios/hot-partition.yaml --junit compare.xml`: {"--duration", "2s"},
	`tablestress find scenarios/hot-partition.yaml --junit find.xml`:       {"--duration", "1s", "--max-steps", "3"},
	// In a bubble, the output shown holds.
	`tablestress compare scenarios/azure-vs-cosmos.yaml --models 'azure,cosmos(ru=4000)' --duration 5s`: {"--duration", "2s"},
	`tablestress compare scenarios/multi-tenant.yaml --duration 6s`:                                     {"--duration", "3s"},
}

// runBlock runs or checks one code block.
func (s *terminal) runBlock(b manual.Block, used map[string]bool) {
	t := s.t
	if err := checkBlockKind(b); err != nil {
		t.Error(err)
		return
	}
	switch b.Lang {
	case "yaml":
		path := filepath.Join(s.dir, "block.yaml")
		if err := os.WriteFile(path, []byte(strings.Join(b.Lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "validate", path); code != exitOK {
			t.Errorf("%s: the scenario does not validate (exit %d):\n%s%s", b.Where(), code, out, errs)
		}
	case "xml":
		s.checkJUnit(b)
	case "sh", "console":
		steps, err := blockSteps(b)
		if err != nil {
			t.Error(err)
			return
		}
		for _, st := range steps {
			if _, ok := shortened[st.line]; ok {
				used[st.line] = true
			}
			s.runStep(st)
		}
	}
}

// runStep runs one command and checks what it printed.
func (s *terminal) runStep(st step) {
	t := s.t
	kind, err := commandKind(st)
	if err != nil {
		t.Error(err)
		return
	}
	words := make([]string, len(st.words))
	for i, w := range st.words {
		words[i] = s.expand(w)
	}
	if kind != "tablestress" {
		s.runOther(st, kind, words)
		return
	}
	args, _ := tablestressArgs(words)
	t.Logf("%s: %s", st.where(), st.line)
	if args[0] == "emulator" {
		j := s.startEmulator(st, args)
		s.check(st, 0, j.out.String(), true)
		return
	}
	args, embedded := s.targetOf(args)
	args = append(args, shortened[st.line]...)
	if i := indexOf(args, "--junit"); i >= 0 && i+1 < len(args) {
		s.lastJUnit = args[i+1]
	}
	if st.background {
		s.jobs = append(s.jobs, s.start(st.line, args))
		return
	}
	var code int
	var out string
	began := time.Now()
	if embedded && touchesService(args) {
		code, out = s.runBubble(args)
	} else {
		j := s.start(st.line, args)
		<-j.done
		code, out = j.code, j.out.String()
	}
	t.Logf("%s: took %.1fs", st.where(), time.Since(began).Seconds())
	if st.stdout != "" {
		if err := os.WriteFile(st.stdout, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.check(st, code, out, !(embedded && touchesService(args)))
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// check holds a command's exit code and output to the manual's.
func (s *terminal) check(st step, code int, out string, realTime bool) {
	s.lastOutput = out
	if !exitAsShown(code, st.exit, out, realTime) {
		s.t.Errorf("%s: %s exited %d, the manual says %d:\n%s", st.where(), st.line, code, st.exit, out)
		return
	}
	for _, c := range missingCells(st.output, out) {
		s.t.Errorf("%s: %s: the manual shows %q, which it no longer prints (numbers aside):\n%s", st.where(), st.line, c, out)
	}
}

var failedRE = regexp.MustCompile(`(?m)^\s*FAIL ([a-z_0-9]+)`)

// exitAsShown reports whether a command's exit code is the manual's. On
// this machine's clock a run whose thresholds failed only on latency
// (exit 99 with every FAIL a p50, p90, p99, p999 or max) counts as one that
// passed: this machine's load decides its latency, not the manual, and
// the report it printed still holds every cell; a throttling, error or
// partition threshold that fails is a change the manual must show.
func exitAsShown(code, want int, out string, realTime bool) bool {
	if code == want {
		return true
	}
	fails := failedRE.FindAllStringSubmatch(out, -1)
	if !realTime || code != exitThreshold || want != exitOK || len(fails) == 0 {
		return false
	}
	for _, f := range fails {
		switch f[1] {
		case "p50", "p90", "p99", "p999", "max":
		default:
			return false
		}
	}
	return true
}

var tagRE = regexp.MustCompile(`<([a-z-]+)|([a-z_.-]+)="`)

// checkJUnit holds an xml block to the JUnit file the page's last
// command with --junit wrote: every element and attribute it shows is in
// the file.
func (s *terminal) checkJUnit(b manual.Block) {
	if s.lastJUnit == "" {
		s.t.Errorf("%s: an XML block after no command that wrote --junit", b.Where())
		return
	}
	data, err := os.ReadFile(s.lastJUnit)
	if err != nil {
		s.t.Errorf("%s: %v", b.Where(), err)
		return
	}
	for _, m := range tagRE.FindAllStringSubmatch(strings.Join(b.Lines, "\n"), -1) {
		want := "<" + m[1]
		if m[1] == "" {
			want = " " + m[2] + `="`
		}
		if !strings.Contains(string(data), want) {
			s.t.Errorf("%s: the manual shows %s, which %s lacks:\n%s", b.Where(), strings.TrimSpace(want), s.lastJUnit, data)
		}
	}
}
