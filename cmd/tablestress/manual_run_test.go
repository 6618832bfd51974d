package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/session"
)

// terminal is a reader's terminal for one page of the manual: a working
// directory holding the repository's scenarios, the environment the
// page's commands set, and the commands left running in the background.
type terminal struct {
	t    *testing.T
	dir  string
	vars map[string]string
	jobs []*job
	// emulator is the URL and connection string of the tablestress
	// emulator the page started, if any; target is the service that
	// stands for the reader's own account ($TARGET).
	emulatorURL, emulatorConn string
	target                    *emulator.Instance
	lastOutput, lastJUnit     string
}

// job is a command running in the background; done is closed when it
// has ended, with its exit code in code.
type job struct {
	line   string
	out    *syncBuffer
	cancel context.CancelFunc
	done   chan struct{}
	code   int
}

// newTerminal makes a working directory where the repository's scenarios
// and bench scenarios are where the manual's commands name them.
func newTerminal(t *testing.T) *terminal {
	dir := t.TempDir()
	for _, d := range []string{"scenarios", "bench", "deploy"} {
		if err := os.Symlink(filepath.Join(manualRoot, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	s := &terminal{t: t, dir: dir, vars: map[string]string{}}
	t.Cleanup(s.stop)
	return s
}

// stop ends the background commands and the stand-in account.
func (s *terminal) stop() {
	for _, j := range s.jobs {
		j.cancel()
		<-j.done
	}
	s.jobs = nil
	if s.target != nil {
		s.target.Close(context.Background())
		s.target = nil
	}
}

// getenv is the commands' environment: a terminal 100 columns wide, the
// test's collector settings (no tuner goroutine outlives a bubble), and
// what the page exported.
func (s *terminal) getenv(k string) string {
	switch k {
	case "COLUMNS":
		return "100"
	case "GOGC":
		return "100"
	}
	return s.vars[k]
}

var varRE = regexp.MustCompile(`\$\{?([A-Z_][A-Z0-9_]*)\}?`)

// expand replaces $NAME in a word. $TARGET, the reader's account, is an
// embedded service on a loopback port, started when first named.
func (s *terminal) expand(w string) string {
	return varRE.ReplaceAllStringFunc(w, func(m string) string {
		name := varRE.FindStringSubmatch(m)[1]
		if name == "TARGET" && s.vars[name] == "" {
			in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Default()})
			if err != nil {
				s.t.Fatal(err)
			}
			s.target = in
			s.vars[name] = in.ConnectionString()
		}
		return s.vars[name]
	})
}

var localURLRE = regexp.MustCompile(`^https?://127\.0\.0\.1:\d+/devstoreaccount1$`)

// targetOf returns what a command's --target stands for here: Azurite is
// the page's tablestress emulator when it started one, else the Azurite
// of the tests; a loopback URL is the page's emulator. The second result
// says whether the target is the embedded service in process.
func (s *terminal) targetOf(args []string) ([]string, bool) {
	out := append([]string(nil), args...)
	embedded := true
	for i, a := range out {
		v, inline := strings.CutPrefix(a, "--target=")
		if a == "--target" && i+1 < len(out) {
			v = out[i+1]
		} else if !inline {
			continue
		}
		switch {
		case v == "embedded":
			continue
		case v == "azurite" && s.emulatorConn != "":
			v = s.emulatorConn
		case v == "azurite":
			v = testenv.Azurite(s.t)
		case localURLRE.MatchString(v) && s.emulatorURL != "":
			v = s.emulatorURL
		}
		embedded = false
		if inline {
			out[i] = "--target=" + v
		} else {
			out[i+1] = v
		}
	}
	return out, embedded
}

// touchesService reports whether a command runs against a Table service
// (the others read files and print).
func touchesService(args []string) bool {
	switch args[0] {
	case "run", "compare", "find", "seed", "advise":
		return true
	}
	return false
}

// runBubble runs a command line on the embedded service in a synctest
// bubble: on its fake clock what the model decides is exact and no client
// is ever late, whatever this machine's load.
func (s *terminal) runBubble(args []string) (int, string) {
	var code int
	var out bytes.Buffer
	synctest.Test(s.t, func(t *testing.T) {
		e := &env{stdout: &out, stderr: &out, getenv: s.getenv, stdin: strings.NewReader(""), hard: context.Background()}
		e.embed = func(cfg emulator.Config) (*session.Embedded, error) { return bubbledService(t, cfg) }
		code = execute(context.Background(), args, e)
	})
	return code, out.String()
}

// start runs a command line in a goroutine, on this machine's clock.
func (s *terminal) start(line string, args []string) *job {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	j := &job{line: line, out: &syncBuffer{}, cancel: cancel, done: make(chan struct{})}
	e := &env{stdout: j.out, stderr: j.out, getenv: s.getenv, stdin: strings.NewReader(""), hard: ctx}
	go func() {
		j.code = execute(ctx, args, e)
		close(j.done)
	}()
	return j
}

// startEmulator starts tablestress emulator in the background, on a free
// port, and waits until it has said where it listens.
func (s *terminal) startEmulator(st step, args []string) *job {
	for i, a := range args {
		if a == "--listen" && i+1 < len(args) {
			args[i+1] = "127.0.0.1:0"
		}
	}
	j := s.start(st.line, args)
	s.jobs = append(s.jobs, j)
	deadline := time.Now().Add(time.Minute)
	prev := ""
	for time.Now().Before(deadline) {
		out := j.out.String()
		if strings.Contains(out, "connection string: ") && out == prev {
			break
		}
		select {
		case <-j.done:
			s.t.Fatalf("%s: %s ended (exit %d):\n%s", st.where(), st.line, j.code, out)
		case <-time.After(200 * time.Millisecond):
		}
		prev = out
	}
	out := j.out.String()
	if m := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(out); m != nil {
		s.emulatorURL = m[1]
	}
	if m := regexp.MustCompile(`connection string: (\S+)`).FindStringSubmatch(out); m != nil {
		s.emulatorConn = m[1]
	}
	if s.emulatorConn == "" {
		s.t.Fatalf("%s: %s printed no connection string:\n%s", st.where(), st.line, out)
	}
	return j
}
