package emulator

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReqHeaderAsGet holds reqHeader to Header.Get for requests as
// net/http's server reads them off the wire (header names in any case,
// repeated, empty), and checks that every key the package passes it is
// canonical: for a key that is not, reqHeader would find nothing.
func TestReqHeaderAsGet(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`reqHeader\([a-z]+, "([^"]*)"\)`)
	keys := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			if k := m[1]; http.CanonicalHeaderKey(k) != k {
				t.Errorf("%s: reqHeader(r, %q): the key is not canonical (%q)", f, k, http.CanonicalHeaderKey(k))
			}
			keys[m[1]] = true
		}
	}
	if len(keys) < 5 {
		t.Fatalf("found reqHeader called with %d keys, want the request path's (Authorization, X-Ms-Date, ...)", len(keys))
	}
	wire := []string{
		"GET /a/t HTTP/1.1\r\nHost: x\r\nauthorization: SharedKey a:b\r\nx-ms-date: d1\r\nX-MS-DATE: d2\r\ncontent-type: \r\nprefer: return-no-content\r\nif-match: *\r\naccept: application/json\r\n\r\n",
		"POST /a/t HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nDate: Mon\r\nContent-MD5: abc\r\nCONTENT-TYPE: application/json\r\n\r\n",
		"GET /a/t HTTP/1.1\r\nHost: x\r\n\r\n",
	}
	for _, raw := range wire {
		r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			t.Fatal(err)
		}
		for k := range keys {
			if got, want := reqHeader(r, k), r.Header.Get(k); got != want {
				t.Errorf("%q: reqHeader(%q) = %q, Header.Get = %q", raw, k, got, want)
			}
		}
	}
}
