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
//     limits, error codes and bodies, values read and written as Azure
//     converts them (values.go);
//   - the service itself: Get and Set Table Service Properties, CORS
//     preflight and headers, the read-only secondary endpoint with Get
//     Table Service Stats (service.go, cors.go), x-ms-version (version.go);
//   - Shared Key and Shared Key Lite authentication, service and account
//     shared access signatures checked per operation (grant.go), and
//     Microsoft Entra ID bearer tokens over HTTPS (bearer.go).
//
// Every entity request passes fault injection (package faults) and Azure's
// partition scalability model, or Cosmos DB's request units (package
// model), before it is served; a query page is charged for what it
// visited; and the answer leaves after the model's service time, waited
// on the request's own goroutine (Server.hold). Every request is counted
// per table, partition and outcome key (package outcome) so tests can
// prove that a client reported exactly what the server saw.
//
// This package is the REST service: it alone knows requests (their
// routes, bodies, headers and answers), authorization and the model. It is
// built of packages that import nothing of it (TestImportsRunOneWay holds
// them to it): internal/httpfront serves it over HTTP/1.1 with fasthttp;
// internal/store keeps the tables and entities in memory (a B-tree per
// table in (PartitionKey, RowKey) order, each entity stored as its keys,
// timestamp and compact properties: about 1,120 bytes for an entity of
// 1 KiB); filter parses and evaluates $filter; internal/edm
// writes the Edm values' forms; internal/jsontext (shared with the rest
// of the module) scans and writes JSON; model decides throttling and
// service times, faults the injected failures.
package emulator

import (
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator/entra"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
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
	// Key2, when set, is the account's secondary key (base64): requests
	// signed with either key are served.
	Key2 string
	// Accounts, when set, are the accounts Start serves on one address
	// instead of Account, each a service of its own with its own tables
	// (AZURITE_ACCOUNTS: see ParseAccounts); a request goes to the account
	// its path names.
	Accounts []Account
	// Log, when set, gets a line per request: the time it came, its method
	// and path (never its query, which may hold a signature), the status
	// answered and how long it took (Azurite's --debug).
	Log io.Writer
	// PathStyleOnly takes the account from the path's first segment
	// alone (Azurite's --disableProductStyleUrl); by default a request
	// whose host's first label names the account
	// (ACCOUNT.table.localhost) is served product-style (productstyle.go).
	PathStyleOnly bool
	// IdleTimeout closes a kept-alive connection idle this long (Azurite's
	// --tableKeepAliveTimeout); 0 is two minutes.
	IdleTimeout time.Duration
	// SkipVersionCheck serves a request whatever version its x-ms-version
	// names (Azurite's --skipApiVersionCheck).
	SkipVersionCheck bool
	// Model is the partition scalability and service-time model (the zero
	// Config admits everything at once; model.Default() is Azure's targets
	// and latency, model.CosmosDefault() the Cosmos DB Table API's).
	Model model.Config
	// Faults is the fault injection (the zero Config injects nothing).
	Faults faults.Config
	// Now is the clock of timestamps, ETags and the model (default
	// time.Now, or Clock's).
	Now func() time.Time
	// Clock, when it is a virtual clock (package clock), is the one the
	// service's waits advance (modelled service times, injected
	// latencies): a request served in process waits on it, on its
	// client's goroutine, and Now defaults to its time. Nil or the wall
	// clock: the service waits on timers.
	Clock clock.Clock
	// AllowRemote lets Start listen on a non-loopback address.
	AllowRemote bool
	// TLS, when set, makes Start serve HTTPS with its certificate.
	TLS *tls.Config
	// Entra, when set, accepts Microsoft Entra ID bearer tokens over HTTPS.
	Entra *entra.Validator
	// Location, when set, is the directory the service keeps its tables,
	// entities, stored access policies and service properties in
	// (persist.go): New loads what it holds, and every write is on the
	// disk before it is answered. "" keeps everything in memory.
	Location string
}

// Server is the Table service as an http.Handler. All its methods are safe
// for concurrent use: tables are found under a read lock, each table has
// its own RWMutex (reads share it, a write or a whole transaction holds it
// alone), and the counters are locked per table.
type Server struct {
	account       string
	key           []byte
	key2          []byte        // Config.Key2, nil for none
	skipVer       bool          // Config.SkipVersionCheck
	pathStyleOnly bool          // Config.PathStyleOnly
	idle          time.Duration // Config.IdleTimeout
	now           func() time.Time
	store         *store.Store
	model         *model.Model
	faults        atomic.Pointer[faults.Injector]
	counters      *counters
	measure       measuring
	prefix        string // "/" + account: the path of the service
	// dates formats the Date header from now when the service has a clock
	// of its own (Config.Now); on time.Now, the HTTP layer writes it.
	dates   *httpfront.DateCache
	signers sync.Pool                         // of *signer
	service atomic.Pointer[serviceProperties] // the Table service's properties as set (service.go); nil: the defaults
	tls     *tls.Config                       // Config.TLS
	scheme  string                            // "https" when the service is served over TLS, else "http"
	entra   *entra.Validator
	// journal records every change when the service keeps its data in a
	// directory (Config.Location), nil otherwise; recovered is what New
	// loaded from it, and svcMu orders the service properties' changes.
	journal   *journal.Journal
	recovered Recovered
	svcMu     sync.Mutex
	log       *accessLog  // Config.Log, nil for none
	clock     clock.Clock // a virtual clock the service waits on, or nil
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
		return nil, fmt.Errorf("%w: the account key of %s is not base64", ErrConfig, cfg.Account)
	}
	var key2 []byte
	if cfg.Key2 != "" {
		if key2, err = base64.StdEncoding.DecodeString(cfg.Key2); err != nil {
			return nil, fmt.Errorf("%w: the secondary key of %s is not base64", ErrConfig, cfg.Account)
		}
	}
	var dates *httpfront.DateCache
	if cfg.Clock != nil && !clock.IsVirtual(cfg.Clock) {
		cfg.Clock = nil
	}
	if cfg.Now == nil && cfg.Clock != nil {
		cfg.Now = cfg.Clock.Now
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	} else {
		dates = &httpfront.DateCache{}
	}
	s := &Server{account: cfg.Account, key: key, prefix: "/" + cfg.Account, dates: dates, now: cfg.Now, store: store.New(cfg.Now, cfg.Model.Enabled && cfg.Model.Kind == model.Cosmos),
		model: model.New(cfg.Model, cfg.Now), counters: newCounters()}
	s.measure.on = true
	s.key2, s.skipVer, s.pathStyleOnly, s.idle = key2, cfg.SkipVersionCheck, cfg.PathStyleOnly, cfg.IdleTimeout
	if cfg.Log != nil {
		s.log = &accessLog{w: cfg.Log}
	}
	s.entra, s.clock = cfg.Entra, cfg.Clock
	if s.scheme, s.tls = "http", cfg.TLS; cfg.TLS != nil {
		s.scheme = "https"
	}
	s.SetFaults(cfg.Faults)
	if cfg.Location != "" {
		if err := s.openJournal(cfg.Location); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// baseURL is the service URL as the client addressed it.
func (s *Server) baseURL(r *http.Request) string {
	return s.scheme + "://" + r.Host + s.root(r)
}
