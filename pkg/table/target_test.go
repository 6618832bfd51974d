package table

import (
	"errors"
	"strings"
	"testing"
)

const key = "c2VjcmV0LWtleS1kby1ub3QtcHJpbnQtdGhpcy1rZXktMTIzNDU2Nzg5MA=="

func TestParseTarget(t *testing.T) {
	tests := []struct {
		spec     string
		kind     Kind
		endpoint string
		account  string
		loopback bool
	}{
		{"", KindEmbedded, "", "", true},
		{"embedded", KindEmbedded, "", "", true},
		{"azurite", KindAzurite, "http://127.0.0.1:10002/devstoreaccount1", DevAccount, true},
		{"UseDevelopmentStorage=true", KindAzurite, "http://127.0.0.1:10002/devstoreaccount1", DevAccount, true},
		{"UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://azurite", KindAzurite, "http://azurite:10002/devstoreaccount1", DevAccount, false},
		{"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key + ";TableEndpoint=http://127.0.0.1:10102/devstoreaccount1;",
			KindConnString, "http://127.0.0.1:10102/devstoreaccount1", "devstoreaccount1", true},
		{"DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=" + key + ";EndpointSuffix=core.windows.net",
			KindConnString, "https://prod.table.core.windows.net", "prod", false},
		{"AccountName=prod;AccountKey=" + key, KindConnString, "https://prod.table.core.windows.net", "prod", false},
		{"DefaultEndpointsProtocol=https;AccountName=cos;AccountKey=" + key + ";TableEndpoint=https://cos.table.cosmos.azure.com:443/;",
			KindCosmos, "https://cos.table.cosmos.azure.com:443", "cos", false},
		{"TableEndpoint=https://prod.table.core.windows.net/;SharedAccessSignature=sv=2020-08-04&sig=SECRETSIG%3D",
			KindConnString, "https://prod.table.core.windows.net", "prod", false},
		{"https://prod.table.core.windows.net/", KindAccountURL, "https://prod.table.core.windows.net", "prod", false},
		{"https://prod.table.core.windows.net/?sv=2020-08-04&ss=t&sig=SECRETSIG%3D", KindSAS, "https://prod.table.core.windows.net", "prod", false},
		{"https://cos.table.cosmos.azure.com", KindCosmos, "https://cos.table.cosmos.azure.com", "cos", false},
	}
	for _, tt := range tests {
		got, err := ParseTarget(tt.spec)
		if err != nil {
			t.Errorf("ParseTarget(%.40q): %v", tt.spec, err)
			continue
		}
		if got.Kind != tt.kind || got.Endpoint != tt.endpoint || got.Account != tt.account || got.IsLoopback() != tt.loopback {
			t.Errorf("ParseTarget(%.50q) = %+v loopback %v, want %s %s %s %v", tt.spec, got, got.IsLoopback(), tt.kind, tt.endpoint, tt.account, tt.loopback)
		}
		for _, secret := range []string{key, "SECRETSIG"} {
			if strings.Contains(got.String(), secret) || strings.Contains(got.Endpoint, secret) {
				t.Errorf("%s leaks a secret", got)
			}
		}
	}
}

func TestParseTargetErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"nonsense", "is not a target"},
		{"http://prod.table.core.windows.net", "needs https"},
		{"https://prod.table.core.windows.net/?sv=1&x=" + key, "no SAS signature"},
		{"AccountName=prod", "neither AccountKey nor SharedAccessSignature"},
		{"AccountKey=" + key, "neither AccountName nor TableEndpoint"},
		{"AccountName=x;AccountKey=" + key + ";TableEndpoint=::nope", "TableEndpoint is not a URL"},
		{"AccountName=x;justtext", "is not KEY=VALUE"},
	}
	for _, tt := range tests {
		_, err := ParseTarget(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrTarget) {
			t.Errorf("ParseTarget(%.40q) = %v, want %q", tt.spec, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "c2VjcmV0") {
			t.Errorf("error leaks the key: %v", err)
		}
	}
}

func TestSecretsListed(t *testing.T) {
	tg, _ := ParseTarget("https://prod.table.core.windows.net/?sv=1&sig=SECRETSIG")
	if s := tg.Secrets(); len(s) != 1 || s[0] != "SECRETSIG" {
		t.Errorf("Secrets = %q", s)
	}
	tg, _ = ParseTarget("AccountName=a;AccountKey=" + key)
	if s := tg.Secrets(); len(s) != 1 || s[0] != key {
		t.Errorf("Secrets = %q", s)
	}
}

func FuzzParseTarget(f *testing.F) {
	f.Add("AccountName=a;AccountKey=" + key)
	f.Add("https://a.table.core.windows.net/?sig=" + key)
	f.Add("UseDevelopmentStorage=true")
	f.Add("azurite")
	f.Fuzz(func(t *testing.T, spec string) {
		tg, err := ParseTarget(spec)
		if err != nil {
			if strings.Contains(err.Error(), key) {
				t.Fatalf("error echoes the key: %v", err)
			}
			return
		}
		for _, s := range tg.Secrets() {
			if len(s) >= 8 && (strings.Contains(tg.String(), s) || strings.Contains(tg.Endpoint, s)) {
				t.Fatalf("%q: String %q contains secret %q", spec, tg.String(), s)
			}
		}
	})
}
