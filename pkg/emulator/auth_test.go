package emulator

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

func TestAztablesKeys(t *testing.T) { forEachReach(t, testAztablesKeys) }

func testAztablesKeys(t *testing.T, way reach) {
	in := way.start(t, Config{})
	ctx := context.Background()
	if _, err := azClient(t, in, DevKey).CreateTable(ctx, "authok", nil); err != nil {
		t.Fatalf("the right key: %v", err)
	}
	_, err := azClient(t, in, "d3Jvbmcta2V5LXdyb25nLWtleQ==").CreateTable(ctx, "authbad", nil)
	var re *azcore.ResponseError
	if !asResponseError(err, &re) || re.StatusCode != http.StatusForbidden || re.ErrorCode != "AuthenticationFailed" {
		t.Fatalf("a wrong key: %v, want 403 AuthenticationFailed", err)
	}
	if _, ok := in.Rows("authbad"); ok {
		t.Error("a request with a wrong key created its table")
	}
}

// sharedKey signs r with the full Shared Key scheme for the Table service.
func sharedKey(s *Server, r *http.Request, key []byte) {
	toSign := r.Method + "\n" + r.Header.Get("Content-MD5") + "\n" + r.Header.Get("Content-Type") + "\n" +
		r.Header.Get("x-ms-date") + "\n/" + s.account + r.URL.EscapedPath()
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(toSign))
	r.Header.Set("Authorization", "SharedKey "+s.account+":"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
}

func TestAuthorization(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	tests := []struct {
		name   string
		change func(r *http.Request)
		want   int
	}{
		{"Shared Key Lite", func(r *http.Request) {}, http.StatusOK},
		{"Shared Key", func(r *http.Request) { sharedKey(s, r, s.key) }, http.StatusOK},
		{"Shared Key with another key", func(r *http.Request) { sharedKey(s, r, []byte("other")) }, http.StatusForbidden},
		{"Shared Key, Content-Type changed after signing", func(r *http.Request) {
			sharedKey(s, r, s.key)
			r.Header.Set("Content-Type", "text/plain")
		}, http.StatusForbidden},
		{"no Authorization", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusForbidden},
		{"another account", func(r *http.Request) {
			r.Header.Set("Authorization", "SharedKeyLite other:"+r.Header.Get("Authorization")[len("SharedKeyLite "+s.account+":"):])
		}, http.StatusForbidden},
		{"signature not base64", func(r *http.Request) { r.Header.Set("Authorization", "SharedKeyLite "+s.account+":!!") }, http.StatusForbidden},
		{"unknown scheme", func(r *http.Request) { r.Header.Set("Authorization", "Bearer abc") }, http.StatusForbidden},
		{"no date", func(r *http.Request) { r.Header.Del("x-ms-date") }, http.StatusForbidden},
		{"date changed after signing", func(r *http.Request) { r.Header.Set("x-ms-date", "Mon, 01 Jan 2024 00:00:00 GMT") }, http.StatusForbidden},
		{"path changed after signing", func(r *http.Request) { r.URL.Path = "/" + s.account + "/Tables" }, http.StatusForbidden},
	}
	for _, tt := range tests {
		r := signed(s, http.MethodGet, "/t()", "", nil)
		tt.change(r)
		w := serve(s, r)
		if w.Code != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, w.Code, tt.want)
			continue
		}
		if tt.want == http.StatusForbidden {
			if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "AuthenticationFailed" {
				t.Errorf("%s: %s, want AuthenticationFailed", tt.name, code)
			}
		}
	}
}

// TestSignerRemembersOnlyGoodPairs checks the signer's memory of the last
// good (string to sign, signature) pair: the same pair is good again, and
// a signature with one character changed, or the good signature of
// another string, is not.
func TestSignerRemembersOnlyGoodPairs(t *testing.T) {
	key := []byte("the account key")
	sign := func(s string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(s))
		return base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	sg := &signer{mac: hmac.New(sha256.New, key)}
	check := func(toSign, sig string) bool {
		sg.toSign = append(sg.toSign[:0], toSign...)
		return sg.verify(sig)
	}
	a, b := "POST\n\napplication/json\nThu, 26 Nov 2026 12:00:00 GMT\n/acct/t", "POST\n\napplication/json\nThu, 26 Nov 2026 12:00:01 GMT\n/acct/t"
	good := sign(a)
	bad := []byte(good)
	bad[3] ^= 1
	for i, c := range []struct {
		toSign, sig string
		want        bool
	}{
		{a, good, true}, {a, good, true}, {a, string(bad), false}, {b, good, false}, {a, good, true},
		{b, sign(b), true}, {a, good, true}, {a, good[:len(good)-4], false},
	} {
		if got := check(c.toSign, c.sig); got != c.want {
			t.Errorf("check %d: %v, want %v", i, got, c.want)
		}
	}
}
