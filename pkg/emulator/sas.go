package emulator

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// sasToken is a shared access signature as a request carries it in its
// query string (REST "Create a service SAS", "Create an account SAS").
// A token with tn is a service SAS for that table; one with ss and srt is
// an account SAS.
type sasToken struct {
	version, perms, start, expiry, ip, proto, sig string
	// service SAS: table is tn, or the table the request addresses
	// when tn is absent (authenticate)
	table, id, spk, srk, epk, erk string
	// account SAS
	services, resTypes, encScope string
	// repeated is set when the query string gives a field twice.
	repeated bool
}

// sasFields are the query parameters of a shared access signature.
var sasFields = [...]string{"sv", "sp", "st", "se", "sip", "spr", "sig", "tn", "si", "spk", "srk", "epk", "erk", "ss", "srt", "ses"}

// oldestSASVersion is the first version whose string-to-sign sasToken
// computes; SDKs send 2017-04-17 (the legacy Python SDK) and 2019-02-02.
const oldestSASVersion = "2015-04-05"

// parseSAS reads the token of a request's query string; ok is false when
// the query has no signature. A field given twice marks the token
// repeated, which authenticateSAS refuses.
func parseSAS(q url.Values) (sasToken, bool) {
	t := sasToken{version: q.Get("sv"), perms: q.Get("sp"), start: q.Get("st"), expiry: q.Get("se"), ip: q.Get("sip"),
		proto: q.Get("spr"), sig: q.Get("sig"), table: q.Get("tn"), id: q.Get("si"), spk: q.Get("spk"), srk: q.Get("srk"),
		epk: q.Get("epk"), erk: q.Get("erk"), services: q.Get("ss"), resTypes: q.Get("srt"), encScope: q.Get("ses")}
	for _, f := range sasFields {
		t.repeated = t.repeated || len(q[f]) > 1
	}
	return t, t.sig != ""
}

// isAccount reports whether the token is an account SAS.
func (t sasToken) isAccount() bool { return t.table == "" && (t.services != "" || t.resTypes != "") }

// stringToSign is what the signature is an HMAC-SHA256 of, for versions
// 2015-04-05 and later. A service SAS for a table:
//
//	sp \n st \n se \n /table/ACCOUNT/table \n si \n sip \n spr \n sv \n spk \n srk \n epk \n erk
//
// (the table name lower-cased: tn's, or the addressed table's, as REST
// "Create a service SAS" derives the canonicalized resource from the
// request URL); an account SAS:
//
//	ACCOUNT \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n [ses \n]
//
// with ses from version 2020-12-06 on.
func (t sasToken) stringToSign(account string) string {
	if t.isAccount() {
		s := account + "\n" + t.perms + "\n" + t.services + "\n" + t.resTypes + "\n" + t.start + "\n" + t.expiry + "\n" +
			t.ip + "\n" + t.proto + "\n" + t.version + "\n"
		if t.version >= "2020-12-06" {
			s += t.encScope + "\n"
		}
		return s
	}
	return strings.Join([]string{t.perms, t.start, t.expiry, "/table/" + account + "/" + strings.ToLower(t.table), t.id,
		t.ip, t.proto, t.version, t.spk, t.srk, t.epk, t.erk}, "\n")
}

// SAS refusals (REST "Shared access signature error codes"; a signature
// that does not match, or a token outside its time frame, is
// AuthenticationFailed as Shared Key's are).
var (
	errSASPermission   = &apiError{403, "AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission."}
	errSASService      = &apiError{403, "AuthorizationServiceMismatch", "This request is not authorized to perform this operation using this service."}
	errSASResourceType = &apiError{403, "AuthorizationResourceTypeMismatch", "This request is not authorized to perform this operation using this resource type."}
	errSASFailure      = &apiError{403, "AuthorizationFailure", "This request is not authorized to perform this operation."}
	errSASProtocol     = &apiError{403, "AuthorizationProtocolMismatch", "This request is not authorized to perform this operation using this protocol."}
	errSASBoth         = &apiError{400, "InvalidQueryParameterValue", "A field of the shared access signature is also set by its stored access policy."}
)

func errSASSourceIP(ip string) *apiError {
	return &apiError{403, "AuthorizationSourceIPMismatch", "This request is not authorized to perform this operation using this source IP " + ip + "."}
}

// authenticateSAS checks a token's signature with the account key, then
// its stored access policy (si, looked up on the token's table), time
// frame, protocol and source IP, and returns what it grants.
func (s *Server) authenticateSAS(r *http.Request, t sasToken) (*grant, *apiError) {
	if t.repeated {
		return nil, errSASFailure // a field given twice, sig or any other: 403, whichever would be read
	}
	if t.version < oldestSASVersion || (t.table == "" && !t.isAccount()) {
		return nil, errAuth
	}
	sg := s.getSigner()
	sg.toSign = append(sg.toSign[:0], t.stringToSign(s.account)...)
	ok := sg.verify(t.sig)
	s.putSigner(sg)
	if !ok {
		return nil, errAuth
	}
	if t.id != "" && !t.isAccount() {
		tb := s.store.Table(t.table)
		var pol *store.Policy
		if tb != nil {
			pol = tb.Policy(t.id)
		}
		if pol == nil {
			return nil, errAuth // revoked, or never set
		}
		if (t.perms != "" && pol.Perms != "") || (t.start != "" && pol.Start != "") || (t.expiry != "" && pol.Expiry != "") {
			return nil, errSASBoth
		}
		t.perms, t.start, t.expiry = t.perms+pol.Perms, t.start+pol.Start, t.expiry+pol.Expiry
	}
	now := s.now()
	st, stErr := sasTime(t.start)
	se, seErr := sasTime(t.expiry)
	if t.expiry == "" || seErr != nil || stErr != nil || !now.Before(se) || (t.start != "" && now.Before(st)) {
		return nil, errAuth // "Signature not valid in the specified time frame"
	}
	if t.proto != "" && t.proto != "https,http" && t.proto != "http,https" && (t.proto != "https" || s.scheme != "https") {
		return nil, errSASProtocol
	}
	if t.ip != "" {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		if !ipInRange(host, t.ip) {
			return nil, errSASSourceIP(host)
		}
	}
	return &grant{account: t.isAccount(), services: t.services, resTypes: t.resTypes, perms: t.perms,
		table: t.table, spk: t.spk, srk: t.srk, epk: t.epk, erk: t.erk}, nil
}

// sasTime parses an st or se value: ISO 8601 in UTC, to the day, minute,
// second or fraction ("" is the zero time).
func sasTime(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z", "2006-01-02"} {
		var t time.Time
		if t, err = time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// ipInRange reports whether ip is the sip value's address or within its
// range "FROM-TO".
func ipInRange(ip, sip string) bool {
	a := net.ParseIP(ip)
	from, to, isRange := strings.Cut(sip, "-")
	lo, hi := net.ParseIP(from), net.ParseIP(from)
	if isRange {
		hi = net.ParseIP(to)
	}
	if a == nil || lo == nil || hi == nil {
		return false
	}
	a, lo, hi = a.To16(), lo.To16(), hi.To16()
	return string(a) >= string(lo) && string(a) <= string(hi)
}
