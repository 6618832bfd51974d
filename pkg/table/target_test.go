package table

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// key and sig stand for secrets a spec may carry; no output may show them.
const (
	key = "c2VjcmV0LWtleS1kby1ub3QtcHJpbnQtdGhpcy1rZXktMTIzNDU2Nzg5MA=="
	sig = "U2VjcmV0U2lnbmF0dXJlT2ZUaGlz%2BU0FT%3D"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		spec     string
		kind     Kind
		endpoint string
		account  string
		loopback bool
		auth     string
	}{
		// The default and the embedded service before it is bound.
		{"", KindEmbedded, "", "", true, "token"},
		{" embedded ", KindEmbedded, "", "", true, "token"},
		// Azurite's well-known account.
		{"azurite", KindAzurite, "http://127.0.0.1:10002/devstoreaccount1", DevAccount, true, "shared key"},
		{"UseDevelopmentStorage=true", KindAzurite, "http://127.0.0.1:10002/devstoreaccount1", DevAccount, true, "shared key"},
		{"UseDevelopmentStorage=true;", KindAzurite, "http://127.0.0.1:10002/devstoreaccount1", DevAccount, true, "shared key"},
		// The proxy gives the host and scheme; the port is always the table port.
		{"UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://azurite", KindAzurite, "http://azurite:10002/devstoreaccount1", DevAccount, false, "shared key"},
		{"usedevelopmentstorage=TRUE;developmentstorageproxyuri=https://[::1]:8080/", KindAzurite, "https://[::1]:10002/devstoreaccount1", DevAccount, true, "shared key"},
		// Azurite or the embedded service through a connection string.
		{"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key + ";TableEndpoint=http://127.0.0.1:10102/devstoreaccount1;",
			KindConnString, "http://127.0.0.1:10102/devstoreaccount1", "devstoreaccount1", true, "shared key"},
		// The docker-compose spelling: a service name and a path-style account.
		{"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key + ";TableEndpoint=http://azurite:10002/devstoreaccount1;",
			KindConnString, "http://azurite:10002/devstoreaccount1", "devstoreaccount1", false, "shared key"},
		// An Azure connection string from the portal, with the other services' endpoints.
		{"DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=" + key + ";EndpointSuffix=core.windows.net;BlobEndpoint=https://prod.blob.core.windows.net/",
			KindConnString, "https://prod.table.core.windows.net", "prod", false, "shared key"},
		// The defaults: https and core.windows.net.
		{"AccountName=prod;AccountKey=" + key, KindConnString, "https://prod.table.core.windows.net", "prod", false, "shared key"},
		// A sovereign cloud's suffix.
		{"AccountName=prod;AccountKey=" + key + ";EndpointSuffix=core.chinacloudapi.cn", KindConnString, "https://prod.table.core.chinacloudapi.cn", "prod", false, "shared key"},
		// The account name comes from the TableEndpoint host when not given.
		{"TableEndpoint=https://prod.table.core.windows.net/;SharedAccessSignature=sv=2020-08-04&ss=t&sig=" + sig,
			KindConnString, "https://prod.table.core.windows.net", "prod", false, "SAS"},
		// Cosmos DB Table API connection strings, current and legacy domain.
		{"DefaultEndpointsProtocol=https;AccountName=cos;AccountKey=" + key + ";TableEndpoint=https://cos.table.cosmos.azure.com:443/;",
			KindCosmos, "https://cos.table.cosmos.azure.com:443", "cos", false, "shared key"},
		{"AccountName=cos;AccountKey=" + key + ";TableEndpoint=https://cos.table.cosmosdb.azure.com:443/",
			KindCosmos, "https://cos.table.cosmosdb.azure.com:443", "cos", false, "shared key"},
		// Account URLs: DefaultAzureCredential.
		{"https://prod.table.core.windows.net/", KindAccountURL, "https://prod.table.core.windows.net", "prod", false, "token"},
		{"HTTPS://prod.table.core.windows.net", KindAccountURL, "https://prod.table.core.windows.net", "prod", false, "token"},
		{"https://cos.table.cosmos.azure.com", KindCosmos, "https://cos.table.cosmos.azure.com", "cos", false, "token"},
		// SAS URLs; the endpoint never keeps the query string.
		{"https://prod.table.core.windows.net/?sv=2020-08-04&ss=t&srt=sco&sp=rwdlacu&sig=" + sig, KindSAS, "https://prod.table.core.windows.net", "prod", false, "SAS"},
		{"http://127.0.0.1:10002/devstoreaccount1?sv=2020-08-04&sig=" + sig, KindSAS, "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1", true, "SAS"},
		{"http://localhost:10002/devstoreaccount1/?sig=" + sig, KindSAS, "http://localhost:10002/devstoreaccount1", "devstoreaccount1", true, "SAS"},
	}
	for _, tt := range tests {
		got, err := ParseTarget(tt.spec)
		if err != nil {
			t.Errorf("ParseTarget(%.60q): %v", tt.spec, err)
			continue
		}
		if got.Kind != tt.kind || got.Endpoint != tt.endpoint || got.Account != tt.account || got.IsLoopback() != tt.loopback || got.auth() != tt.auth {
			t.Errorf("ParseTarget(%.60q) = %s %q %q loopback %v auth %s, want %s %q %q %v %s",
				tt.spec, got.Kind, got.Endpoint, got.Account, got.IsLoopback(), got.auth(), tt.kind, tt.endpoint, tt.account, tt.loopback, tt.auth)
		}
		wantString := string(tt.kind)
		if tt.endpoint != "" {
			wantString += " " + tt.endpoint
		}
		if got.String() != wantString {
			t.Errorf("String() = %q, want %q", got.String(), wantString)
		}
		assertNoSecret(t, got.String()+" "+got.Endpoint+" "+got.Account)
	}
}

func TestParseTargetErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		// Not any form.
		{"nonsense", "is not one of the accepted forms"},
		{"c2VjcmV0LWtleS1kby1ub3QtcHJpbnQtdGhpcy1rZXktMTIzNDU2Nzg5MA", "is not one of the accepted forms"},
		// A bare key (base64 ends in '=') reads as a connection string with an unknown key.
		{key, "part 1 of the connection string has an unknown key"},
		// Token authentication needs https.
		{"http://prod.table.core.windows.net", "needs https"},
		// A query string without a signature.
		{"https://prod.table.core.windows.net/?sv=1&x=" + key, "no SAS signature"},
		// A URL naming a table, or with more than one segment.
		{"https://prod.table.core.windows.net/mytable?sig=" + sig, "has a path after the host"},
		{"http://127.0.0.1:10002/devstoreaccount1/mytable?sig=" + sig, "more than one path segment"},
		{"https://user:" + key + "@prod.table.core.windows.net/", "user name or password"},
		{"https://prod.table.core.windows.net/#" + key, "#fragment"},
		{"https://", "has no host"},
		{"https://prod.table.core.windows.net:port/", "does not parse"},
		// Connection strings missing what they need.
		{"AccountName=prod", "neither AccountKey nor SharedAccessSignature"},
		{"AccountKey=" + key, "neither AccountName nor TableEndpoint"},
		{"TableEndpoint=https://1.2.3.4/;AccountKey=" + key, "needs AccountName"},
		{"AccountName=x;AccountKey=" + key + ";TableEndpoint=::nope", "TableEndpoint is not a URL"},
		{"AccountName=x;AccountKey=" + key + ";TableEndpoint=ftp://x/", "not an http or https URL"},
		{"AccountName=x;AccountKey=" + key + ";TableEndpoint=https://x.table.core.windows.net/?sig=" + sig, "TableEndpoint has a query string"},
		{"AccountName=x;AccountKey=not*base64" + key, "AccountKey is not base64"},
		{"AccountName=x;AccountKey=" + key + ";SharedAccessSignature=sig=" + sig, "both AccountKey and SharedAccessSignature"},
		{"AccountName=x;SharedAccessSignature=sv=2020&" + key, "SharedAccessSignature has no SAS signature"},
		{"AccountName=x;c2VjcmV0LWtleS1kby1ub3QtcHJpbnQtdGhpcy1rZXktMTIzNDU2Nzg5MA", "part 2 of the connection string is not KEY=VALUE"},
		{"AccountName=x;AcountKey=" + key, "part 2 of the connection string has an unknown key"},
		{"AccountName=x;AccountName=y;AccountKey=" + key, "part 2 of the connection string repeats a key"},
		{"AccountName=x.y;AccountKey=" + key, "AccountName must be"},
		{"AccountName=x;AccountKey=" + key + ";DefaultEndpointsProtocol=ftp", "DefaultEndpointsProtocol is http or https"},
		{"AccountName=x;AccountKey=" + key + ";EndpointSuffix=core windows", "EndpointSuffix is not a host name"},
		{"UseDevelopmentStorage=false", "takes only the value true"},
		{"UseDevelopmentStorage=true;AccountName=x", "goes alone"},
		{"UseDevelopmentStorage=true;DevelopmentStorageProxyUri=azurite", "not an http(s)://HOST URL"},
		// A spec that repeats its secret where it would be printed.
		{"AccountName=x;AccountKey=aHR0cA==;TableEndpoint=http://aHR0cA==.example", "contains the key or the signature"},
	}
	for _, tt := range tests {
		_, err := ParseTarget(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrTarget) {
			t.Errorf("ParseTarget(%.50q) = %v, want an ErrTarget saying %q", tt.spec, err, tt.want)
			continue
		}
		if !strings.HasSuffix(err.Error(), "accepted: "+TargetForms) {
			t.Errorf("ParseTarget(%.50q): the error does not list the accepted forms: %v", tt.spec, err)
		}
		assertNoSecret(t, err.Error())
	}
}

