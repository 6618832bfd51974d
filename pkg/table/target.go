// Package table is the one place in tablestress that talks to a Table
// endpoint: target parsing, aztables clients with SDK retries off and a
// connection pool sized to the workers, and the classification of every
// request's outcome (including failed entity group transactions, whose real
// status is inside a 202 multipart body). Errors and strings never carry an
// account key, SAS signature or token.
package table

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Kind is the kind of target.
type Kind string

// Target kinds.
const (
	KindEmbedded   Kind = "embedded"
	KindAzurite    Kind = "azurite"
	KindConnString Kind = "connection-string"
	KindAccountURL Kind = "account-url"
	KindSAS        Kind = "sas"
	KindCosmos     Kind = "cosmos"
)

// Azurite's development account.
const (
	DevAccount  = "devstoreaccount1"
	DevKey      = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	AzuriteHost = "127.0.0.1:10002"
)

// ErrTarget is wrapped by every target parsing error.
var ErrTarget = errors.New("table: bad target")

// TargetForms describes the accepted target spellings.
const TargetForms = `embedded, azurite, UseDevelopmentStorage=true, a connection string (AccountName=...;AccountKey=...;TableEndpoint=...), ` +
	`an account URL https://ACCOUNT.table.core.windows.net (signed in with DefaultAzureCredential), a SAS URL (https://...?sv=...&sig=...), ` +
	`or a Cosmos DB Table endpoint (https://ACCOUNT.table.cosmos.azure.com, or its connection string)`

// Target is a Table endpoint and how to authenticate to it. Its secret parts
// are unexported; String and Endpoint are always safe to print.
type Target struct {
	Kind     Kind
	Endpoint string // service URL without query string, e.g. http://127.0.0.1:10002/devstoreaccount1
	Account  string
	// Cosmos is set for Cosmos DB Table API endpoints (429 throttling).
	Cosmos bool

	key string // shared key (base64)
	sas string // SAS query string, without '?'
}

// String describes the target without secrets.
func (t Target) String() string {
	if t.Endpoint == "" {
		return string(t.Kind)
	}
	return string(t.Kind) + " " + t.Endpoint
}

// IsLoopback reports whether the endpoint is on this machine.
func (t Target) IsLoopback() bool {
	if t.Kind == KindEmbedded && t.Endpoint == "" {
		return true
	}
	u, err := url.Parse(t.Endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Secrets returns the secret strings of the target, so callers can prove
// that no output contains them.
func (t Target) Secrets() []string {
	var out []string
	if t.key != "" {
		out = append(out, t.key)
	}
	if q, err := url.ParseQuery(t.sas); err == nil && q.Get("sig") != "" {
		out = append(out, q.Get("sig"))
	}
	return out
}

// ParseTarget parses a target spec (see TargetForms).
func ParseTarget(spec string) (Target, error) {
	s := strings.TrimSpace(spec)
	switch {
	case s == "" || s == "embedded":
		return Target{Kind: KindEmbedded}, nil
	case s == "azurite":
		return Target{Kind: KindAzurite, Endpoint: "http://" + AzuriteHost + "/" + DevAccount, Account: DevAccount, key: DevKey}, nil
	case strings.HasPrefix(strings.ToLower(s), "http://") || strings.HasPrefix(strings.ToLower(s), "https://"):
		return parseURLTarget(s)
	case strings.Contains(s, "="):
		return parseConnString(s)
	}
	return Target{}, fmt.Errorf("%w: %q is not a target; use %s", ErrTarget, redactSpec(s), TargetForms)
}

// BindEmbedded returns the target of a started embedded service from its
// connection string, keeping the embedded kind for reports.
func BindEmbedded(connString string) (Target, error) {
	t, err := parseConnString(connString)
	if err != nil {
		return Target{}, err
	}
	t.Kind = KindEmbedded
	return t, nil
}

func parseURLTarget(s string) (Target, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return Target{}, fmt.Errorf("%w: not a valid URL; use %s", ErrTarget, TargetForms)
	}
	t := Target{Endpoint: strings.TrimSuffix(u.Scheme+"://"+u.Host+u.Path, "/")}
	t.Account = accountOf(u)
	t.Cosmos = isCosmosHost(u.Hostname())
	if u.RawQuery != "" {
		q := u.Query()
		if q.Get("sig") == "" {
			return Target{}, fmt.Errorf("%w: the URL has a query string but no SAS signature (sig=); give a SAS URL or the plain account URL", ErrTarget)
		}
		t.Kind, t.sas = KindSAS, u.RawQuery
		return t, nil
	}
	t.Kind = KindAccountURL
	if t.Cosmos {
		t.Kind = KindCosmos
	}
	if u.Scheme != "https" {
		return Target{}, fmt.Errorf("%w: %s: token authentication (DefaultAzureCredential) needs https; for a local endpoint use a connection string or azurite", ErrTarget, t.Endpoint)
	}
	return t, nil
}

func accountOf(u *url.URL) string {
	host := u.Hostname()
	if ip := net.ParseIP(host); ip != nil || host == "localhost" {
		return strings.Trim(strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 2)[0], "/")
	}
	return strings.SplitN(host, ".", 2)[0]
}

