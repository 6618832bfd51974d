package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"golang.org/x/crypto/pkcs12"

	"github.com/tablestress/tablestress/internal/devcert"
)

// loadPFX reads a PKCS #12 (.pfx) file of a certificate and its private
// key, as Azurite's --cert with --pwd takes one.
func loadPFX(path, password string) (*tls.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, cert, err := pkcs12.Decode(data, password)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (a .pfx of one certificate and its key, and its password)", path, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{cert.Raw}, PrivateKey: key, Leaf: cert}}, MinVersion: tls.VersionTLS12}, nil
}

// tlsFlags are the emulator's TLS options.
type tlsFlags struct {
	on        bool   // --tls
	cert, key string // --tls-cert, --tls-key: a certificate given
	caOut     string // --tls-ca: where to write the generated authority's certificate
	pfx, pwd  string // Azurite's --cert FILE.pfx --pwd PASSWORD: a certificate given as PKCS #12
}

// emulatorTLS is what serving HTTPS needs: the service's TLS
// configuration, the generated authority (which also certifies the token
// authority), where its certificate was written, and the directory made
// for it (removed by cleanup).
type emulatorTLS struct {
	config  *tls.Config
	ca      *devcert.CA
	caPath  string
	dir     string
	cleanup func()
}

// setupTLS prepares HTTPS for a service listening on listen: the given
// certificate, or one a generated authority issues for the listening host
// and the loopback names, the authority's certificate written to
// --tls-ca (default: a file in a new temporary directory) for clients to
// trust. A generated authority is made whenever one is needed (the token
// authority needs one too: entra).
func setupTLS(listen string, f tlsFlags, entra bool) (*emulatorTLS, error) {
	t := &emulatorTLS{cleanup: func() {}}
	given := f.cert != "" || f.key != "" || f.pfx != ""
	switch {
	case f.pfx != "":
		var err error
		if t.config, err = loadPFX(f.pfx, f.pwd); err != nil {
			return nil, usageError("--cert, --pwd: %v", err)
		}
	case given && !f.on:
		return nil, usageError("--tls-cert and --tls-key need --tls")
	case given && (f.cert == "" || f.key == ""):
		return nil, usageError("--tls-cert and --tls-key go together: the certificate and its private key, both PEM files")
	case given:
		var err error
		if t.config, err = devcert.LoadServerConfig(f.cert, f.key); err != nil {
			return nil, usageError("--tls-cert, --tls-key: %v", err)
		}
	}
	if given && !entra || !f.on && !entra {
		return t, nil
	}
	// A generated authority: the service's certificate unless one was
	// given, and the token authority's.
	dir, err := os.MkdirTemp("", "tablestress-emulator-")
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	t.dir, t.cleanup = dir, func() { os.RemoveAll(dir) }
	if t.ca, err = devcert.NewCA("tablestress emulator"); err != nil {
		t.cleanup()
		return nil, withCode(exitFailure, err)
	}
	if t.caPath = f.caOut; t.caPath == "" {
		t.caPath = filepath.Join(dir, "ca.pem")
	}
	if err := t.ca.WriteCert(t.caPath); err != nil {
		t.cleanup()
		return nil, usageError("--tls-ca: %v", err)
	}
	if given || !f.on {
		return t, nil
	}
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		t.cleanup()
		return nil, usageError("--listen: %v", err)
	}
	if t.config, err = t.ca.ServerConfig(host); err != nil {
		t.cleanup()
		return nil, withCode(exitFailure, err)
	}
	return t, nil
}
