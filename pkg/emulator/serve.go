package emulator

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// reply is a handler's answer, written and counted in one place.
type reply struct {
	status int
	err    *apiError
	tagged bool   // the answer carries the ETag of an entity written at tagTS
	tagTS  int64  // that entity's write time (store.Entity.Ticks)
	prefer string // the Preference-Applied header, "" for none
	// header holds the other headers, by any case of their names.
	header   map[string]string
	body     []byte
	ctype    string
	part     string  // partition for the counters
	key      string  // outcome key for the counters when it is not the status (a failed transaction)
	table    string  // table for the counters, when the route does not name it
	entities int     // entities served
	drop     bool    // close the connection instead of answering
	discard  bool    // a write acknowledged but not stored
	pooled   *[]byte // body's buffer, returned to bufPool once written
	// work is what the request did, for its modelled service time, when
	// timed (the model judged it); its Bytes the request body's size (the
	// answer's is added when it is written).
	work  model.Work
	timed bool
	// delay is the latency fault injection added before the request was
	// judged: the modelled service time comes on top of it.
	delay time.Duration
}

// bufPool recycles request and response buffers: a page of 1,000
// entities is large, and garbage is what slows a service holding a
// million entities (every collection marks them all). A new buffer is
// small (a collection empties the pool, and most bodies are an entity) and
// grows as a page needs; a grown one returns to the pool up to 4 MiB.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if b != nil && cap(*b) <= 4<<20 {
		*b = (*b)[:0]
		bufPool.Put(b)
	}
}

func errReply(e *apiError, part string) reply { return reply{status: e.status, err: e, part: part} }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := escapedPath(r)
	if strings.HasPrefix(path, "/_tablestress/") {
		if path == "/_tablestress/stats" || path == "/_tablestress/reset" {
			s.serveStats(w, r)
			return
		}
		http.NotFound(w, r)
		return
	}
	now := s.now()
	rest, secondary, ok := s.resource(r, path)
	if !ok {
		writeError(w, invalidInput("The account in the URI is not %s.", s.account), now)
		return
	}
	if r.Method == http.MethodOptions { // a CORS preflight: not authenticated
		s.send(w, r, "", s.preflight(r), now)
		return
	}
	rt, perr := parseRoute(rest)
	rt.secondary = secondary
	tableName := rt.table
	var rep reply
	var g *grant
	var aerr *apiError
	if !s.skipVer {
		aerr = checkVersion(r) // before authentication, which the version governs
	}
	if aerr == nil {
		g, aerr = s.authenticate(r, rt.entityTable())
	}
	switch {
	case aerr != nil:
		rep = errReply(aerr, "")
		rep.header = s.challenge(r, aerr)
	case perr != nil:
		rep = errReply(perr, "")
	default:
		if aerr = g.allows(accessOf(r, rt)); aerr == nil && rt.kind == routeEntity {
			aerr = g.allowsKeys(rt.pk, rt.rk)
		}
		if aerr != nil {
			rep = errReply(aerr, rt.pk)
			break
		}
		rep = s.dispatch(r, rt, g)
		if rep.table != "" {
			tableName = rep.table
		}
	}
	s.settle(r.Context(), &rep, now)
	s.send(w, r, tableName, rep, now)
	if s.log != nil {
		s.log.write(r, rep.status, now, s.now())
	}
}

// settle bills the answer's body of a timed reply the model admitted to
// the account's egress (model.ChargeEgress), and holds a timed reply,
// unless dropped, until its modelled answer time: the request's arrival at
// now, the injected latency, and the model's service time for what it did
// and the answer's body.
func (s *Server) settle(ctx context.Context, rep *reply, now time.Time) {
	if rep.timed && !rep.drop {
		if !rep.work.Refused {
			s.model.ChargeEgress(len(rep.body))
		}
		rep.work.Bytes += len(rep.body)
		if wait := rep.delay + s.model.ServiceTime(rep.work); wait > 0 {
			s.hold(ctx, now.Add(wait))
		}
	}
}

// hold waits, on the request's own goroutine, until the modelled answer
// time, or until the service stops, or until an in-process client served
// on its own goroutine gives up (clientGone). The time the service spent computing
// counts toward it: the answer leaves at arrival + injected latency +
// service time, or as soon as it is ready when computing took longer.
//
// On a virtual clock the wait is the clock's (waitOnClock).
func (s *Server) hold(ctx context.Context, until time.Time) {
	if s.clock != nil {
		s.waitOnClock(ctx, until)
		return
	}
	d := until.Sub(s.now())
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-clientGone(ctx):
	}
}

// dispatch serves a request the grant g allows (nil: the account key).
func (s *Server) dispatch(r *http.Request, rt route, g *grant) reply {
	if rt.secondary && !readOnly(r.Method) {
		return errReply(errSecondaryWrite, "")
	}
	switch rt.kind {
	case routeService:
		return s.serviceRequest(r, rt.secondary)
	case routeTables:
		switch r.Method {
		case http.MethodPost:
			return s.createTable(r)
		case http.MethodGet:
			return s.listTables(r)
		}
	case routeTable:
		switch r.Method {
		case http.MethodGet:
			return s.getTable(r, rt.table)
		case http.MethodDelete:
			return s.deleteTable(rt.table)
		}
	case routeEntities:
		if isACL(r) {
			return s.tableACL(r, rt.table)
		}
		switch r.Method {
		case http.MethodPost:
			return s.insert(r, rt.table, g)
		case http.MethodGet:
			return s.query(r, rt.table, g)
		}
	case routeEntity:
		switch r.Method {
		case http.MethodGet:
			return s.getEntity(r, rt)
		case http.MethodPut:
			return s.updateEntity(r, rt, false)
		case http.MethodPatch, "MERGE":
			return s.updateEntity(r, rt, true)
		case http.MethodDelete:
			return s.deleteEntity(r, rt)
		}
	case routeBatch:
		if r.Method == http.MethodPost {
			return s.batch(r, g)
		}
	}
	return errReply(errMethod, "")
}

// count records a reply in the statistics of table: under its outcome
// key, with its entities when it succeeded.
func (s *Server) count(table string, rep *reply) {
	if rep.drop {
		s.counters.record(table, rep.part, dropKey, 0, false)
		return
	}
	code := ""
	if rep.err != nil {
		code = rep.err.code
	}
	entities := 0
	if rep.status < 300 {
		entities = rep.entities
	}
	key := rep.key
	if key == "" {
		key = statusKey(rep.status, code)
	}
	s.counters.record(table, rep.part, key, entities, rep.discard)
}

// send writes a reply and counts it.
func (s *Server) send(w http.ResponseWriter, r *http.Request, table string, rep reply, now time.Time) {
	s.count(table, &rep)
	if rep.drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	h := w.Header()
	bodyLen := -1
	if rep.err == nil && rep.body != nil {
		bodyLen = len(rep.body)
	}
	s.setHeaders(h, &rep, bodyLen, now)
	if rep.err != nil {
		putBuf(rep.pooled)
		s.setCorsHeaders(h, r, "Content-Type", "x-ms-error-code")
		writeErrorFor(w, r, rep.err, now)
		return
	}
	if rep.body != nil {
		if rep.ctype == "" {
			h["Content-Type"] = hdrJSON
		} else {
			h.Set("Content-Type", rep.ctype)
		}
	}
	h["Dataserviceversion"] = hdrDSVersion
	s.setCorsHeaders(h, r)
	w.WriteHeader(rep.status)
	if rep.body != nil && r.Method != http.MethodHead {
		w.Write(rep.body)
	}
	putBuf(rep.pooled)
}
