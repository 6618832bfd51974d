package emulator

import (
	"encoding/json"
	"net"
	"net/http"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// Stats are the server's counters: per table, per partition (the
// PartitionKey a request addresses; "*" for queries spanning partitions;
// "" for table-level requests), requests by outcome key — the same
// "503 ServerBusy" keys the client reports (a failed transaction under its
// failing operation's status, as the client reports it), "transport" for
// connections dropped by fault injection — and entities served by
// successful requests (written, read, or returned by a query).
type Stats struct {
	Tables map[string]*TableStats `json:"tables"`
	Faults faults.Counts          `json:"faults"`
	Model  model.State            `json:"model"`
}

// TableStats are one table's counters.
type TableStats struct {
	// Rows is how many entities the table holds now (0 once it is deleted).
	Rows       int                        `json:"rows"`
	Partitions map[string]*PartitionStats `json:"partitions"`
	// Visited counts, per partition, the entities query pages visited
	// there, matched or not: what the model charged them, where the
	// client sees only the entities returned (Entities).
	Visited map[string]int64 `json:"visited,omitempty"`
}

// PartitionStats are one partition's counters.
type PartitionStats struct {
	// Requests counts answers by outcome key ("204", "503 ServerBusy",
	// "transport" for a dropped connection).
	Requests map[string]int64 `json:"requests"`
	// Entities is the entities served by successful requests.
	Entities int64 `json:"entities"`
	// Dropped is the connections closed without an answer by fault
	// injection (also counted as Requests["transport"]).
	Dropped int64 `json:"dropped,omitempty"`
	// Discarded is the writes acknowledged but not stored by fault
	// injection (also counted under their success status).
	Discarded int64 `json:"discarded,omitempty"`
}

// visitedHeader answers every query page with the entities it visited,
// matched or not (what the model charged it and Visited counts), so a
// client can attribute rows visited to its own operations. No Azure
// client reads it; tablestress does (pkg/table.VisitedHeader).
const visitedHeader = "x-tablestress-rows-visited"

// dropKey is the outcome key of a dropped connection: the client sees a
// transport error.
var dropKey = outcome.Outcome{Class: outcome.Transport}.Key()

// Stats returns a copy of the counters. It is safe for concurrent use.
func (s *Server) Stats() Stats {
	tables := s.counters.snapshot()
	for name, ts := range tables {
		ts.Rows, _ = s.Rows(name)
	}
	return Stats{Tables: tables, Faults: s.faults.Load().Counts(), Model: s.model.State()}
}

// Rows returns how many entities a table holds, in O(1); false when the
// table does not exist. It is safe for concurrent use.
func (s *Server) Rows(table string) (int, bool) {
	t := s.store.Table(table)
	if t == nil {
		return 0, false
	}
	t.RLock()
	defer t.RUnlock()
	return t.Len(), true
}

// ResetStats zeroes the request counters (not the fault and model state).
// It is safe for concurrent use.
func (s *Server) ResetStats() { s.counters.reset() }

// statusKey is the outcome key of an answer.
func statusKey(status int, code string) string { return outcome.New(status, code).Key() }

// serveStats answers GET /_tablestress/stats (the counters as JSON) and
// POST /_tablestress/reset, to loopback clients only and without
// authentication.
func (s *Server) serveStats(w http.ResponseWriter, r *http.Request) {
	if !loopbackPeer(r.RemoteAddr) {
		http.Error(w, "the stats endpoint answers loopback clients only", http.StatusForbidden)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/_tablestress/stats":
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s.Stats())
	case r.Method == http.MethodPost && r.URL.Path == "/_tablestress/reset":
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET on /_tablestress/stats, POST on /_tablestress/reset")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// loopbackPeer reports whether a request's remote address is on this
// machine.
func loopbackPeer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ModelPeaks returns the most entities the model gave each partition and
// end range of table in one second (model.Peaks).
func (s *Server) ModelPeaks(table string) model.Peaks { return s.model.Peaks(table) }