func TestBind(t *testing.T) {
	conn := "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key + ";TableEndpoint=http://127.0.0.1:43111/devstoreaccount1;"
	emb, _ := ParseTarget("embedded")
	got, err := emb.Bind(conn)
	if err != nil || got.Kind != KindEmbedded || got.Endpoint != "http://127.0.0.1:43111/devstoreaccount1" || got.auth() != "shared key" || !got.IsLoopback() {
		t.Errorf("Bind = %v (%s), %v", got, got.auth(), err)
	}
	if again, err := BindEmbedded(conn); err != nil || again != got {
		t.Errorf("BindEmbedded = %v, %v; want %v", again, err, got)
	}
	if _, err := emb.Bind("AccountName=x"); !errors.Is(err, ErrTarget) {
		t.Errorf("Bind(bad) = %v", err)
	}
	if _, err := Open(emb, Options{}); !errors.Is(err, ErrOpen) {
		t.Errorf("Open(unbound embedded) = %v, want ErrOpen", err)
	}
}

func TestSecretsListed(t *testing.T) {
	tests := []struct {
		spec string
		want []string
	}{
		{"https://prod.table.core.windows.net/?sv=1&sig=" + sig, []string{"U2VjcmV0U2lnbmF0dXJlT2ZUaGlz+U0FT=", sig}},
		{"AccountName=a;AccountKey=" + key, []string{key}},
		{"https://prod.table.core.windows.net", nil},
	}
	for _, tt := range tests {
		tg, err := ParseTarget(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := tg.Secrets(); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Secrets(%.40q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	tests := map[string]bool{
		"http://127.0.0.1:1/a": true, "http://127.9.8.7/a": true, "http://[::1]:1/a": true, "http://LocalHost:1/a": true,
		"http://10.0.0.1/a": false, "https://prod.table.core.windows.net": false, "http://localhost.example.com/a": false, "::bad": false,
	}
	for ep, want := range tests {
		if got := (Target{Kind: KindConnString, Endpoint: ep}).IsLoopback(); got != want {
			t.Errorf("IsLoopback(%s) = %v, want %v", ep, got, want)
		}
	}
}

func assertNoSecret(t *testing.T, s string) {
	t.Helper()
	for _, secret := range []string{key, sig, "U2VjcmV0U2lnbmF0dXJl", "c2VjcmV0LWtleS"} {
		if strings.Contains(s, secret) {
			t.Errorf("%q shows a secret", s)
		}
	}
}

// FuzzParseTarget: parsing never panics, and neither an error nor a
// target's printable parts show a secret placed in the spec. The fuzzer
// writes specs with SECRET in them; SECRET becomes a base64 string of at
// least 18 random bytes (so it cannot occur in the package's own words).
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{
		"AccountName=a;AccountKey=SECRET", "https://a.table.core.windows.net/?sv=1&sig=SECRET",
		"TableEndpoint=http://127.0.0.1:1/a;SharedAccessSignature=sig=SECRET", "UseDevelopmentStorage=true",
		"azurite", "https://a.table.cosmos.azure.com", "AccountName=SECRET;AccountKey=SECRET", "SECRET",
		"https://SECRET@a/", "AccountName=a;SECRET", "http://a:1/SECRET?sig=SECRET",
	} {
		f.Add(s, []byte("0123456789abcdefgh"))
	}
	f.Fuzz(func(t *testing.T, spec string, raw []byte) {
		if len(raw) < 18 {
			return
		}
		secret := base64.StdEncoding.EncodeToString(raw)
		spec = strings.ReplaceAll(spec, "SECRET", secret)
		tg, err := ParseTarget(spec)
		if err != nil {
			if strings.Contains(err.Error(), secret) || !errors.Is(err, ErrTarget) {
				t.Fatalf("error %q", err)
			}
			return
		}
		shown := tg.String() + " " + tg.Endpoint + " " + tg.Account
		for _, s := range tg.Secrets() {
			if strings.Contains(shown, s) {
				t.Fatalf("%q: %q shows the secret %q", spec, shown, s)
			}
		}
		if strings.Contains(tg.auth(), secret) {
			t.Fatal("auth shows the secret")
		}
	})
}
