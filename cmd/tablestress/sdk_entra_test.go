package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/internal/devcert"
	"github.com/tablestress/tablestress/internal/testenv"
)

// emulatorEntra is a running tablestress emulator --tls --entra, as its
// output describes it.
type emulatorEntra struct {
	url, conn, caPath string
	// env holds each printed identity's environment, by the name it is
	// printed under ("contributor", "reader", "workload identity of
	// contributor").
	env map[string][]string
}

// startEmulatorEntra runs the command in-process until the test ends and
// reads what it prints.
func startEmulatorEntra(t *testing.T) *emulatorEntra {
	t.Helper()
	var out, errb lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, stdin: strings.NewReader(""), hard: context.Background()}
	done := make(chan int, 1)
	go func() {
		done <- execute(ctx, []string{"emulator", "--listen", "127.0.0.1:0", "--model", "off", "--tls", "--entra"}, e)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("the emulator exited %d: %s", code, errb.String())
		}
	})
	em := &emulatorEntra{env: map[string][]string{}}
	for deadline := time.Now().Add(20 * time.Second); len(em.env) < 3 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, line := range strings.Split(out.String(), "\n") {
			switch {
			case strings.HasPrefix(line, "tablestress emulator listening on "):
				em.url = strings.TrimPrefix(line, "tablestress emulator listening on ")
			case strings.HasPrefix(line, "connection string: "):
				em.conn = strings.TrimPrefix(line, "connection string: ")
			case strings.HasPrefix(line, "certificate authority: "):
				em.caPath, _, _ = strings.Cut(strings.TrimPrefix(line, "certificate authority: "), " ")
			case strings.HasPrefix(line, "  ") && strings.Contains(line, "): AZURE_AUTHORITY_HOST="):
				who, vars, _ := strings.Cut(strings.TrimSpace(line), ": ")
				who, _, _ = strings.Cut(who, " (")
				em.env[who] = strings.Fields(vars)
			}
		}
	}
	if em.url == "" || em.caPath == "" || len(em.env) < 3 {
		t.Fatalf("the emulator did not print its endpoint, certificate and identities:\n%s%s", out.String(), errb.String())
	}
	return em
}

// prepare creates table name holding (p, seed) with V 1, through the
// development account's key over https.
func (em *emulatorEntra) prepare(t *testing.T, name string) {
	t.Helper()
	pool, err := devcert.SystemPoolWith(em.caPath)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := aztables.NewServiceClientFromConnectionString(em.conn, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(context.Background(), name, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NewClient(name).AddEntity(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"seed","V":1}`), nil); err != nil {
		t.Fatal(err)
	}
}

// The JavaScript and Python SDKs sign in to the emulator's token
// authority as the identities it prints (client secrets, and the
// contributor's workload identity token file) and use the service over
// TLS with its bearer tokens: the contributor does everything, the reader
// reads and is refused every write with 403 AuthorizationPermissionMismatch.
// tablestress itself runs with the contributor's printed environment.
func TestEmulatorEntraSDKs(t *testing.T) {
	em := startEmulatorEntra(t)
	em.prepare(t, "sdktokens")
	for _, kv := range em.env["contributor"] {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("AZURE_TOKEN_CREDENTIALS", "prod")
	code, stdout, stderr := runCLI(t, "run", "../../scenarios/quickstart.yaml", "--target", em.url, "--ca-file", em.caPath,
		"--duration", "1s", "--warmup", "0s", "--entities", "200", "--rate", "50", "--quiet")
	if code != exitOK && code != exitThreshold || !strings.Contains(stdout, "verdict: ") {
		t.Fatalf("tablestress as the printed contributor: exit %d\n%s%s", code, stdout, stderr)
	}
	ok := map[string]any{"list tables": "found", "create table": "ok", "read entity": 1.0, "query": "some", "insert entity": "ok", "delete entity": "ok", "delete table": "ok"}
	refused := map[string]any{"error": map[string]any{"status": 403.0, "code": "AuthorizationPermissionMismatch"}}
	reader := map[string]any{"list tables": "found", "create table": refused, "read entity": 1.0, "query": "some", "insert entity": refused, "delete entity": refused, "delete table": refused}
	root, _ := filepath.Abs("../..")
	for _, sdk := range []struct {
		name, caVar string
		argv, check []string
		install     string
	}{
		{"js", "NODE_EXTRA_CA_CERTS", []string{"node", filepath.Join(root, "tools/sdk-js/steps_token.mjs")},
			[]string{"node", "-e", "require('" + filepath.Join(root, "tools/sdk-js/node_modules/@azure/identity") + "')"}, "npm ci --prefix tools/sdk-js"},
		{"python", "REQUESTS_CA_BUNDLE", []string{"/usr/bin/python3", filepath.Join(root, "tools/sdk-python/steps_token.py")},
			[]string{"/usr/bin/python3", "-c", "import azure.identity, azure.data.tables"}, "apt-get install python3-azure"},
	} {
		t.Run(sdk.name, func(t *testing.T) {
			if err := exec.Command(sdk.check[0], sdk.check[1:]...).Run(); err != nil {
				testenv.Missing(t, "the "+sdk.name+" SDK with its identity library", "make test-long runs "+sdk.install)
			}
			for who, want := range map[string]map[string]any{"contributor": ok, "workload identity of contributor": ok, "reader": reader} {
				var env []string // this process's, without its AZURE_ variables: only the identity's own
				for _, kv := range os.Environ() {
					if !strings.HasPrefix(kv, "AZURE_") {
						env = append(env, kv)
					}
				}
				env = append(append(env, em.env[who]...), sdk.caVar+"="+em.caPath, "TABLESTRESS_ENDPOINT="+em.url, "TABLESTRESS_TABLE=sdktokens")
				got := runTokenSteps(t, sdk.argv, env)
				if len(got) != len(want) {
					t.Errorf("%s as %s: %d steps %v, want %d", sdk.name, who, len(got), got, len(want))
				}
				for step, w := range want {
					if g, _ := json.Marshal(got[step]); string(g) != string(mustJSON(w)) {
						t.Errorf("%s as %s, %s: %s, want %s", sdk.name, who, step, g, mustJSON(w))
					}
				}
			}
		})
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// runTokenSteps runs a token script and returns its steps' results by
// name.
func runTokenSteps(t *testing.T, argv, env []string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = filepath.Dir(argv[1]), env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, stderr.String())
	}
	out := map[string]any{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var l struct {
			Step   string `json:"step"`
			Result any    `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Step == "" {
			t.Fatalf("%v printed a line that is not a step: %q", argv, sc.Text())
		}
		out[l.Step] = l.Result
	}
	return out
}
