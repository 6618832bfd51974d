package devcert

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A certificate the authority issues is trusted by a client given the
// authority's certificate, for every loopback name, and by no client
// without it.
func TestIssuedCertificateVerifies(t *testing.T) {
	ca, err := NewCA("test authority")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ca.ServerConfig("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	leaf := cfg.Certificates[0].Leaf
	for _, host := range []string{"127.0.0.1", "::1", "localhost"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: ca.Pool()}); err != nil {
			t.Errorf("%s: %v", host, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "example.com", Roots: ca.Pool()}); err == nil {
		t.Error("the certificate verified for a name it does not hold")
	}
	other, _ := NewCA("another")
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "127.0.0.1", Roots: other.Pool()}); err == nil {
		t.Error("the certificate verified under another authority")
	}

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }))
	srv.TLS = cfg
	srv.StartTLS()
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := ca.WriteCert(path); err != nil {
		t.Fatal(err)
	}
	pool, err := SystemPoolWith(path)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatalf("a client trusting the written certificate: %v", err)
	}
	resp.Body.Close()
	plain := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: x509.NewCertPool()}}}
	if resp, err := plain.Get(srv.URL); err == nil {
		resp.Body.Close()
		t.Error("a client without the authority's certificate was served")
	}
}

func TestSystemPoolWithNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.pem")
	os.WriteFile(path, []byte("not a certificate"), 0o644)
	if _, err := SystemPoolWith(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming %s", err, path)
	}
	if _, err := SystemPoolWith(filepath.Join(t.TempDir(), "missing.pem")); err == nil {
		t.Error("a missing file was accepted")
	}
}
