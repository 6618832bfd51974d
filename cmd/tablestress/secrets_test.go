package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/table"
)

// No output of any kind carries the account key or a SAS signature: stdout,
// stderr, the JSON report, the CSV, the HTML and the JUnit XML, on success
// and on failure.
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
	liveSAS, liveSig := accountSAS(t, in.URL(), secret) // a SAS the service accepts: the run works through it
	works := map[string]bool{in.ConnectionString(): true, liveSAS: true}
	runs := [][]string{
		{"run", "../../scenarios/quickstart.yaml", "--target", in.ConnectionString(), "--duration", "1s", "--warmup", "0s",
			"--entities", "300", "--rate", "100", "--quiet", "--out", out, "--csv", csvPath, "--html", html},
		{"run", "../../scenarios/quickstart.yaml", "--target", wrong, "--duration", "1s", "--quiet"},
		{"run", "../../scenarios/quickstart.yaml", "--target", sas, "--duration", "1s", "--quiet"},
		{"run", "../../scenarios/quickstart.yaml", "--target", deadSAS, "--duration", "1s", "--quiet", "--yes"},
		{"run", "../../scenarios/quickstart.yaml", "--target", liveSAS, "--duration", "1s", "--warmup", "0s",
			"--entities", "300", "--rate", "100", "--quiet"},
		{"seed", "../../scenarios/quickstart.yaml", "--target", wrong},
	}
	var all strings.Builder
	var junits []string
	for i, args := range runs {
		if args[0] == "run" {
			junits = append(junits, filepath.Join(dir, fmt.Sprintf("junit-%d.xml", i)))
			args = append(args, "--junit", junits[len(junits)-1])
		}
		code, stdout, stderr := runCLI(t, args...)
		all.WriteString(stdout + stderr)
		if works[args[3]] && code != exitOK && code != exitThreshold {
			t.Fatalf("the run failed (%d): %s", code, stderr)
		}
		if !works[args[3]] && code == exitOK {
			t.Errorf("%v succeeded", args[:2])
		}
	}
	for _, f := range append([]string{out, csvPath, html}, junits...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	text := all.String()
	for _, s := range []string{secret, "a-wrong-key", base64.StdEncoding.EncodeToString([]byte("a-wrong-key-that-must-not-show-either")),
		"SECRETSIGNATURE123", "ANOTHERSECRETSIG456", liveSig, url.QueryEscape(liveSig)} {
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

// accountSAS signs an account SAS for every table operation with key, as
// aztables does, and returns the SAS URL of endpoint and its signature.
func accountSAS(t *testing.T, endpoint, key string) (string, string) {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(emulator.DevAccount, key)
	if err != nil {
		t.Fatal(err)
	}
	qp, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPSandHTTP, Services: "t",
		Permissions:   aztables.AccountSASPermissions{Read: true, Write: true, Delete: true, List: true, Add: true, Create: true, Update: true}.String(),
		ResourceTypes: aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true}.String(),
		StartTime:     time.Now().Add(-time.Minute).UTC(), ExpiryTime: time.Now().Add(time.Hour).UTC()}.Sign(cred)
	if err != nil {
		t.Fatal(err)
	}
	return endpoint + "?" + qp.Encode(), qp.Signature()
}

// lockedBuffer is a bytes.Buffer safe for a command writing while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// tablestress emulator prints the development account's connection string
// whole (its key is public and documented), and pasted as a target it
// works; it is the only key any output shows (TestSecretsNeverPrinted).
func TestEmulatorPrintsAWorkingConnectionString(t *testing.T) {
	var out, errb lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, stdin: strings.NewReader(""), hard: context.Background()}
	done := make(chan int, 1)
	go func() { done <- execute(ctx, []string{"emulator", "--listen", "127.0.0.1:0", "--model", "off"}, e) }()
	var conn string
	for deadline := time.Now().Add(10 * time.Second); conn == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, line := range strings.Split(out.String(), "\n") {
			if c, ok := strings.CutPrefix(line, "connection string: "); ok {
				conn = c
			}
		}
	}
	if conn == "" {
		cancel()
		t.Fatalf("no connection string printed:\n%s%s", out.String(), errb.String())
	}
	if !strings.Contains(conn, "AccountKey="+emulator.DevKey+";") {
		t.Errorf("the connection string does not hold the development key: %q", conn)
	}
	tg, err := table.ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := svc.CreateTable(context.Background(), "pasted"); r.Outcome.Key() != "201" {
		t.Errorf("create a table through the printed connection string: %s (%v)", r.Outcome.Key(), r.Err)
	}
	svc.Close()
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("emulator exited %d: %s", code, errb.String())
	}
}
