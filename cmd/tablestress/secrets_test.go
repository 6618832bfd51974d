package main

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// No output of any kind carries the account key or a SAS signature: stdout,
// stderr, the JSON report, the CSV and the HTML, on success and on failure.
func TestSecretsNeverPrinted(t *testing.T) {
	secret := base64.StdEncoding.EncodeToString([]byte("this-account-key-must-never-be-printed!!"))
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Key: secret, Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	dir := t.TempDir()
	out, csvPath, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "p.csv"), filepath.Join(dir, "r.html")
	wrong := strings.Replace(in.ConnectionString(), secret, base64.StdEncoding.EncodeToString([]byte("a-wrong-key-that-must-not-show-either")), 1)
	sas := "https://acct.table.core.windows.net/?sv=2020-08-04&ss=t&sig=SECRETSIGNATURE123"
	deadSAS := "http://127.0.0.1:1/devstoreaccount1?sv=2020-08-04&sig=ANOTHERSECRETSIG456"
	runs := [][]string{
		{"run", "../../scenarios/quickstart.yaml", "--target", in.ConnectionString(), "--duration", "1s", "--warmup", "0s",
			"--entities", "300", "--rate", "100", "--quiet", "--out", out, "--csv", csvPath, "--html", html},
		{"run", "../../scenarios/quickstart.yaml", "--target", wrong, "--duration", "1s", "--quiet"},
		{"run", "../../scenarios/quickstart.yaml", "--target", sas, "--duration", "1s", "--quiet"},
		{"run", "../../scenarios/quickstart.yaml", "--target", deadSAS, "--duration", "1s", "--quiet", "--yes"},
		{"seed", "../../scenarios/quickstart.yaml", "--target", wrong},
	}
	var all strings.Builder
	for _, args := range runs {
		code, stdout, stderr := runCLI(t, args...)
		all.WriteString(stdout + stderr)
		if args[3] == in.ConnectionString() && code != exitOK && code != exitThreshold {
			t.Fatalf("the run failed (%d): %s", code, stderr)
		}
		if args[3] != in.ConnectionString() && code == exitOK {
			t.Errorf("%v succeeded", args[:2])
		}
	}
	for _, f := range []string{out, csvPath, html} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	text := all.String()
	for _, s := range []string{secret, "a-wrong-key", base64.StdEncoding.EncodeToString([]byte("a-wrong-key-that-must-not-show-either")),
		"SECRETSIGNATURE123", "ANOTHERSECRETSIG456"} {
		if strings.Contains(text, s) {
			t.Errorf("a secret appears in the output: %q", s)
		}
	}
	if !strings.Contains(text, "403 AuthenticationFailed") {
		t.Errorf("the wrong-key run does not say why it failed:\n%s", text)
	}
	if !strings.Contains(text, "127.0.0.1:1: connect: connection refused") {
		t.Errorf("the unreachable-endpoint run does not say why it failed:\n%s", text)
	}
}
