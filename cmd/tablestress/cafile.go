package main

import (
	"crypto/x509"

	"github.com/tablestress/tablestress/internal/devcert"
)

// trustedRoots is the certificate pool of --ca-file (or
// TABLESTRESS_CA_FILE): the system's roots and the file's certificates,
// trusted for the target's TLS and for signing in with
// DefaultAzureCredential (a tablestress emulator --tls and its token
// authority share the certificate it writes). nil without either: the
// system's roots alone.
func trustedRoots(e *env, f *runFlags) (*x509.CertPool, error) {
	path, what := f.caFile, "--ca-file"
	if path == "" {
		path, what = e.getenv("TABLESTRESS_CA_FILE"), "TABLESTRESS_CA_FILE"
	}
	if path == "" {
		return nil, nil
	}
	pool, err := devcert.SystemPoolWith(path)
	if err != nil {
		return nil, usageError("%s: %v; give a PEM file of certificates, such as the one tablestress emulator --tls writes", what, err)
	}
	return pool, nil
}
