package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// startEmulator runs tablestress emulator with args and the environment
// vars in this process until the test ends, and returns what it printed
// once it listens.
func startEmulator(t *testing.T, vars map[string]string, args ...string) string {
	t.Helper()
	var out, errb lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(""), hard: context.Background()}
	done := make(chan int, 1)
	go func() { done <- execute(ctx, append([]string{"emulator"}, args...), e) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("the emulator exited %d: %s", code, errb.String())
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s := out.String(); strings.Contains(s, "connection string: ") {
			time.Sleep(20 * time.Millisecond) // the notes follow
			return out.String()
		}
		select {
		case code := <-done:
			done <- code
			t.Fatalf("the emulator exited %d: %s", code, errb.String())
		default:
		}
	}
	t.Fatalf("the emulator did not start:\n%s%s", out.String(), errb.String())
	return ""
}

// azuriteLines are the azurite-table command lines of the compose file,
// the GitHub Actions step and the CI script of docs/emulator.md's
// "Replacing Azurite", with a free port for 10002: each starts tablestress
// emulator as written but for the command.
var azuriteLines = [][]string{
	{"--tableHost", "127.0.0.1", "--tablePort", "0", "--location", "DIR", "--loose", "--skipApiVersionCheck"},
	{"--tableHost", "127.0.0.1", "--tablePort", "0", "--inMemoryPersistence", "--skipApiVersionCheck", "--silent"},
	{"--tablePort", "0", "-l", "DIR", "-d", "DIR/debug.log", "--disableProductStyleUrl", "--tableKeepAliveTimeout", "5"},
}

// Azurite's command lines start the emulator, which serves the Go SDK
// there, keeps its data where --location says, writes --debug's request
// log, and says how it differs from Azurite once at start-up.
func TestAzuriteCommandLines(t *testing.T) {
	for i, line := range azuriteLines {
		dir := t.TempDir()
		args := make([]string, len(line))
		for k, a := range line {
			args[k] = strings.ReplaceAll(a, "DIR", dir)
		}
		out := startEmulator(t, nil, append(args, "--model", "off")...)
		conn := ""
		for _, l := range strings.Split(out, "\n") {
			if c, ok := strings.CutPrefix(l, "connection string: "); ok {
				conn = c
			}
		}
		svc, err := aztables.NewServiceClientFromConnectionString(conn, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateTable(context.Background(), "Compose", nil); err != nil {
			t.Errorf("%v: %v", line, err)
		}
		persists := slices.Contains(line, "--location") || slices.Contains(line, "-l")
		if _, err := os.Stat(filepath.Join(dir, "tablestress-table", "devstoreaccount1")); (err == nil) != persists {
			t.Errorf("%v: the data directory: %v", line, err)
		}
		if persists != strings.Contains(out, "data: "+dir) {
			t.Errorf("%v: where the data is kept:\n%s", line, out)
		}
		if strings.Contains(out, "note: --disableProductStyleUrl") || strings.Contains(out, "note: --tableKeepAliveTimeout") {
			t.Errorf("%v: a note for an option that does what Azurite's does:\n%s", line, out)
		}
		if i == 2 {
			log, _ := os.ReadFile(filepath.Join(dir, "debug.log"))
			if !strings.Contains(string(log), " POST /devstoreaccount1/Tables 201 ") {
				t.Errorf("--debug's log: %q", log)
			}
		}
	}
}

// What cannot work is refused, naming the option and what would be right.
func TestAzuriteFlagsUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		vars map[string]string
		want string
	}{
		{[]string{"--location", "x", "--inMemoryPersistence"}, nil, "The --inMemoryPersistence option is not supported when the --location option is set."},
		{[]string{"--listen", "127.0.0.1:0", "--tablePort", "0"}, nil, "--listen and --tableHost/--tablePort"},
		{[]string{"--cert", "c.pem"}, nil, "--cert needs --key"},
		{[]string{"--key", "k.pem"}, nil, "--key and --pwd go with --cert"},
		{[]string{"--oauth", "basic"}, nil, "--oauth basic needs HTTPS"},
		{[]string{"--oauth", "full"}, nil, `--oauth takes basic (Azurite's only level), not "full"`},
		{[]string{"--tablePort", "0", "--tableKeepAliveTimeout", "-1"}, nil, "--tableKeepAliveTimeout takes seconds, 0 or more, not -1"},
		{[]string{"--tablePort", "0"}, map[string]string{"AZURITE_ACCOUNTS": "acct1:c2VjcmV0:bad key"}, "AZURITE_ACCOUNTS: emulator: bad accounts: account acct1: key2 is not base64"},
	} {
		var out, errb lockedBuffer
		vars := c.vars
		e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(""), hard: context.Background()}
		code := execute(context.Background(), append([]string{"emulator"}, c.args...), e)
		if code != exitUsage || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "c2VjcmV0") {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, errb.String(), c.want)
		}
	}
}

// AZURITE_ACCOUNTS' accounts are served, each with its connection string
// (the key left out), in place of the development account;
// AZURITE_SKIP_API_VERSION_CHECK=true serves any x-ms-version.
func TestAzuriteAccountsVariable(t *testing.T) {
	out := startEmulator(t, map[string]string{"AZURITE_ACCOUNTS": "acct1:c2VjcmV0MQ==;acct2:c2VjcmV0Mg==:c2VjcmV0Mw=="},
		"--tablePort", "0", "--model", "off")
	for _, want := range []string{"AccountName=acct1;AccountKey=<the account key>;", "AccountName=acct2;AccountKey=<the account key>;"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "c2VjcmV0") || strings.Contains(out, "devstoreaccount1") {
		t.Errorf("a key or the development account printed:\n%s", out)
	}
	url := strings.TrimSpace(strings.TrimPrefix(strings.Split(out, "\n")[0], "tablestress emulator listening on "))
	url = strings.Replace(url, "acct1", "acct2", 1)
	cred, _ := aztables.NewSharedKeyCredential("acct2", "c2VjcmV0Mw==")
	svc, _ := aztables.NewServiceClientWithSharedKey(url, cred, nil)
	if _, err := svc.CreateTable(context.Background(), "Second", nil); err != nil {
		t.Errorf("acct2 by its second key: %v", err)
	}
}
