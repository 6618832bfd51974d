package main

import (
	"context"
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/devcert"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/entra"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/tokenauthority"
)

// entraClients are the applications of the tests' token authority: a
// contributor (also by workload identity), a reader, and an application
// whose tokens are for another resource.
var entraClients = []tokenauthority.Client{
	{Name: "contributor", ID: "aaaaaaaa-0000-4000-8000-000000000001", ObjectID: "aaaaaaaa-0000-4000-8000-0000000000a1", Secret: "contributor-secret-never-shown",
		Federations: []tokenauthority.Federation{{Subject: "system:serviceaccount:load:tablestress"}}},
	{Name: "reader", ID: "aaaaaaaa-0000-4000-8000-000000000002", ObjectID: "aaaaaaaa-0000-4000-8000-0000000000a2", Secret: "reader-secret-never-shown"},
	{Name: "elsewhere", ID: "aaaaaaaa-0000-4000-8000-000000000003", ObjectID: "aaaaaaaa-0000-4000-8000-0000000000a3", Secret: "elsewhere-secret-never-shown",
		Audience: "https://vault.azure.net"},
}

// entraService is a token authority whose clock is skew from this
// machine's, and the embedded service over TLS taking its tokens (the
// contributor and the other application assigned Contributor, the reader
// Reader), both certified by one authority written to caFile.
type entraService struct {
	auth   *tokenauthority.Authority
	target string // https://127.0.0.1:PORT/devstoreaccount1
	caFile string
}

