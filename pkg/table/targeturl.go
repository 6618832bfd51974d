package table

import (
	"net"
	"net/url"
	"strings"
)

// parseURLTarget parses an account URL (token authentication), a SAS URL,
// or a Cosmos DB Table account URL.
func parseURLTarget(s string) (Target, error) {
	u, err := url.Parse(s)
	if err != nil {
		return Target{}, targetError("the URL does not parse")
	}
	ep, account, err := serviceEndpoint(u, "the URL")
	if err != nil {
		return Target{}, err
	}
	t := Target{Endpoint: ep, Account: account, Cosmos: isCosmosHost(u.Hostname())}
	if u.RawQuery != "" || u.ForceQuery {
		if err := t.setSAS(u.RawQuery, "the URL's query string"); err != nil {
			return Target{}, err
		}
		t.Kind = KindSAS
		return t, checkNoLeak(t)
	}
	if u.Scheme != "https" {
		return Target{}, targetError("an account URL is signed in with DefaultAzureCredential, and token authentication " +
			"needs https; for a local endpoint over http use azurite, a connection string or a SAS URL")
	}
	t.Kind = KindAccountURL
	if t.Cosmos {
		t.Kind = KindCosmos
	}
	return t, checkNoLeak(t)
}

// setSAS keeps a SAS query string (with or without its leading '?') and its
// signature; what names where it came from in errors.
func (t *Target) setSAS(query, what string) error {
	query = strings.TrimPrefix(query, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return targetError(what + " is not a valid query string")
	}
	sig := q.Get("sig")
	if sig == "" {
		return targetError(what + " has no SAS signature (sig=); give a whole SAS token (sv=...&sig=...), " +
			"or the plain account URL for token authentication")
	}
	t.sas, t.sig = query, sig
	for _, kv := range strings.Split(query, "&") {
		if v, ok := strings.CutPrefix(kv, "sig="); ok && v != sig {
			t.rawSig = v
		}
	}
	return nil
}

// serviceEndpoint checks a table service URL and returns it without query
// string, fragment or trailing slash, with the account it names. Azure and
// Cosmos DB hosts name the account in the host
// (https://ACCOUNT.table.core.windows.net); other hosts may name it in a
// one-segment path (http://127.0.0.1:10002/devstoreaccount1,
// http://azurite:10002/devstoreaccount1). what names the URL in errors.
func serviceEndpoint(u *url.URL, what string) (endpoint, account string, err error) {
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", "", targetError(what + " is not an http or https URL")
	case u.Hostname() == "" || u.Opaque != "":
		return "", "", targetError(what + " has no host; write http(s)://HOST[:PORT][/ACCOUNT]")
	case u.User != nil:
		return "", "", targetError(what + " carries a user name or password; give credentials as AccountKey, a SAS or DefaultAzureCredential")
	case u.Fragment != "":
		return "", "", targetError(what + " has a #fragment; a table service URL has none")
	}
	host := strings.ToLower(u.Hostname())
	path := strings.Trim(u.EscapedPath(), "/")
	base := u.Scheme + "://" + u.Host
	switch {
	case path == "":
		if net.ParseIP(host) == nil && host != "localhost" {
			account = strings.SplitN(host, ".", 2)[0]
		}
		return base, account, nil
	case isAzureHost(host):
		return "", "", targetError(what + " has a path after the host; an Azure account URL has none " +
			"(https://ACCOUNT.table.core.windows.net): tablestress creates and names its own tables")
	case strings.Contains(path, "/"):
		return "", "", targetError(what + " has more than one path segment; a table service URL is " +
			"http(s)://HOST[:PORT][/ACCOUNT]: tablestress creates and names its own tables")
	}
	return base + "/" + path, path, nil
}

// azureTableSuffixes are the public and sovereign clouds' Table Storage hosts.
var azureTableSuffixes = [...]string{".core.windows.net", ".core.chinacloudapi.cn", ".core.usgovcloudapi.net"}

// isAzureHost reports whether host is an Azure Storage or Cosmos DB host,
// which names the account in its first label.
func isAzureHost(host string) bool {
	for _, s := range azureTableSuffixes {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return isCosmosHost(host)
}

// isCosmosHost reports whether host is a Cosmos DB Table API endpoint
// (ACCOUNT.table.cosmos.azure.com, or the older ACCOUNT.table.cosmosdb.azure.com),
// the test aztables itself applies.
func isCosmosHost(host string) bool {
	host = strings.ToLower(host)
	return strings.Contains(host, ".table.cosmos.") || strings.Contains(host, ".table.cosmosdb.")
}
