package emulator

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// Stats are the server's counters: per table, per partition (the
// PartitionKey a request addresses; "*" for queries spanning partitions;
// "" for table-level requests), requests by outcome key — the same
// "503 ServerBusy" keys the client reports, "transport" for connections
// dropped by fault injection — and entities served by successful requests.
type Stats struct {
	Tables map[string]*TableStats `json:"tables"`
	Faults faults.Counts          `json:"faults"`
	Model  model.State            `json:"model"`
}

// TableStats are one table's counters.
type TableStats struct {
	Partitions map[string]*PartitionStats `json:"partitions"`
}

// PartitionStats are one partition's counters.
type PartitionStats struct {
	Requests  map[string]int64 `json:"requests"`
	Entities  int64            `json:"entities"`
	Discarded int64            `json:"discarded,omitempty"`
}

// stats is guarded by one mutex: one short critical section per request.
type stats struct {
	mu     sync.Mutex
	tables map[string]*TableStats
}

func newStats() *stats { return &stats{tables: map[string]*TableStats{}} }

func (s *stats) record(table, part, key string, entities int, discarded bool) {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil {
		t = &TableStats{Partitions: map[string]*PartitionStats{}}
		s.tables[table] = t
	}
	p := t.Partitions[part]
	if p == nil {
		p = &PartitionStats{Requests: map[string]int64{}}
		t.Partitions[part] = p
	}
	p.Requests[key]++
	p.Entities += int64(entities)
	if discarded {
		p.Discarded++
	}
	s.mu.Unlock()
}

func (s *stats) snapshot() map[string]*TableStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]*TableStats, len(s.tables))
	for name, t := range s.tables {
		ct := &TableStats{Partitions: make(map[string]*PartitionStats, len(t.Partitions))}
		for k, p := range t.Partitions {
			cp := &PartitionStats{Requests: make(map[string]int64, len(p.Requests)), Entities: p.Entities, Discarded: p.Discarded}
			for rk, n := range p.Requests {
				cp.Requests[rk] = n
			}
			ct.Partitions[k] = cp
		}
		out[name] = ct
	}
	return out
}

func (s *stats) reset() {
	s.mu.Lock()
	s.tables = map[string]*TableStats{}
	s.mu.Unlock()
}

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	return Stats{Tables: s.stats.snapshot(), Faults: s.faults.Counts(), Model: s.model.State()}
}

// ResetStats zeroes the request counters.
func (s *Server) ResetStats() { s.stats.reset() }

// statusKey is the outcome key of an answer.
func statusKey(status int, code string) string { return outcome.New(status, code).Key() }

func (s *Server) serveStats(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s.Stats())
	case http.MethodPost:
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// PauseModel suspends (true) or resumes (false) the partition model.
func (s *Server) PauseModel(p bool) { s.model.SetPaused(p) }
