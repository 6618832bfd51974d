// Package emulator is tablestress's embedded Table service: the Azure Table
// REST API as the Azure SDKs speak it (Go, JavaScript, Python and the
// legacy Python SDK: see sdk_conformance_test.go), for one account,
// path-style like Azurite (http://HOST:PORT/ACCOUNT/...):
//
//   - tables: create, delete, list with $filter on TableName and paging,
//     GET /Tables('name'), Get and Set Table ACL (stored access policies);
//   - entities: insert, point read, update and merge with If-Match,
//     insert-or-replace and insert-or-merge, delete, with ETags that change
//     on every write;
//   - queries: OData $filter (eq ne gt ge lt le, and or not, typed
//     literals), $select, $top, pages of at most 1,000 entities with
//     continuations, in (PartitionKey, RowKey) order, ending where Azure
//     ends them (page.go); bounds on the keys become B-tree range seeks;
//   - entity group transactions ($batch), applied atomically, with Azure's
//     refusals and its multipart answers;
//   - the nometadata, minimalmetadata and fullmetadata JSON formats, Azure's
//     limits, error codes and bodies;
//   - Shared Key and Shared Key Lite authentication, service and account
//     shared access signatures checked per operation (grant.go).
//
// Every entity request passes fault injection (package faults) and Azure's
// partition scalability model, or Cosmos DB's request units (package
// model), before it is served; a query page is charged for what it
// visited; and the answer leaves after the model's service time, waited
// on the request's own goroutine (Server.hold). Every request is counted
// per table, partition and outcome key (package outcome) so tests can
// prove that a client reported exactly what the server saw.
//
// Entities live in memory, one google/btree per table ordered by
// (PartitionKey, RowKey), each stored as its keys, timestamp and the
// compact JSON of its properties (about 1,120 bytes for an entity of 1 KiB).
package emulator

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// The development account Azurite and the storage emulator use: the
// defaults of Config.
const (
	DevAccount = "devstoreaccount1"
	DevKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// Config configures the service. The zero Config is the development
// account with neither partition model nor faults.
type Config struct {
	// Account is the storage account name (default DevAccount).
	Account string
	// Key is the base64 account key requests are signed with (default
	// DevKey).
	Key string
	// Model is the partition scalability and service-time model (the zero
	// Config admits everything at once; model.Default() is Azure's targets
	// and latency, model.CosmosDefault() the Cosmos DB Table API's).
	Model model.Config
	// Faults is the fault injection (the zero Config injects nothing).
	Faults faults.Config
	// Now is the clock of timestamps, ETags and the model (default
	// time.Now).
	Now func() time.Time
	// AllowRemote lets Start listen on a non-loopback address.
	AllowRemote bool
}

// Server is the Table service as an http.Handler. All its methods are safe
// for concurrent use: tables are found under a read lock, each table has
// its own RWMutex (reads share it, a write or a whole transaction holds it
// alone), and the counters are locked per table.
type Server struct {
	account string
	key     []byte
	now     func() time.Time
	store   *store.Store
	model   *model.Model
	faults  atomic.Pointer[faults.Injector]
	stats   *stats
	measure measuring
	prefix  string // "/" + account: the path of the service
	// dates formats the Date header from now when the service has a clock
	// of its own (Config.Now); on time.Now, the HTTP layer writes it.
	dates   *httpfront.DateCache
	signers sync.Pool // of *signer
}

// ErrConfig is returned for an unusable configuration.
var ErrConfig = errors.New("emulator: bad configuration")

// New returns a service with no table. It fails with ErrConfig when the
// key is not base64.
func New(cfg Config) (*Server, error) {
	if cfg.Account == "" {
		cfg.Account = DevAccount
	}
	if cfg.Key == "" {
		cfg.Key = DevKey
	}
	key, err := base64.StdEncoding.DecodeString(cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("%w: the account key is not base64", ErrConfig)
	}
	var dates *httpfront.DateCache
	if cfg.Now == nil {
		cfg.Now = time.Now
	} else {
		dates = &httpfront.DateCache{}
	}
	s := &Server{account: cfg.Account, key: key, prefix: "/" + cfg.Account, dates: dates, now: cfg.Now, store: store.New(cfg.Now, cfg.Model.Enabled && cfg.Model.Kind == model.Cosmos),
		model: model.New(cfg.Model, cfg.Now), stats: newStats()}
	s.measure.on = true
	s.SetFaults(cfg.Faults)
	return s, nil
}

// route is a parsed request path.
type route struct {
	kind   string // tables, table, entities, entity, batch
	table  string
	pk, rk string
}

// parseRoute reads the path after the account.
func parseRoute(p string) (route, *apiError) {
	p = strings.TrimPrefix(p, "/")
	switch {
	case p == "Tables" || p == "Tables()":
		return route{kind: "tables"}, nil
	case len(p) >= len("Tables('')") && strings.HasPrefix(p, "Tables('") && strings.HasSuffix(p, "')"):
		name, err := unescape(p[len("Tables('") : len(p)-2])
		if err != nil {
			return route{}, err
		}
		return route{kind: "table", table: name}, nil
	case p == "$batch":
		return route{kind: "batch"}, nil
	}
	open := strings.IndexByte(p, '(')
	if open < 0 {
		if p == "" || strings.Contains(p, "/") {
			return route{}, invalidInput("The requested URI does not represent any resource on the server.")
		}
		return route{kind: "entities", table: p}, nil
	}
	if !strings.HasSuffix(p, ")") {
		return route{}, invalidInput("The requested URI is malformed.")
	}
	rt := route{table: p[:open]}
	inner := p[open+1 : len(p)-1]
	if inner == "" {
		rt.kind = "entities"
		return rt, nil
	}
	un, err := unescape(inner)
	if err != nil {
		return route{}, err
	}
	pk, rest, ok := keyValue(un, "PartitionKey=")
	if !ok || !strings.HasPrefix(rest, ",") {
		return route{}, invalidInput("The requested URI has malformed keys.")
	}
	rk, rest, ok := keyValue(rest[1:], "RowKey=")
	if !ok || rest != "" {
		return route{}, invalidInput("The requested URI has malformed keys.")
	}
	rt.kind, rt.pk, rt.rk = "entity", pk, rk
	return rt, nil
}

// keyValue reads NAME='value' (quotes doubled inside) from the start of s.
// The value is a substring of s unless it has a doubled quote.
func keyValue(s, name string) (string, string, bool) {
	if len(s) <= len(name) || s[:len(name)] != name || s[len(name)] != '\'' {
		return "", "", false
	}
	start := len(name) + 1
	var b []byte // the value so far, once a doubled quote was met
	from := start
	for i := start; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b = append(b, s[from:i+1]...) // up to one of the two quotes
			i++
			from = i + 1
			continue
		}
		if b == nil {
			return s[start:i], s[i+1:], true
		}
		return string(append(b, s[from:i]...)), s[i+1:], true
	}
	return "", "", false
}

