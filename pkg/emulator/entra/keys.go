package entra

import (
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"
)

// issuer is what the validator learnt of the authority: its discovery
// document's issuer and authorization endpoint, and its published keys.
// Guarded by mu; keys are fetched again when a token names one not seen,
// at most once every refetchEvery.
type issuer struct {
	discovery string
	client    *http.Client

	mu        sync.Mutex
	loaded    bool
	iss       string
	authorize string // authorization_uri of the bearer challenge
	keys      map[string]*rsa.PublicKey
	fetchedAt time.Time
}

// refetchEvery bounds how often an unknown key ID fetches the keys again.
const refetchEvery = 10 * time.Second

// errKeys is wrapped by the errors of fetching the authority's documents.
var errKeys = errors.New("entra: cannot read the authority's keys")

// load fetches the discovery document and the keys it names.
func (s *issuer) load(ctx context.Context) error {
	var doc struct {
		Issuer    string `json:"issuer"`
		JWKSURI   string `json:"jwks_uri"`
		Authorize string `json:"authorization_endpoint"`
	}
	if err := s.get(ctx, s.discovery, &doc); err != nil {
		return err
	}
	if doc.Issuer == "" || doc.JWKSURI == "" {
		return fmt.Errorf("%w: %s has no issuer or jwks_uri", errKeys, s.discovery)
	}
	var set struct {
		Keys []struct {
			Kty, Kid, N, E string
		} `json:"keys"`
	}
	if err := s.get(ctx, doc.JWKSURI, &set); err != nil {
		return err
	}
	keys := map[string]*rsa.PublicKey{}
	for _, k := range set.Keys {
		if k.Kty != "RSA" {
			continue
		}
		n, err1 := base64.RawURLEncoding.DecodeString(k.N)
		e, err2 := base64.RawURLEncoding.DecodeString(k.E)
		if err1 != nil || err2 != nil || len(e) == 0 || len(e) > 4 {
			continue
		}
		keys[k.Kid] = &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
	}
	s.mu.Lock()
	s.loaded, s.iss, s.keys, s.fetchedAt = true, doc.Issuer, keys, time.Now()
	s.authorize = authorizeURI(doc.Issuer, doc.Authorize)
	s.mu.Unlock()
	return nil
}

// authorizeURI is the authorization_uri Azure Storage's challenge names:
// the tenant's v1 authorize endpoint (https://HOST/TENANT/oauth2/authorize),
// made from an issuer of the form https://HOST/TENANT[/v2.0], else the
// discovery document's authorization endpoint.
func authorizeURI(iss, authorize string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(iss, "/"), "/v2.0")
	if rest, ok := strings.CutPrefix(base, "https://"); ok && strings.Count(rest, "/") == 1 {
		return base + "/oauth2/authorize"
	}
	return authorize
}

// get reads a JSON document. The fetch is not canceled with ctx: what it
// fetches is shared by every request (and ctx may be a request's context
// that its server reuses once the request is answered).
func (s *issuer) get(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", errKeys, err)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", errKeys, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s answered %s", errKeys, url, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %v", errKeys, url, err)
	}
	return nil
}

// state returns the issuer, the authorization URI and the key of kid,
// loading the documents first if they never were, and fetching the keys
// again when kid is unknown and they were not fetched in the last
// refetchEvery (the authority rotated its keys).
func (s *issuer) state(ctx context.Context, kid string) (iss, authorize string, key *rsa.PublicKey, err error) {
	s.mu.Lock()
	loaded, stale := s.loaded, time.Since(s.fetchedAt) >= refetchEvery
	known := s.keys[kid] != nil
	s.mu.Unlock()
	if !loaded || (kid != "" && !known && stale) {
		if lerr := s.load(ctx); lerr != nil && !loaded {
			return "", "", nil, lerr
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.iss, s.authorize, s.keys[kid], nil
}