func isCosmosHost(host string) bool {
	return strings.HasSuffix(host, ".cosmos.azure.com") || strings.HasSuffix(host, ".cosmos.azure.cn") || strings.HasSuffix(host, ".documents.azure.com")
}

// parseConnString parses an Azure Storage or Cosmos DB connection string.
func parseConnString(s string) (Target, error) {
	kv := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return Target{}, fmt.Errorf("%w: connection string part %q is not KEY=VALUE", ErrTarget, redactSpec(k))
		}
		kv[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	if strings.EqualFold(kv["usedevelopmentstorage"], "true") {
		host := AzuriteHost
		if proxy := kv["developmentstorageproxyuri"]; proxy != "" {
			u, err := url.Parse(proxy)
			if err != nil || u.Hostname() == "" {
				return Target{}, fmt.Errorf("%w: DevelopmentStorageProxyUri is not a URL", ErrTarget)
			}
			host = u.Hostname() + ":10002"
		}
		return Target{Kind: KindAzurite, Endpoint: "http://" + host + "/" + DevAccount, Account: DevAccount, key: DevKey}, nil
	}
	t := Target{Kind: KindConnString, Account: kv["accountname"], key: kv["accountkey"], sas: strings.TrimPrefix(kv["sharedaccesssignature"], "?")}
	switch ep := kv["tableendpoint"]; {
	case ep != "":
		u, err := url.Parse(ep)
		if err != nil || u.Host == "" {
			return Target{}, fmt.Errorf("%w: TableEndpoint is not a URL", ErrTarget)
		}
		t.Endpoint = strings.TrimSuffix(u.Scheme+"://"+u.Host+u.Path, "/")
		t.Cosmos = isCosmosHost(u.Hostname())
		if t.Account == "" {
			t.Account = accountOf(u)
		}
	case t.Account != "":
		proto := kv["defaultendpointsprotocol"]
		if proto == "" {
			proto = "https"
		}
		suffix := kv["endpointsuffix"]
		if suffix == "" {
			suffix = "core.windows.net"
		}
		t.Endpoint = proto + "://" + t.Account + ".table." + suffix
	default:
		return Target{}, fmt.Errorf("%w: the connection string has neither AccountName nor TableEndpoint; use %s", ErrTarget, TargetForms)
	}
	if t.key == "" && t.sas == "" {
		return Target{}, fmt.Errorf("%w: the connection string has neither AccountKey nor SharedAccessSignature", ErrTarget)
	}
	if t.key != "" && t.Account == "" {
		return Target{}, fmt.Errorf("%w: the connection string has an AccountKey but no AccountName", ErrTarget)
	}
	if t.Cosmos {
		t.Kind = KindCosmos
	}
	return t, nil
}

// redactSpec hides anything that may be a secret in a spec echoed back.
func redactSpec(s string) string {
	if len(s) > 24 || strings.ContainsAny(s, "=&?") {
		return "<the given value>"
	}
	return s
}