func startEntraService(t *testing.T, skew time.Duration) *entraService {
	t.Helper()
	ca, err := devcert.NewCA("test")
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := ca.WriteCert(caFile); err != nil {
		t.Fatal(err)
	}
	atls, _ := ca.ServerConfig("127.0.0.1")
	auth, err := tokenauthority.Start("127.0.0.1:0", tokenauthority.Config{TLS: atls, Clients: entraClients,
		Now: func() time.Time { return time.Now().Add(skew) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { auth.Close(context.Background()) })
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	stls, _ := ca.ServerConfig("127.0.0.1")
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off(), TLS: stls, Entra: entra.New(entra.Config{
		Discovery: auth.DiscoveryURL(), Client: hc, Account: emulator.DevAccount,
		Assignments: []entra.Assignment{{Principal: entraClients[0].ObjectID, Role: entra.Contributor},
			{Principal: entraClients[1].ObjectID, Role: entra.Reader}, {Principal: entraClients[2].ObjectID, Role: entra.Contributor}}})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	return &entraService{auth: auth, target: in.URL(), caFile: caFile}
}

// signIn sets the environment DefaultAzureCredential reads for client c of
// the authority: a client secret, or with token a federated token file
// (workload identity) and no secret.
func (s *entraService) signIn(t *testing.T, c tokenauthority.Client, token string) {
	t.Helper()
	t.Setenv("AZURE_AUTHORITY_HOST", s.auth.Host())
	t.Setenv("AZURE_TENANT_ID", s.auth.Tenant())
	t.Setenv("AZURE_CLIENT_ID", c.ID)
	t.Setenv("AZURE_CLIENT_SECRET", c.Secret)
	t.Setenv("AZURE_FEDERATED_TOKEN_FILE", "")
	t.Setenv("AZURE_TOKEN_CREDENTIALS", "prod") // environment, workload identity, managed identity: no developer tool
	if token != "" {
		os.Unsetenv("AZURE_CLIENT_SECRET")
		path := filepath.Join(t.TempDir(), "token")
		os.WriteFile(path, []byte(token), 0o600)
		t.Setenv("AZURE_FEDERATED_TOKEN_FILE", path)
	}
}

// run runs tablestress against the service and returns its exit code,
// its stdout, and everything it printed and wrote.
func (s *entraService) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	base := []string{"../../scenarios/quickstart.yaml", "--target", s.target, "--ca-file", s.caFile, "--entities", "300", "--quiet"}
	if args[0] == "run" {
		base = append(base, "--duration", "2s", "--warmup", "0s", "--rate", "100", "--out", out)
	}
	code, stdout, stderr := runCLI(t, append(append([]string{args[0]}, base...), args[1:]...)...)
	report, _ := os.ReadFile(out)
	return code, stdout, stdout + stderr + string(report)
}

// tablestress signs in with DefaultAzureCredential to a token authority
// over TLS, through azidentity's documented environment variables, and
// loads the embedded service over TLS with its tokens: a contributor's run
// succeeds by client secret and by workload identity; a reader is refused
// its first write and the run stops with the cause stated; a token for
// another resource and an expired token are told apart; no token or
// secret appears in any output or report.
func TestEntraEndToEnd(t *testing.T) {
	s := startEntraService(t, 0)
	var all strings.Builder
	var fedToken string
	t.Run("contributor", func(t *testing.T) {
		s.signIn(t, entraClients[0], "")
		code, stdout, out := s.run(t, "run", "--format", "json")
		all.WriteString(out)
		r := decodeReport(t, stdout)
		// 99 when a threshold of the quickstart fails on a loaded machine:
		// the run itself worked.
		if code != exitOK && code != exitThreshold || r.Target.Kind != "account-url" || r.Totals.Ops == 0 || r.Totals.Errors != 0 {
			t.Fatalf("exit %d, target %v, totals %+v:\n%s", code, r.Target, r.Totals, out)
		}
	})
	t.Run("workload identity", func(t *testing.T) {
		tok, err := s.auth.FederatedToken("system:serviceaccount:load:tablestress", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		fedToken = tok // it must not be printed either: checked below
		s.signIn(t, entraClients[0], tok)
		code, _, out := s.run(t, "run")
		all.WriteString(out)
		if code != exitOK && code != exitThreshold || !strings.Contains(out, "verdict: ") || strings.Contains(out, "RUN DID NOT COMPLETE") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("reader", func(t *testing.T) {
		s.signIn(t, entraClients[1], "")
		code, _, out := s.run(t, "run")
		all.WriteString(out)
		if code != exitFailure || !strings.Contains(out, "the identity may read but not write this table") ||
			!strings.Contains(out, "403 AuthorizationPermissionMismatch") || !strings.Contains(out, "Storage Table Data Contributor") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("reader on a prepared table", func(t *testing.T) {
		s.signIn(t, entraClients[0], "")
		if code, _, out := s.run(t, "seed", "--table", "entraprepared", "--keep-table"); code != exitOK {
			t.Fatalf("seeding as the contributor: exit %d:\n%s", code, out)
		}
		s.signIn(t, entraClients[1], "")
		code, _, out := s.run(t, "run", "--table", "entraprepared", "--skip-seed", "--duration", "30s")
		all.WriteString(out)
		if code != exitFailure || !strings.Contains(out, "RUN DID NOT COMPLETE: the target refused the run: the identity may read but not write this table") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("another resource", func(t *testing.T) {
		s.signIn(t, entraClients[2], "")
		code, _, out := s.run(t, "run")
		all.WriteString(out)
		if code != exitFailure || !strings.Contains(out, "the token is for another audience (https://vault.azure.net") ||
			!strings.Contains(out, "401 InvalidAuthenticationInfo") || strings.Contains(out, "expired") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("expired", func(t *testing.T) {
		late := startEntraService(t, -2*time.Hour) // an authority two hours behind
		late.signIn(t, entraClients[0], "")
		code, _, out := late.run(t, "run")
		all.WriteString(out)
		if code != exitFailure || !strings.Contains(out, "the token has expired (it expired at ") || strings.Contains(out, "audience") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		for _, is := range late.auth.Issued() {
			if strings.Contains(all.String(), is.Token) {
				t.Errorf("an access token of the late authority appears in the output")
			}
		}
	})
	text := all.String()
	issued := s.auth.Issued()
	if len(issued) < 5 {
		t.Fatalf("the authority issued %d tokens", len(issued))
	}
	for _, is := range issued {
		if strings.Contains(text, is.Token) {
			t.Errorf("an access token of %s appears in the output", is.ClientID)
		}
	}
	if fedToken == "" || strings.Contains(text, fedToken) {
		t.Error("the federated token appears in the output (or none was made)")
	}
	for _, c := range entraClients {
		if strings.Contains(text, c.Secret) {
			t.Errorf("the client secret of %s appears in the output", c.Name)
		}
	}
}
