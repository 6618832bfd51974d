package emulator

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
)

// The service's data in a directory (Config.Location): its tables,
// entities, stored access policies and service properties are kept by a
// journal (package journal) in LOCATION/tablestress-table/ACCOUNT, beside
// whatever else the directory holds (Azurite's files, which are not
// read). Every write is recorded in the order its table applied it and is
// answered only once the record is on the disk.

// LocationDir is the directory the service's files are kept in under
// Config.Location.
const LocationDir = "tablestress-table"

// Recovered is what the service loaded from its directory when it
// started.
type Recovered struct {
	// Dir is the directory; "" when the service keeps its data in memory.
	Dir string
	// Tables and Entities are what it loaded.
	Tables, Entities int
	// Read is the bytes it read; Dropped the bytes of a torn end of the
	// log it cut: writes the process died recording, never answered.
	Read, Dropped int64
	// Took is how long loading took.
	Took time.Duration
}

// Recovered returns what the service loaded from its directory.
func (s *Server) Recovered() Recovered { return s.recovered }

// openJournal loads the service's data from location and records every
// change there from then on.
func (s *Server) openJournal(location string) error {
	dir := filepath.Join(location, LocationDir, s.account)
	j, rec, err := journal.Open(dir, s.store, journal.Options{})
	if err != nil {
		return fmt.Errorf("%w: --location %s: %v", ErrConfig, location, err)
	}
	if rec.Service != nil {
		var p serviceProperties
		if err := xml.Unmarshal(rec.Service, &p); err != nil {
			j.Close()
			return fmt.Errorf("%w: --location %s: the service properties recorded do not read: %v", ErrConfig, location, err)
		}
		s.service.Store(&p)
	}
	s.journal = j
	s.recovered = Recovered{Dir: dir, Tables: rec.Tables, Entities: rec.Entities, Read: rec.Read, Dropped: rec.Dropped, Took: rec.Took}
	return nil
}

// Close writes what the service has not yet written to its directory and
// closes it; a service in memory has nothing to close. Requests served
// after fail to write.
func (s *Server) Close() error {
	if s.journal == nil {
		return nil
	}
	return s.journal.Close()
}

// notDurable is the answer to a write that the service applied but could
// not record: 500, as Azure answers a failure of its own.
func notDurable(err error) *apiError {
	return &apiError{http.StatusInternalServerError, "InternalError",
		"Server encountered an internal error. Please try again after some time. (The write could not be recorded: " + err.Error() + ")"}
}

// setServicePropertiesDurably is setServiceProperties with a journal:
// one change at a time, recorded before it is answered.
func (s *Server) setServicePropertiesDurably(set *serviceProperties) reply {
	s.svcMu.Lock()
	merged := s.serviceProperties().merged(set)
	s.service.Store(merged)
	c := s.journal.Service(merged.document())
	s.svcMu.Unlock()
	if err := c.Wait(); err != nil {
		return errReply(notDurable(err), "")
	}
	return reply{status: http.StatusAccepted}
}
