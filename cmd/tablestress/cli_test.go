package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI executes a command line and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, stdin: strings.NewReader(""), hard: context.Background()}
	code := execute(context.Background(), args, e)
	return code, out.String(), errb.String()
}

func TestValidateReadyScenarios(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	if len(files) == 0 {
		t.Fatal("no ready scenarios")
	}
	code, out, errs := runCLI(t, append([]string{"validate"}, files...)...)
	if code != exitOK {
		t.Fatalf("validate scenarios/*.yaml exited %d:\n%s", code, errs)
	}
	if strings.Count(out, ": ok") != len(files) {
		t.Errorf("expected one ok line per file:\n%s", out)
	}
}

func TestValidateListsEveryMistake(t *testing.T) {
	code, _, errs := runCLI(t, "validate", "testdata/three-mistakes.yaml")
	if code != exitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, want := range []string{
		"testdata/three-mistakes.yaml:9:29: schemes[0].partition_key: '/' is not allowed in keys", // the '/' after {device}
		"testdata/three-mistakes.yaml:12:13: workload.duration: \"30 secs\" is not a duration",
		"testdata/three-mistakes.yaml:15:7: workload.mix[0].wieght: unknown field \"wieght\"",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("missing %q in:\n%s", want, errs)
		}
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"keys"},
		{"keys", "a.yaml", "b.yaml"},
		{"frobnicate"},
		{"keys", "--nope", "x.yaml"},
		{"keys", "../../scenarios/quickstart.yaml", "--ops", "0"},
		{"keys", "../../scenarios/quickstart.yaml", "--rate", "fast"},
		{"keys", "../../scenarios/quickstart.yaml", "--scheme", "nope"},
		{"validate", "does-not-exist.yaml"},
	} {
		if code, _, errs := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}

func TestKeysJSON(t *testing.T) {
	code, out, errs := runCLI(t, "keys", "../../scenarios/quickstart.yaml", "--json", "--ops", "2000", "--rate", "800")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var as []struct {
		Scheme     string  `json:"scheme"`
		Ops        int     `json:"ops"`
		Rate       float64 `json:"rate"`
		OverTarget bool    `json:"over_target"`
		Population struct {
			Partitions int `json:"partitions"`
		} `json:"population"`
	}
	if err := json.Unmarshal([]byte(out), &as); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(as) != 1 || as[0].Ops != 2000 || as[0].Rate != 800 || as[0].Population.Partitions != 50 || as[0].OverTarget {
		t.Errorf("analysis: %+v", as)
	}
}

func TestSchemesAndSchemaAndVersion(t *testing.T) {
	code, out, _ := runCLI(t, "schemes")
	if code != exitOK || !strings.Contains(out, "hash-buckets") || !strings.Contains(out, "partition-") {
		t.Errorf("schemes: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "schema")
	var v map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v["title"] != "tablestress scenario" {
		t.Errorf("schema: %d %.200s", code, out)
	}
	code, out, _ = runCLI(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "tablestress ") {
		t.Errorf("version: %d %q", code, out)
	}
}
