package emulator

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Account is one storage account a service serves (Config.Accounts):
// its name and base64 keys, the secondary one optional.
type Account struct {
	Name, Key, Key2 string
}

// ErrAccounts is the error of an accounts string that does not read.
var ErrAccounts = errors.New("emulator: bad accounts")

// ParseAccounts reads accounts as Azurite's AZURITE_ACCOUNTS variable
// gives them: "name:key1[:key2]" separated by ";" (a trailing ";" and
// white space around the whole are allowed), each key base64. Like
// Azurite, the accounts it names replace the development account rather
// than join it. The error names the account, never a key.
func ParseAccounts(s string) ([]Account, error) {
	var out []Account
	seen := map[string]bool{}
	for i, part := range strings.Split(strings.TrimSpace(s), ";") {
		if part == "" {
			continue
		}
		f := strings.Split(part, ":")
		if len(f) < 2 || len(f) > 3 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("%w: entry %d (%q) is not name:key1 or name:key1:key2", ErrAccounts, i+1, f[0])
		}
		a := Account{Name: f[0], Key: f[1]}
		if len(f) == 3 {
			a.Key2 = f[2]
		}
		for k, key := range []string{a.Key, a.Key2} {
			if _, err := base64.StdEncoding.DecodeString(key); err != nil {
				return nil, fmt.Errorf("%w: account %s: key%d is not base64", ErrAccounts, a.Name, k+1)
			}
		}
		if seen[a.Name] {
			return nil, fmt.Errorf("%w: account %s is named twice", ErrAccounts, a.Name)
		}
		seen[a.Name] = true
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no account (the form is name:key1[:key2];...)", ErrAccounts)
	}
	return out, nil
}

// accountMux serves several accounts on one address: a request goes to
// the service of the account its host names (product-style,
// productstyle.go) or else its path's first segment names (its secondary
// endpoint, ACCOUNT-secondary, too), any other to the first account's,
// which refuses it as it refuses a foreign account.
type accountMux struct {
	servers []*Server
	byName  map[string]*Server
}

func newAccountMux(servers []*Server) *accountMux {
	m := &accountMux{servers: servers, byName: map[string]*Server{}}
	for _, s := range servers {
		m.byName[s.account] = s
	}
	return m
}

func (m *accountMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a, _, ok := hostAccount(r.Host); ok && !m.servers[0].pathStyleOnly {
		if s, ok := m.byName[a]; ok {
			s.ServeHTTP(w, r)
			return
		}
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(escapedPath(r), "/"), "/")
	s, ok := m.byName[strings.TrimSuffix(first, secondarySuffix)]
	if !ok {
		s = m.servers[0]
	}
	s.ServeHTTP(w, r)
}

// newServers makes the services of cfg: one, or one per Config.Accounts.
func newServers(cfg Config) ([]*Server, error) {
	if len(cfg.Accounts) == 0 {
		s, err := New(cfg)
		if err != nil {
			return nil, err
		}
		return []*Server{s}, nil
	}
	var out []*Server
	for _, a := range cfg.Accounts {
		c := cfg
		c.Accounts, c.Account, c.Key, c.Key2 = nil, a.Name, a.Key, a.Key2
		s, err := New(c)
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
