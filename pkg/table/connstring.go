package table

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
)

// connString holds the settings of an Azure Storage (or Cosmos DB Table
// API) connection string.
type connString struct {
	account, key, endpoint, protocol, suffix, sas, useDev, proxy string
	seen                                                         map[string]bool
}

// connKeys names the keys a connection string may set, in the spelling
// errors use.
const connKeys = "AccountName, AccountKey, TableEndpoint, DefaultEndpointsProtocol, EndpointSuffix, " +
	"SharedAccessSignature, UseDevelopmentStorage, DevelopmentStorageProxyUri"

// field returns where the value of key k goes; ignored is set for the keys
// of other storage services, which a full connection string carries.
func (c *connString) field(k string) (f *string, ignored bool) {
	switch strings.ToLower(k) {
	case "accountname":
		return &c.account, false
	case "accountkey":
		return &c.key, false
	case "tableendpoint":
		return &c.endpoint, false
	case "defaultendpointsprotocol":
		return &c.protocol, false
	case "endpointsuffix":
		return &c.suffix, false
	case "sharedaccesssignature":
		return &c.sas, false
	case "usedevelopmentstorage":
		return &c.useDev, false
	case "developmentstorageproxyuri":
		return &c.proxy, false
	case "blobendpoint", "queueendpoint", "fileendpoint", "blobsecondaryendpoint", "queuesecondaryendpoint",
		"filesecondaryendpoint", "tablesecondaryendpoint":
		return nil, true
	}
	return nil, false
}

// parseConnString parses KEY=VALUE;... (keys case-insensitive, values may
// contain '='). Errors name parts by position, never by content.
func parseConnString(s string) (Target, error) {
	c := connString{seen: map[string]bool{}}
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		nth := "part " + strconv.Itoa(i+1) + " of the connection string"
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return Target{}, targetError(nth + " is not KEY=VALUE")
		}
		k = strings.TrimSpace(k)
		f, ignored := c.field(k)
		switch {
		case ignored:
			continue
		case f == nil:
			return Target{}, targetError(nth + " has an unknown key; the keys are " + connKeys)
		case c.seen[strings.ToLower(k)]:
			return Target{}, targetError(nth + " repeats a key given before")
		}
		c.seen[strings.ToLower(k)] = true
		*f = strings.TrimSpace(v)
	}
	if c.seen["usedevelopmentstorage"] {
		return c.devStorage()
	}
	t, err := c.endpointTarget()
	if err != nil {
		return Target{}, err
	}
	if err := c.credential(&t); err != nil {
		return Target{}, err
	}
	return t, checkNoLeak(t)
}

// devStorage expands UseDevelopmentStorage=true, which aztables cannot
// parse, to Azurite's account: on 127.0.0.1, or on the host (and with the
// scheme) of DevelopmentStorageProxyUri, always at the table port 10002.
func (c *connString) devStorage() (Target, error) {
	if !strings.EqualFold(c.useDev, "true") {
		return Target{}, targetError("UseDevelopmentStorage takes only the value true")
	}
	if len(c.seen) > 2 || (len(c.seen) == 2 && !c.seen["developmentstorageproxyuri"]) {
		return Target{}, targetError("UseDevelopmentStorage=true goes alone, or with DevelopmentStorageProxyUri only")
	}
	if c.proxy == "" {
		return azurite("http", "127.0.0.1"), nil
	}
	u, err := url.Parse(c.proxy)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return Target{}, targetError("DevelopmentStorageProxyUri is not an http(s)://HOST URL")
	}
	return azurite(u.Scheme, u.Hostname()), nil
}

// endpointTarget builds the endpoint from TableEndpoint, or from
// AccountName, DefaultEndpointsProtocol and EndpointSuffix.
func (c *connString) endpointTarget() (Target, error) {
	t := Target{Kind: KindConnString, Account: c.account}
	if c.account != "" && !hostLabel(c.account) {
		return Target{}, targetError("AccountName must be letters, digits and hyphens")
	}
	switch {
	case c.endpoint != "":
		u, err := url.Parse(c.endpoint)
		if err != nil {
			return Target{}, targetError("TableEndpoint is not a URL; write http(s)://HOST[:PORT][/ACCOUNT]")
		}
		if u.RawQuery != "" || u.ForceQuery {
			return Target{}, targetError("TableEndpoint has a query string; give a SAS as SharedAccessSignature=...")
		}
		ep, account, err := serviceEndpoint(u, "TableEndpoint")
		if err != nil {
			return Target{}, err
		}
		t.Endpoint, t.Cosmos = ep, isCosmosHost(u.Hostname())
		if t.Account == "" {
			t.Account = account
		}
	case c.account != "":
		proto := strings.ToLower(c.protocol)
		if proto == "" {
			proto = "https"
		}
		if proto != "http" && proto != "https" {
			return Target{}, targetError("DefaultEndpointsProtocol is http or https")
		}
		suffix := c.suffix
		if suffix == "" {
			suffix = "core.windows.net"
		}
		for _, label := range strings.Split(suffix, ".") {
			if !hostLabel(label) {
				return Target{}, targetError("EndpointSuffix is not a host name such as core.windows.net")
			}
		}
		t.Endpoint = proto + "://" + c.account + ".table." + suffix
	default:
		return Target{}, targetError("the connection string has neither AccountName nor TableEndpoint")
	}
	if t.Cosmos {
		t.Kind = KindCosmos
	}
	return t, nil
}

// credential sets the shared key or the SAS of t.
func (c *connString) credential(t *Target) error {
	switch {
	case c.key != "" && c.sas != "":
		return targetError("the connection string has both AccountKey and SharedAccessSignature; give one")
	case c.key != "":
		if b, err := base64.StdEncoding.DecodeString(c.key); err != nil || len(b) == 0 {
			return targetError("AccountKey is not base64 (an account key is the 88-character base64 string of the account's access keys)")
		}
		if t.Account == "" {
			return targetError("an AccountKey needs AccountName=...")
		}
		t.key = c.key
		return nil
	case c.sas != "":
		return t.setSAS(c.sas, "SharedAccessSignature")
	}
	return targetError("the connection string has neither AccountKey nor SharedAccessSignature " +
		"(for token authentication give the account URL https://ACCOUNT.table.core.windows.net)")
}

// hostLabel reports whether s is a DNS label: letters, digits and inner hyphens.
func hostLabel(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-') {
			return false
		}
	}
	return true
}
