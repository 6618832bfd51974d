// Package devcert makes the certificates of tablestress's loopback TLS
// services: a certificate authority generated for one process (the
// embedded Table service's --tls, the local token authority, tests) that
// issues server certificates for loopback names, and the pools a client
// trusts them with. Keys are ECDSA P-256 and never leave the process; the
// authority's certificate (public) is what clients are given to trust.
package devcert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"time"
)

// Validity is how long generated certificates are valid, from an hour
// before they were made (clocks of clients on the same machine may lag).
const Validity = 90 * 24 * time.Hour

// CA is a certificate authority generated in memory. Its methods are safe
// for concurrent use.
type CA struct {
	cert    *x509.Certificate
	key     crypto.Signer
	certPEM []byte
}

// ErrCert is wrapped by the errors of this package.
var ErrCert = errors.New("devcert")

// NewCA generates an authority whose certificate names it as name (the
// subject's common name, shown by clients that refuse it).
func NewCA(name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("%w: generating the authority's key: %v", ErrCert, err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name, Organization: []string{"tablestress"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(Validity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("%w: signing the authority's certificate: %v", ErrCert, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCert, err)
	}
	return &CA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// serial is a random 128-bit serial number.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil || n.Sign() == 0 {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// CertPEM is the authority's certificate in PEM: what clients trust.
func (c *CA) CertPEM() []byte { return append([]byte(nil), c.certPEM...) }

// Pool is a pool holding only the authority's certificate.
func (c *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(c.cert)
	return p
}

// WriteCert writes the authority's certificate to path (mode 0644: it is
// public).
func (c *CA) WriteCert(path string) error {
	if err := os.WriteFile(path, c.certPEM, 0o644); err != nil {
		return fmt.Errorf("%w: writing the certificate: %v", ErrCert, err)
	}
	return nil
}

// LoopbackHosts are the names a loopback service's certificate holds
// besides its listening host: what clients on this machine may dial.
var LoopbackHosts = []string{"127.0.0.1", "::1", "localhost"}

// Issue returns a server certificate for hosts (IP addresses or DNS
// names), signed by the authority, with its private key.
func (c *CA) Issue(hosts ...string) (tls.Certificate, error) {
	if len(hosts) == 0 {
		return tls.Certificate{}, fmt.Errorf("%w: a server certificate needs a host name or address", ErrCert)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("%w: generating the server key: %v", ErrCert, err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: hosts[0], Organization: []string{"tablestress"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     c.cert.NotAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	seen := map[string]bool{}
	for _, h := range hosts {
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, key.Public(), c.key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("%w: signing the server certificate: %v", ErrCert, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("%w: %v", ErrCert, err)
	}
	return tls.Certificate{Certificate: [][]byte{der, c.cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}

// ServerConfig is a TLS configuration serving a certificate the authority
// issues for host and the loopback names (TLS 1.2 at least).
func (c *CA) ServerConfig(host string) (*tls.Config, error) {
	cert, err := c.Issue(append([]string{host}, LoopbackHosts...)...)
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// LoadServerConfig is a TLS configuration serving the certificate and key
// of two PEM files (a certificate given by the user).
func LoadServerConfig(certFile, keyFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCert, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// SystemPoolWith returns the system's trusted roots with the certificates
// of the PEM file at path added: what a client trusts to reach both Azure
// and a loopback service whose authority the file holds. It fails when the
// file cannot be read or holds no certificate, naming the file.
func SystemPoolWith(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCert, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("%w: %s holds no PEM certificate", ErrCert, path)
	}
	return pool, nil
}
