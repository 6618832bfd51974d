// Package testenv gives tests what they need from outside the repository:
// Azurite and Chromium. A test that needs one fails when the CI environment
// variable is set and it is missing (CI must run every test); elsewhere it
// is skipped with the command that provides it.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// CI reports whether the tests run in CI (the CI environment variable is
// set), where nothing may be skipped.
func CI() bool { return os.Getenv("CI") != "" }

// Missing fails the test in CI, and skips it elsewhere, saying what is
// missing and how to provide it.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if CI() {
		t.Fatalf("%s is missing and CI is set, so this test may not be skipped: %s", what, how)
	}
	t.Skipf("%s is missing: %s", what, how)
}

// OptIn skips a test that runs only when asked for (a long soak), saying
// how to ask: why begins "opt-in:", so that scripts/test.sh's summary
// lists it and CI does not count it as a missing tool.
func OptIn(t testing.TB, how string) {
	t.Helper()
	t.Skip("opt-in: " + how)
}

// Azurite returns the connection string of the Azurite instance scripts/
// test.sh starts (TABLESTRESS_AZURITE).
func Azurite(t testing.TB) string {
	t.Helper()
	conn := os.Getenv("TABLESTRESS_AZURITE")
	if conn == "" {
		Missing(t, "Azurite (TABLESTRESS_AZURITE)", "`make test` installs the pinned Azurite, starts it and sets TABLESTRESS_AZURITE")
	}
	return conn
}

// Chromium returns the path of a Chromium (or Chrome) executable:
// TABLESTRESS_CHROMIUM, or the first on the PATH.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{os.Getenv("TABLESTRESS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(t, "Chromium", "`make test-long` installs Debian's chromium package when run as root")
	return ""
}
