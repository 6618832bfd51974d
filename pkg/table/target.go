// Package table is the one place in tablestress that talks to a Table
// endpoint: target parsing, aztables clients with SDK retries off and a
// connection pool sized to the workers, and the classification of every
// request's outcome (including failed entity group transactions, whose real
// status is inside a 202 multipart body). Errors and strings never carry an
// account key, SAS signature or token.
package table

import (
	"errors"
	"net"
	"net/url"
	"strings"
)

// Kind is the kind of target, as reports name it.
type Kind string

// Target kinds.
const (
	// KindEmbedded is the embedded Table service, started by the command
	// layer; it has no endpoint until Bind gives it one.
	KindEmbedded Kind = "embedded"
	// KindAzurite is Azurite's well-known development account.
	KindAzurite Kind = "azurite"
	// KindConnString is an Azure Storage connection string.
	KindConnString Kind = "connection-string"
	// KindAccountURL is an account URL signed in with DefaultAzureCredential.
	KindAccountURL Kind = "account-url"
	// KindSAS is a URL carrying a shared access signature.
	KindSAS Kind = "sas"
	// KindCosmos is a Cosmos DB Table API endpoint (connection string or
	// account URL signed in with DefaultAzureCredential).
	KindCosmos Kind = "cosmos"
)

// Azurite's development account, public by design.
const (
	DevAccount  = "devstoreaccount1"
	DevKey      = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	AzuriteHost = "127.0.0.1:10002"
	azuritePort = "10002"
)

// ErrTarget is wrapped by every target parsing error.
var ErrTarget = errors.New("table: bad target")

// TargetForms describes the accepted target spellings; parsing errors end with it.
const TargetForms = `embedded; azurite; UseDevelopmentStorage=true; a connection string ` +
	`(AccountName=...;AccountKey=...[;TableEndpoint=...] or TableEndpoint=...;SharedAccessSignature=...); ` +
	`an account URL https://ACCOUNT.table.core.windows.net (signed in with DefaultAzureCredential); ` +
	`a SAS URL https://ACCOUNT.table.core.windows.net/?sv=...&sig=...; ` +
	`a Cosmos DB Table endpoint https://ACCOUNT.table.cosmos.azure.com (or its connection string)`

// Target is a Table endpoint and how to authenticate to it. Its secret parts
// are unexported: String, Endpoint and Account are always safe to print
// (ParseTarget refuses a spec in which they would contain the key or the
// signature). A Target is a value; it is safe to copy and share.
type Target struct {
	Kind Kind
	// Endpoint is the table service URL without query string or trailing
	// slash, e.g. http://127.0.0.1:10002/devstoreaccount1 or
	// https://prod.table.core.windows.net. Empty for an unbound embedded target.
	Endpoint string
	// Account is the storage (or Cosmos DB) account name, when known.
	Account string
	// Cosmos is set for Cosmos DB Table API endpoints, whose throttling is
	// 429 with x-ms-retry-after-ms.
	Cosmos bool
	// InProcess is set for the embedded service in this process reached
	// with no socket (Options.RoundTripper): Endpoint is then the URL its
	// client addresses, on which nothing listens.
	InProcess bool

	key    string // shared key (base64)
	sas    string // SAS query string, without '?'
	sig    string // the SAS signature, decoded
	rawSig string // the SAS signature as it was written (URL-encoded)
}

// String describes the target without secrets: "KIND WHERE".
func (t Target) String() string {
	if t.Endpoint == "" {
		return string(t.Kind)
	}
	return string(t.Kind) + " " + t.Where()
}

// InProcessEndpoint is what Where says of a target in process.
const InProcessEndpoint = "in-process"

// Where is the endpoint as reports name it: the URL, or "in-process" for
// the embedded service reached with no socket (InProcess).
func (t Target) Where() string {
	if t.InProcess {
		return InProcessEndpoint
	}
	return t.Endpoint
}

// IsLoopback reports whether the endpoint is on this machine: its host is
// localhost, in 127.0.0.0/8 or ::1. An unbound embedded target is loopback
// (the embedded service only listens there).
func (t Target) IsLoopback() bool {
	if t.Endpoint == "" {
		return t.Kind == KindEmbedded
	}
	u, err := url.Parse(t.Endpoint)
	if err != nil {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Secrets returns the secret strings of the target (account key, SAS
// signature as given and decoded), so callers and tests can prove that no
// output contains them. Never print the result.
func (t Target) Secrets() []string {
	var out []string
	for _, s := range []string{t.key, t.sig, t.rawSig} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// auth names the credential Open will use: "shared key", "SAS" or "token".
func (t Target) auth() string {
	switch {
	case t.key != "":
		return "shared key"
	case t.sas != "":
		return "SAS"
	}
	return "token"
}

// Bind returns the target of connString, the connection string of a
// service started after parsing (the embedded one), keeping t's Kind (when
// set) for reports: ParseTarget("embedded") then Bind(conn) is an embedded
// target with conn's endpoint and key.
func (t Target) Bind(connString string) (Target, error) {
	b, err := parseConnString(strings.TrimSpace(connString))
	if err != nil {
		return Target{}, err
	}
	if t.Kind != "" {
		b.Kind = t.Kind
	}
	return b, nil
}

// BindEmbedded is Target{Kind: KindEmbedded}.Bind(connString): the target
// of a started embedded service, reported as embedded.
func BindEmbedded(connString string) (Target, error) {
	return Target{Kind: KindEmbedded}.Bind(connString)
}

// ParseTarget parses a target spec (see TargetForms). The empty spec is
// embedded, the default. Errors wrap ErrTarget, say what was wrong and
// which forms are accepted, and never repeat any part of the spec (which
// may hold a key or a signature).
func ParseTarget(spec string) (Target, error) {
	s := strings.TrimSpace(spec)
	lower := strings.ToLower(s)
	switch {
	case s == "" || lower == "embedded":
		return Target{Kind: KindEmbedded}, nil
	case lower == "azurite":
		return azurite("http", "127.0.0.1"), nil
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
		return parseURLTarget(s)
	case strings.Contains(s, "="):
		return parseConnString(s)
	}
	return Target{}, targetError("the target is not one of the accepted forms")
}

// azurite is the development account at scheme://host:10002.
func azurite(scheme, host string) Target {
	return Target{Kind: KindAzurite, Endpoint: scheme + "://" + net.JoinHostPort(host, azuritePort) + "/" + DevAccount,
		Account: DevAccount, key: DevKey}
}

// checkNoLeak refuses a target whose printable parts contain one of its
// secrets (a spec that repeats its key or signature in the endpoint).
func checkNoLeak(t Target) error {
	shown := t.String() + " " + t.Account
	for _, s := range t.Secrets() {
		if strings.Contains(shown, s) {
			return targetError("the endpoint or account name contains the key or the signature; check the spec")
		}
	}
	return nil
}

// targetError is a parsing error: what was wrong, then the accepted forms.
func targetError(what string) error {
	return &parseError{what: what}
}

type parseError struct{ what string }

func (e *parseError) Error() string {
	return ErrTarget.Error() + ": " + e.what + "; accepted: " + TargetForms
}
func (e *parseError) Unwrap() error { return ErrTarget }

// Problem is what was wrong with the spec, without the list of forms (for
// a caller that points to them another way).
func (e *parseError) Problem() string { return e.what }
