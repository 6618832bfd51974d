package emulator

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// The response headers every answer carries, set by direct assignment to
// the header map under their canonical keys (what Header.Set would store):
// a constant value is a one-element slice shared by every answer, which
// the HTTP layer only reads (net/http and the fasthttp front copy the map
// before writing it out), and the values that vary share one backing
// array per answer.
var (
	hdrVersion     = []string{"2019-02-02"}
	hdrNosniff     = []string{"nosniff"}
	hdrDSVersion   = []string{"3.0;"}
	hdrJSON        = []string{jsonMinimal}
	hdrNoContent   = []string{returnNoContent}
	hdrWithContent = []string{returnContent}
)

// jsonMinimal is the Content-Type of a JSON answer with minimal metadata,
// Azure's default.
const jsonMinimal = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"

// preferenceHeader is the Preference-Applied value of a reply's applied
// preference, nil for none.
func preferenceHeader(p string) []string {
	switch p {
	case returnNoContent:
		return hdrNoContent
	case returnContent:
		return hdrWithContent
	case "":
		return nil
	}
	return []string{p}
}

// appendRequestID appends the x-ms-request-id of an answer at now: a GUID
// made of the time, as "%08x-0000-0000-0000-%012x" of the Unix time in
// nanoseconds shifted right by 20 bits, and of its low 48 bits.
func appendRequestID(dst []byte, now time.Time) []byte {
	ns := now.UnixNano()
	dst = edm.AppendHex(dst, uint64(uint32(ns>>20)), 8)
	dst = append(dst, "-0000-0000-0000-"...)
	return edm.AppendHex(dst, uint64(ns)&0xffffffffffff, 12)
}

// requestID is appendRequestID as a string.
func requestID(now time.Time) string {
	var b [36]byte
	return string(appendRequestID(b[:0], now))
}

// setHeaders sets the headers every answer at now carries, the ETag of
// the reply's entity, its applied preference and other headers, and with
// bodyLen ≥ 0 the Content-Length of a body of that many bytes. The varying values
// (request id, length, ETag) are one string and share one slice array:
// two allocations in all.
func (s *Server) setHeaders(h http.Header, rep *reply, bodyLen int, now time.Time) {
	var b [128]byte
	line := appendRequestID(b[:0], now)
	idEnd := len(line)
	if bodyLen >= 0 {
		line = strconv.AppendInt(line, int64(bodyLen), 10)
	}
	lenEnd := len(line)
	if rep.tagged {
		line = edm.AppendETag(line, rep.tagTS)
	}
	all := string(line)
	vals := make([]string, 3)
	vals[0], vals[1], vals[2] = all[:idEnd], all[idEnd:lenEnd], all[lenEnd:]
	h["X-Ms-Version"] = hdrVersion
	h["X-Ms-Request-Id"] = vals[0:1:1]
	if s.dates != nil { // else the HTTP layer writes it, from the same clock, without a map entry
		h["Date"] = s.dates.Of(now)
	}
	h["X-Content-Type-Options"] = hdrNosniff
	if rep.tagged {
		h["Etag"] = vals[2:3:3]
	}
	if p := preferenceHeader(rep.prefer); p != nil {
		h["Preference-Applied"] = p
	}
	for k, v := range rep.header {
		h.Set(k, v)
	}
	if bodyLen >= 0 {
		h["Content-Length"] = vals[1:2:2]
	}
	if s.model.ChargesUnits() { // Cosmos DB's charge, to the hundredth as it states it
		h["X-Ms-Request-Charge"] = []string{strconv.FormatFloat(math.Round(rep.work.Charge*100)/100, 'f', -1, 64)}
	}
}

// reqHeader is r.Header.Get(key) for a key in canonical form ("X-Ms-Date",
// as http.CanonicalHeaderKey writes it), which is how net/http and the
// fasthttp front (package httpfront) store the headers they receive: the first
// value, or "". It skips Get's
// canonicalization of the key, which costs more than the lookup itself on
// the request path.
func reqHeader(r *http.Request, key string) string {
	if v := r.Header[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
