package emulator

import (
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"time"
)

// The service-level requests (path "/" of the account, ?restype=service):
// Get and Set Table Service Properties (comp=properties) and Get Table
// Service Stats (comp=stats, on the secondary endpoint only), and the
// account's secondary endpoint, ACCOUNT-secondary, which an account with
// read access to its secondary region (RA-GRS) answers reads on (REST
// "Get Table Service Stats": "available only on the secondary location
// endpoint"; the storage redundancy guide: the secondary is read-only).
// The embedded service replicates nothing: its secondary is its primary,
// always live and in sync.

// secondarySuffix follows the account's name in the secondary endpoint's
// URL ("Addressing the account secondary": myaccount-secondary).
const secondarySuffix = "-secondary"

// Service-level refusals. A write on the secondary is 403 (the status
// Azure answers, "Write operations are not allowed"; the code is
// inferred); Stats on the primary is InvalidQueryParameterValue (inferred,
// as Azurite answers).
var (
	errSecondaryWrite = &apiError{403, "InsufficientAccountPermissions", "Write operations are not allowed on the secondary location of the account."}
	errStatsPrimary   = &apiError{400, "InvalidQueryParameterValue", "Get Table Service Stats is available on the account's secondary location endpoint only."}
	errNoResource     = &apiError{400, "InvalidInput", "One of the request inputs is not valid. The requested URI does not represent any resource on the server."}
)

// serviceProperties are the account's properties as last set.
func (s *Server) serviceProperties() *serviceProperties {
	if p := s.service.Load(); p != nil {
		return p
	}
	return defaultServiceProperties()
}

// serviceRequest answers a request on the service itself.
func (s *Server) serviceRequest(r *http.Request, secondary bool) reply {
	q := r.URL.Query()
	if q.Get("restype") != "service" {
		return errReply(errNoResource, "")
	}
	switch comp := q.Get("comp"); {
	case comp == "properties" && r.Method == http.MethodGet:
		return reply{status: http.StatusOK, ctype: "application/xml", body: s.serviceProperties().document()}
	case comp == "properties" && r.Method == http.MethodPut:
		return s.setServiceProperties(r)
	case comp == "stats" && r.Method == http.MethodGet:
		if !secondary {
			return errReply(errStatsPrimary, "")
		}
		return reply{status: http.StatusOK, ctype: "application/xml", body: serviceStats(s.now())}
	case comp == "properties" || comp == "stats":
		return errReply(errMethod, "")
	}
	return errReply(errNoResource, "")
}

// setServiceProperties applies a Set Table Service Properties body: 202
// Accepted, or 400 for XML that is not a StorageServiceProperties document
// (InvalidXmlDocument) or holds a value out of range (check).
func (s *Server) setServiceProperties(r *http.Request) reply {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		return errReply(invalidInput("The request body could not be read."), "")
	}
	var set serviceProperties
	if xml.Unmarshal(body, &set) != nil {
		return errReply(errInvalidXML, "")
	}
	if aerr := set.check(); aerr != nil {
		return errReply(aerr, "")
	}
	if s.journal != nil {
		return s.setServicePropertiesDurably(&set)
	}
	for {
		old := s.service.Load()
		base := old
		if base == nil {
			base = defaultServiceProperties()
		}
		if s.service.CompareAndSwap(old, base.merged(&set)) {
			return reply{status: http.StatusAccepted}
		}
	}
}

// serviceStats is the Get Table Service Stats answer at now: replication
// to the secondary live, last synchronised now (REST "Get Table Service
// Stats": Status live, bootstrap or unavailable; LastSyncTime in RFC 1123).
func serviceStats(now time.Time) []byte {
	return []byte(xml.Header[:len(xml.Header)-1] + "<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>" +
		now.UTC().Format(http.TimeFormat) + "</LastSyncTime></GeoReplication></StorageServiceStats>")
}

// readOnly reports whether a method only reads.
func readOnly(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || strings.EqualFold(method, http.MethodOptions)
}
