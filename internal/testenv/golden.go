package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden holds got to the golden file path, byte for byte: it fails t
// with the first line that differs (and the command that rewrites the
// file). With update (a test's -update flag), it first writes got there,
// creating the file's directory.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("output differs from %s at %s (after an intended change, run the test with -update)", path, FirstDiff(want, got))
	}
}

// FirstDiff shows the first line where want and got differ.
func FirstDiff(want, got []byte) string {
	lw, lg := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range min(len(lw), len(lg)) {
		if lw[i] != lg[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, lw[i], lg[i])
		}
	}
	return fmt.Sprintf("the end: %d lines against %d", len(lw), len(lg))
}
