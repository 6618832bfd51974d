package emulator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// sdk is one client library nobody here wrote, driven by a step script
// under tools/ that prints one JSON line per step (see tools/sdk-js/steps.mjs).
type sdk struct {
	name string
	// argv runs the script; the first word is looked up on PATH unless
	// it is absolute.
	argv []string
	// check runs before, and fails when the SDK is not installed.
	check []string
	// install says how make test installs it.
	install string
}

// repoRoot is the repository's top directory (this package is pkg/emulator).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// sdks are the SDKs of the suite: the JavaScript SDK pinned in
// tools/sdk-js/package-lock.json, and Debian's Python SDKs for
// /usr/bin/python3, the current one and the legacy one.
func sdks(root string) []sdk {
	js := filepath.Join(root, "tools", "sdk-js")
	py := filepath.Join(root, "tools", "sdk-python")
	return []sdk{
		{"js", []string{"node", filepath.Join(js, "steps.mjs")},
			[]string{"node", "-e", "require(" + strconvQuote(filepath.Join(js, "node_modules", "@azure", "data-tables")) + ")"},
			"npm ci --prefix tools/sdk-js"},
		{"python", []string{"/usr/bin/python3", filepath.Join(py, "steps_tables.py")},
			[]string{"/usr/bin/python3", "-c", "import azure.data.tables"},
			"apt-get install python3-azure"},
		{"legacy", []string{"/usr/bin/python3", filepath.Join(py, "steps_cosmosdb.py")},
			[]string{"/usr/bin/python3", "-c", "import azure.cosmosdb.table"},
			"apt-get install python3-azure-cosmosdb-table"},
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// missing fails the test when CI is set (CI must run every SDK) and skips
// it otherwise.
func missing(t *testing.T, format string, a ...any) {
	t.Helper()
	testenv.Missing(t, fmt.Sprintf(format, a...), "make test-long installs it")
}

// stepLine is one step's answer as a script printed it.
type stepLine struct {
	Step   string          `json:"step"`
	Result json.RawMessage `json:"result"`
}

// runSteps runs an SDK's script against a connection string and returns
// its steps in order. Tables are named with a prefix of their own, so
// runs never meet in a shared Azurite.
func runSteps(t *testing.T, s sdk, conn string) []stepLine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.argv[0], s.argv[1:]...)
	cmd.Dir = filepath.Dir(s.argv[1])
	prefix := fmt.Sprintf("%s%d", s.name, time.Now().UnixNano()%1e9)
	cmd.Env = append(os.Environ(), "TABLESTRESS_CONN="+conn, "TABLESTRESS_PREFIX="+prefix)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", s.name, err, tail(stderr.String(), 2000))
	}
	var out []stepLine
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l stepLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Step == "" {
			t.Fatalf("%s printed a line that is not a step: %q", s.name, sc.Text())
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		t.Fatalf("%s printed no step\n%s", s.name, tail(stderr.String(), 2000))
	}
	return out
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// TestSDKConformance runs each SDK's steps against Azurite and against the
// embedded service and compares the answers step by step. Where they
// differ, the step must be one where Azurite is known to differ from
// Azure (azuriteDifferences): the embedded service must then give Azure's
// answer and Azurite its known one, so the record stays true.
func TestSDKConformance(t *testing.T) {
	azurite := testenv.Azurite(t)
	root := repoRoot(t)
	in := startServer(t, Config{Model: model.Off()})
	for _, s := range sdks(root) {
		t.Run(s.name, func(t *testing.T) {
			if _, err := exec.LookPath(s.argv[0]); err != nil {
				missing(t, "%s is not installed", s.argv[0])
			}
			if out, err := exec.Command(s.check[0], s.check[1:]...).CombinedOutput(); err != nil {
				missing(t, "the %s SDK is not installed (%s): %s", s.name, s.install, tail(string(out), 300))
			}
			emb := runSteps(t, s, in.ConnectionString())
			az := runSteps(t, s, azurite)
			compareSteps(t, s.name, emb, az)
		})
	}
}

// compareSteps checks the two runs step by step.
func compareSteps(t *testing.T, sdkName string, emb, az []stepLine) {
	t.Helper()
	if len(emb) != len(az) {
		t.Fatalf("%d steps against the embedded service, %d against Azurite", len(emb), len(az))
	}
	known := map[string]difference{}
	for _, d := range azuriteDifferences {
		if d.sdk == sdkName {
			known[d.step] = d
		}
	}
	for i := range emb {
		e, a := emb[i], az[i]
		if e.Step != a.Step {
			t.Fatalf("step %d is %q against the embedded service and %q against Azurite", i, e.Step, a.Step)
		}
		d, isKnown := known[e.Step]
		delete(known, e.Step)
		switch {
		case !isKnown && !bytes.Equal(e.Result, a.Result):
			t.Errorf("%s: the embedded service and Azurite differ; if Azurite is the one that differs from Azure, record it:\n\t{%q, %q, `%s`, `%s`, cause},",
				e.Step, sdkName, e.Step, e.Result, a.Result)
		case isKnown && (!jsonEqual(e.Result, d.azure) || !azuriteAnswers(d, a.Result)):
			t.Errorf("%s (Azurite differs from Azure: %s)\n  embedded %s, want Azure's %s\n  Azurite  %s, want %s",
				e.Step, d.cause, e.Result, d.azure, a.Result, d.azurite)
		}
	}
	for step := range known {
		t.Errorf("the known difference of step %q was not met: no such step", step)
	}
}

func jsonEqual(got json.RawMessage, want string) bool {
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return false
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}
