package emulator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// authenticate checks a request's Shared Key or Shared Key Lite signature,
// or else its shared access signature, and returns what it may do: nil for
// the account key (everything), the SAS's grant otherwise. A request with
// neither, or a signature that does not match, is 403 AuthenticationFailed.
func (s *Server) authenticate(r *http.Request) (*grant, *apiError) {
	if r.Header.Get("Authorization") == "" {
		if t, ok := parseSAS(r.URL.Query()); ok {
			return s.authenticateSAS(r, t)
		}
	}
	if !s.sharedKeyValid(r) {
		return nil, errAuth
	}
	return nil, nil
}

// sharedKeyValid checks the request's Shared Key or Shared Key Lite
// signature for the Table service, as Azure does.
func (s *Server) sharedKeyValid(r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	scheme, cred, ok := strings.Cut(auth, " ")
	if !ok {
		return false
	}
	acct, sig, ok := strings.Cut(cred, ":")
	if !ok || acct != s.account {
		return false
	}
	date := r.Header.Get("x-ms-date")
	if date == "" {
		date = r.Header.Get("Date")
	}
	if date == "" {
		return false
	}
	resource := "/" + s.account + r.URL.EscapedPath()
	if comp := r.URL.Query().Get("comp"); comp != "" {
		resource += "?comp=" + comp
	}
	var toSign string
	switch scheme {
	case "SharedKeyLite":
		toSign = date + "\n" + resource
	case "SharedKey":
		toSign = r.Method + "\n" + r.Header.Get("Content-MD5") + "\n" + r.Header.Get("Content-Type") + "\n" + date + "\n" + resource
	default:
		return false
	}
	mac := hmac.New(sha256.New, s.key)
	mac.Write([]byte(toSign))
	want := mac.Sum(nil)
	got, err := base64.StdEncoding.DecodeString(sig)
	return err == nil && hmac.Equal(got, want)
}

func encodeKey(k []byte) string { return base64.StdEncoding.EncodeToString(k) }
