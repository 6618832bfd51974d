package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// runOther runs or checks a command of the manual that is not
// tablestress's, as otherCommands describes.
func (s *terminal) runOther(st step, kind string, words []string) {
	t := s.t
	switch kind {
	case "make":
		mk, err := os.ReadFile(filepath.Join(manualRoot, "Makefile"))
		if err != nil {
			t.Fatal(err)
		}
		if len(words) != 2 || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(words[1])+`:`).Match(mk) {
			t.Errorf("%s: %s: the Makefile has no such target", st.where(), st.line)
		}
	case "go install":
		if len(words) != 3 || words[2] != "./cmd/tablestress" {
			t.Errorf("%s: %s: want go install ./cmd/tablestress", st.where(), st.line)
		}
	case "docker compose":
		if _, err := os.Stat(filepath.Join(manualRoot, "docker-compose.yml")); err != nil {
			t.Errorf("%s: %s: %v", st.where(), st.line, err)
		}
	case "sed":
		s.sed(st, words)
	case "export":
		s.export(st, words[1:])
	case "wait":
		for _, j := range s.jobs {
			if !strings.Contains(j.line, " emulator") {
				<-j.done
				if !exitAsShown(j.code, exitOK, j.out.String(), true) {
					t.Errorf("%s: %s exited %d:\n%s", st.where(), j.line, j.code, j.out.String())
				}
			}
		}
	case "kill":
		s.kill(st, words)
	}
}

// manualRoot is the repository's top directory, found when the tests
// start (before any of them changes directory).
var manualRoot = func() string {
	abs, _ := filepath.Abs("../..")
	return abs
}()

// sed applies sed 's/FROM/TO/' IN > OUT, failing when FROM is not in IN
// (the manual's command would then change nothing).
func (s *terminal) sed(st step, words []string) {
	if len(words) != 3 || st.stdout == "" || !strings.HasPrefix(words[1], "s/") {
		s.t.Errorf("%s: %s: want sed 's/FROM/TO/' IN > OUT", st.where(), st.line)
		return
	}
	parts := strings.Split(words[1], "/")
	if len(parts) != 4 {
		s.t.Errorf("%s: %s: want s/FROM/TO/ without slashes inside", st.where(), st.line)
		return
	}
	in, err := os.ReadFile(words[2])
	if err != nil {
		s.t.Fatal(err)
	}
	if !strings.Contains(string(in), parts[1]) {
		s.t.Errorf("%s: %s: %s has no %q", st.where(), st.line, words[2], parts[1])
	}
	if err := os.WriteFile(st.stdout, []byte(strings.ReplaceAll(string(in), parts[1], parts[2])), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

var assignRE = regexp.MustCompile(`^([A-Z_][A-Z0-9_]*)=(.*)$`)

// export sets variables for the page's later commands, in the process
// environment too (the Azure SDK's credentials read it). A value "..." is
// what the page's last output printed for the variable, as a reader
// copies it.
func (s *terminal) export(st step, assigns []string) {
	for _, a := range assigns {
		m := assignRE.FindStringSubmatch(a)
		if m == nil {
			s.t.Errorf("%s: %s: %q is no NAME=VALUE", st.where(), st.line, a)
			continue
		}
		v := m[2]
		if v == "..." {
			if f := regexp.MustCompile(`\b` + m[1] + `=(\S+)`).FindStringSubmatch(s.lastOutput); f != nil {
				v = f[1]
			} else {
				s.t.Errorf("%s: %s: the output before it prints no %s", st.where(), st.line, m[1])
			}
		}
		s.vars[m[1]] = v
		s.t.Setenv(m[1], v)
	}
}

// kill stops background command %N.
func (s *terminal) kill(st step, words []string) {
	if len(words) != 2 || !strings.HasPrefix(words[1], "%") {
		s.t.Errorf("%s: %s: want kill %%N", st.where(), st.line)
		return
	}
	n := 0
	for _, c := range words[1][1:] {
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > len(s.jobs) {
		s.t.Errorf("%s: %s: no such job", st.where(), st.line)
		return
	}
	j := s.jobs[n-1]
	j.cancel()
	select {
	case <-j.done:
	case <-time.After(30 * time.Second):
		s.t.Errorf("%s: %s: %s did not stop", st.where(), st.line, j.line)
	}
}
