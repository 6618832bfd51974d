package emulator

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"hash"
	"net/http"
	"slices"
	"strings"
)

// authenticate checks a request's Shared Key or Shared Key Lite signature,
// or else its shared access signature, and returns what it may do: nil for
// the account key (everything), the SAS's grant otherwise. A request with
// neither, or a signature that does not match, is 403 AuthenticationFailed.
// table is the table the request's path addresses, "" for none: a service
// SAS without tn signs that one. An Authorization header is what Azure
// authenticates a request by: a SAS beside it is not read (R24).
func (s *Server) authenticate(r *http.Request, table string) (*grant, *apiError) {
	if reqHeader(r, "Authorization") == "" {
		if t, ok := parseSAS(r.URL.Query()); ok {
			if !t.isAccount() && t.table == "" {
				t.table = table
			}
			return s.authenticateSAS(r, t)
		}
	}
	if !s.sharedKeyValid(r) {
		if isBearer(r) {
			return s.authenticateBearer(r)
		}
		return nil, errAuth
	}
	return nil, nil
}

// sharedKeyValid checks the request's Shared Key or Shared Key Lite
// signature for the Table service, as Azure does.
func (s *Server) sharedKeyValid(r *http.Request) bool {
	auth := reqHeader(r, "Authorization")
	scheme, cred, ok := strings.Cut(auth, " ")
	if !ok {
		return false
	}
	acct, sig, ok := strings.Cut(cred, ":")
	if !ok || acct != s.account {
		return false
	}
	date := reqHeader(r, "X-Ms-Date")
	if date == "" {
		date = reqHeader(r, "Date")
	}
	if date == "" {
		return false
	}
	sg := s.getSigner()
	defer s.putSigner(sg)
	b := sg.toSign[:0]
	switch scheme {
	case "SharedKeyLite":
	case "SharedKey":
		b = append(b, r.Method...)
		b = append(b, '\n')
		b = append(b, reqHeader(r, "Content-Md5")...)
		b = append(b, '\n')
		b = append(b, reqHeader(r, "Content-Type")...)
		b = append(b, '\n')
	default:
		return false
	}
	b = append(b, date...)
	b = append(b, '\n')
	b = append(b, s.prefix...) // the canonicalized resource: /account/path[?comp=…]
	b = append(b, escapedPath(r)...)
	if comp := queryValue(r, "comp"); comp != "" {
		b = append(b, "?comp="...)
		b = append(b, comp...)
	}
	sg.toSign = b
	return sg.verify(sig)
}

// signer checks signatures: HMAC-SHA256 with the account key of a string
// to sign, against a base64 signature. The server pools them, so checking
// a request's signature allocates nothing.
type signer struct {
	mac    hash.Hash
	alt    hash.Hash // the secondary key's (Config.Key2), nil for none
	toSign []byte
	src    []byte // the signature as sent
	got    []byte // the signature decoded
	sum    [sha256.Size]byte
	// The last string to sign and signature this signer found good:
	// requests signed in the same second for the same resource (a
	// client's inserts into one table) carry the same pair, which is
	// good again without computing the HMAC.
	goodToSign, goodSig []byte
}

// getSigner takes a signer from the pool; putSigner returns it.
func (s *Server) getSigner() *signer {
	if sg, ok := s.signers.Get().(*signer); ok {
		return sg
	}
	sg := &signer{mac: hmac.New(sha256.New, s.key)}
	if s.key2 != nil {
		sg.alt = hmac.New(sha256.New, s.key2)
	}
	return sg
}

func (s *Server) putSigner(sg *signer) {
	if cap(sg.toSign) > 64<<10 || cap(sg.src) > 4<<10 || cap(sg.goodToSign) > 64<<10 || cap(sg.goodSig) > 4<<10 {
		return // an outsized request's: let it go
	}
	s.signers.Put(sg)
}

// verify reports whether sig, in base64, is the HMAC of sg.toSign.
func (sg *signer) verify(sig string) bool {
	sg.src = append(sg.src[:0], sig...)
	if len(sg.goodSig) > 0 && bytes.Equal(sg.toSign, sg.goodToSign) &&
		subtle.ConstantTimeCompare(sg.src, sg.goodSig) == 1 {
		return true
	}
	n := base64.StdEncoding.DecodedLen(len(sg.src))
	sg.got = slices.Grow(sg.got[:0], n)[:n]
	n, err := base64.StdEncoding.Decode(sg.got, sg.src)
	if err != nil {
		return false
	}
	if !sg.signedBy(sg.mac, n) && (sg.alt == nil || !sg.signedBy(sg.alt, n)) {
		return false
	}
	sg.goodToSign = append(sg.goodToSign[:0], sg.toSign...)
	sg.goodSig = append(sg.goodSig[:0], sg.src...)
	return true
}

// signedBy reports whether the decoded signature, n bytes, is mac's of
// the string to sign.
func (sg *signer) signedBy(mac hash.Hash, n int) bool {
	mac.Reset()
	mac.Write(sg.toSign)
	return hmac.Equal(sg.got[:n], mac.Sum(sg.sum[:0]))
}

func encodeKey(k []byte) string { return base64.StdEncoding.EncodeToString(k) }