func unescape(s string) (string, *apiError) {
	out, err := url.PathUnescape(s)
	if err != nil {
		return "", invalidInput("The requested URI is not correctly encoded.")
	}
	return out, nil
}

// queryValue is the first value of a query parameter, "" when absent;
// the query is parsed only when there is one.
func queryValue(r *http.Request, key string) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return r.URL.Query().Get(key)
}

// metaLevel reads the JSON metadata level from Accept or $format.
func metaLevel(r *http.Request) int {
	a := queryValue(r, "$format")
	if a == "" {
		a = reqHeader(r, "Accept")
	}
	switch {
	case strings.Contains(a, "nometadata"):
		return noMetadata
	case strings.Contains(a, "fullmetadata"):
		return fullMetadata
	}
	return minimalMetadata
}

// baseURL is the service URL as the client addressed it.
func (s *Server) baseURL(r *http.Request) string {
	return "http://" + r.Host + "/" + s.account
}

// validKey checks a PartitionKey or RowKey against Azure's rules.
func validKey(k string) bool {
	if len(k) > maxKeyBytes {
		return false
	}
	for _, c := range k {
		if c == '/' || c == '\\' || c == '#' || c == '?' || c <= 0x1f || (c >= 0x7f && c <= 0x9f) {
			return false
		}
	}
	return true
}
