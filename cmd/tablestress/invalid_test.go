package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every broken scenario of the corpus is refused with exit code 2 and a
// FILE:LINE:COL message naming the field; the first line of each file says
// what the message must contain.
func TestInvalidScenarioCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) < 30 {
		t.Fatalf("the corpus has %d files, want at least 30", len(files))
	}
	located := regexp.MustCompile(`^testdata/invalid/[^:]+\.yaml:\d+:\d+: `)
	for _, f := range files {
		fh, _ := os.Open(f)
		first, _ := bufio.NewReader(fh).ReadString('\n')
		fh.Close()
		want := strings.TrimSpace(strings.TrimPrefix(first, "# want:"))
		code, _, errs := runCLI(t, "validate", f)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want 2", f, code)
			continue
		}
		if !strings.Contains(errs, want) {
			t.Errorf("%s: want %q in:\n%s", f, want, errs)
		}
		if !located.MatchString(errs) {
			t.Errorf("%s: the message is not FILE:LINE:COL: %q", f, errs)
		}
	}
}
