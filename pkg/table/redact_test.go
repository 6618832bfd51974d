package table

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	azlog "github.com/Azure/azure-sdk-for-go/sdk/azcore/log"
)

// With a SAS target, neither Results nor azcore's log (were a listener
// ever registered; tablestress registers none) show the signature, for
// answers and for requests that got none.
func TestSignatureNeverShown(t *testing.T) {
	const secretSig = "U0VDUkVUU0lHTkFUVVJFZG9ub3RzaG93"
	var mu sync.Mutex
	var logged []string
	azlog.SetListener(func(_ azlog.Event, msg string) {
		mu.Lock()
		logged = append(logged, msg)
		mu.Unlock()
	})
	t.Cleanup(func() { azlog.SetListener(nil) })

	for i, s := range []*canned{{status: 404, code: "ResourceNotFound"}, {drop: true}, {status: 200, body: entityJSON}} {
		srv := httptest.NewServer(s)
		tg, err := ParseTarget(srv.URL + "/devstoreaccount1?sv=2020-08-04&ss=t&srt=sco&sp=rwdlacu&sig=" + secretSig)
		if err != nil {
			t.Fatal(err)
		}
		svc, err := Open(tg, Options{Workers: 1, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		r := svc.Table("tbl1").Get(context.Background(), "p", "r", nil)
		if want := [...]string{"404 ResourceNotFound", "transport", "200"}[i]; r.Outcome.Key() != want || s.reqs.Load() != 1 {
			t.Errorf("case %d: %s after %d requests, want %s after 1", i, r.Outcome.Key(), s.reqs.Load(), want)
		}
		if r.Err != nil && strings.Contains(r.Err.Error(), secretSig) {
			t.Errorf("Result.Err shows the signature: %v", r.Err)
		}
		if strings.Contains(tg.String(), secretSig) {
			t.Errorf("String shows the signature: %s", tg)
		}
		svc.Close()
		srv.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) == 0 {
		t.Fatal("azcore logged nothing: the test would prove nothing")
	}
	for _, msg := range logged {
		if strings.Contains(msg, secretSig) {
			t.Errorf("azcore logged the signature: %s", msg)
		}
	}
}
