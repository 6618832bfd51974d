package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/entra"
	"github.com/tablestress/tablestress/pkg/tokenauthority"
)

// devIdentity is one of the development identities of tablestress
// emulator --entra: an application of the local token authority with a
// role on the account. Like the development account's key, their IDs and
// secrets are public and documented (docs/emulator.md): they sign in to an
// authority on this machine only.
type devIdentity struct {
	name     string
	role     entra.Role
	client   tokenauthority.Client
	federate bool // the identity of the workload identity token
}

// WorkloadSubject is the service account the development federated token
// names, as a Kubernetes cluster would for the tablestress service
// account of the default namespace.
const WorkloadSubject = "system:serviceaccount:default:tablestress"

var devIdentities = []devIdentity{
	{name: "contributor", role: entra.Contributor, federate: true, client: tokenauthority.Client{Name: "contributor",
		ID: "11111111-1111-4111-8111-111111111111", ObjectID: "11111111-1111-4111-8111-1111111111a0", Secret: "tablestress-contributor-secret",
		Federations: []tokenauthority.Federation{{Subject: WorkloadSubject}}}},
	{name: "reader", role: entra.Reader, client: tokenauthority.Client{Name: "reader",
		ID: "22222222-2222-4222-8222-222222222222", ObjectID: "22222222-2222-4222-8222-2222222222a0", Secret: "tablestress-reader-secret"}},
}

// localEntra is the token authority of tablestress emulator --entra and
// the validator the service checks its tokens with.
type localEntra struct {
	auth      *tokenauthority.Authority
	validator *entra.Validator
	tokenFile string // the workload identity's federated token
	stop      chan struct{}
}

// startEntra starts the token authority on a free loopback port, over TLS
// with a certificate of t's authority, with the development identities;
// writes the federated token a pod would have (renewed every ten minutes,
// valid for an hour, as a cluster renews it); and makes the validator of
// the service of account, which trusts the authority's keys and assigns
// the identities their roles.
func startEntra(t *emulatorTLS, account string) (*localEntra, error) {
	srvTLS, err := t.ca.ServerConfig("127.0.0.1")
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	cfg := tokenauthority.Config{TLS: srvTLS}
	var assign []entra.Assignment
	for _, id := range devIdentities {
		cfg.Clients = append(cfg.Clients, id.client)
		assign = append(assign, entra.Assignment{Principal: id.client.ObjectID, Role: id.role})
	}
	auth, err := tokenauthority.Start("127.0.0.1:0", cfg)
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: t.ca.Pool(), MinVersion: tls.VersionTLS12}}}
	le := &localEntra{auth: auth, tokenFile: filepath.Join(t.dir, "federated-token"), stop: make(chan struct{}),
		validator: entra.New(entra.Config{Discovery: auth.DiscoveryURL(), Client: hc, Account: account, Assignments: assign})}
	if err := le.writeToken(); err != nil {
		le.close()
		return nil, withCode(exitFailure, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := le.validator.Load(ctx); err != nil {
		le.close()
		return nil, withCode(exitFailure, err)
	}
	go le.renew()
	return le, nil
}

// writeToken writes a fresh federated token, mode 0600 (it signs in).
func (le *localEntra) writeToken() error {
	tok, err := le.auth.FederatedToken(WorkloadSubject, time.Hour)
	if err != nil {
		return err
	}
	tmp := le.tokenFile + ".new"
	if err := os.WriteFile(tmp, []byte(tok), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, le.tokenFile)
}

// renew writes the federated token again every ten minutes until close.
func (le *localEntra) renew() {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-le.stop:
			return
		case <-t.C:
			_ = le.writeToken()
		}
	}
}

func (le *localEntra) close() {
	close(le.stop)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = le.auth.Close(ctx)
}

// lines are what the command prints of the authority: for each
// development identity, the environment DefaultAzureCredential signs in
// with (its secret is public, as the development account's key is).
func (le *localEntra) lines(caPath string) []string {
	a := le.auth
	base := "AZURE_AUTHORITY_HOST=" + a.Host() + " AZURE_TENANT_ID=" + a.Tenant()
	out := []string{fmt.Sprintf("Microsoft Entra ID: token authority %s, tenant %s (its certificate is the same authority's: %s)", a.Host(), a.Tenant(), caPath)}
	for _, id := range devIdentities {
		out = append(out, fmt.Sprintf("  %s (%s): %s AZURE_CLIENT_ID=%s AZURE_CLIENT_SECRET=%s", id.name, id.role, base, id.client.ID, id.client.Secret))
		if id.federate {
			out = append(out, fmt.Sprintf("  workload identity of %s (subject %s): %s AZURE_CLIENT_ID=%s AZURE_FEDERATED_TOKEN_FILE=%s",
				id.name, WorkloadSubject, base, id.client.ID, le.tokenFile))
		}
	}
	return append(out, "  (instance discovery, a question to login.microsoftonline.com, must be off for this authority: tablestress turns it off itself; "+
		"Python's credentials take disable_instance_discovery=True (instance_discovery=False before azure-identity 1.13), JavaScript's disableInstanceDiscovery: true)")
}
