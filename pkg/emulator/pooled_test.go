package emulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// wireClient sends signed requests to an instance over loopback TCP, as
// an SDK does: what net/http writes is what it reads.
type wireClient struct {
	in *Instance
	c  *http.Client
}

func (wc wireClient) do(t *testing.T, method, path string, body []byte, prefer string) (int, http.Header, []byte) {
	r, err := http.NewRequestWithContext(context.Background(), method, wc.in.URL()+path, bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, nil, nil
	}
	date := time.Now().UTC().Format(http.TimeFormat)
	r.Header.Set("x-ms-date", date)
	r.Header.Set("Accept", "application/json;odata=minimalmetadata")
	r.Header.Set("Content-Type", "application/json")
	if prefer != "" {
		r.Header.Set("Prefer", prefer)
	}
	mac := hmac.New(sha256.New, wc.in.key)
	mac.Write([]byte(date + "\n/" + wc.in.account + r.URL.EscapedPath()))
	r.Header.Set("Authorization", "SharedKeyLite "+wc.in.account+":"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	resp, err := wc.c.Do(r)
	if err != nil {
		t.Error(err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return resp.StatusCode, resp.Header, b
}

// checkEntityAnswer fails unless an answer is entity (pk, rk) with its
// own payload, its Content-Length the body's and its ETag the body's.
func checkEntityAnswer(t *testing.T, what, pk, rk string, h http.Header, body []byte) {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(body, &e); err != nil {
		t.Errorf("%s: body %q: %v", what, body, err)
		return
	}
	if e["PartitionKey"] != pk || e["RowKey"] != rk || e["Data"] != payloadOf(pk, rk) {
		t.Errorf("%s: the answer of another entity: %q", what, body)
	}
	if n, _ := strconv.Atoi(h.Get("Content-Length")); n != len(body) {
		t.Errorf("%s: Content-Length %q for %d bytes", what, h.Get("Content-Length"), len(body))
	}
	if e["odata.etag"] != h.Get("ETag") || h.Get("ETag") == "" {
		t.Errorf("%s: ETag %q, the body's %q", what, h.Get("ETag"), e["odata.etag"])
	}
}

// payloadOf is an entity's own payload, of a length of its own, so that
// an answer written over a longer one's buffer would show.
func payloadOf(pk, rk string) string {
	n, _ := strconv.Atoi(rk)
	return strings.Repeat(pk+"/"+rk+";", 1+n%97)
}

// TestPooledAnswersUnderConcurrency reads and inserts entities of many
// sizes from many goroutines at once over HTTP (run it with -race) and
// checks that every answer is its own entity's: the answers' buffers are
// pooled and reused, and one answer must never carry another's bytes.
func TestPooledAnswersUnderConcurrency(t *testing.T) {
	in := startServer(t, Config{Model: model.Off()})
	wc := wireClient{in, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	if code, _, b := wc.do(t, http.MethodPost, "/Tables", []byte(`{"TableName":"pool"}`), returnNoContent); code != http.StatusNoContent {
		t.Fatalf("create table: %d %s", code, b)
	}
	const parts, rows = 8, 40
	body := func(pk, rk string) []byte {
		return []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"Data":%q}`, pk, rk, payloadOf(pk, rk)))
	}
	for p := range parts {
		for r := range rows {
			pk, rk := "p"+strconv.Itoa(p), strconv.Itoa(r)
			if code, _, b := wc.do(t, http.MethodPost, "/pool", body(pk, rk), returnNoContent); code != http.StatusNoContent {
				t.Fatalf("insert %s/%s: %d %s", pk, rk, code, b)
			}
		}
	}
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := range 150 {
				k := (w*7919 + i*104729) % (parts * rows)
				pk, rk := "p"+strconv.Itoa(k%parts), strconv.Itoa(k/parts)
				if i%5 == 4 { // an insert, answered with its entity
					nrk := strconv.Itoa(1000 + w*1000 + i)
					code, h, b := wc.do(t, http.MethodPost, "/pool", body(pk, nrk), "")
					if code != http.StatusCreated {
						t.Errorf("insert %s/%s: %d %s", pk, nrk, code, b)
						continue
					}
					checkEntityAnswer(t, "insert "+pk+"/"+nrk, pk, nrk, h, b)
					continue
				}
				code, h, b := wc.do(t, http.MethodGet, fmt.Sprintf("/pool(PartitionKey='%s',RowKey='%s')", pk, rk), nil, "")
				if code != http.StatusOK {
					t.Errorf("read %s/%s: %d %s", pk, rk, code, b)
					continue
				}
				checkEntityAnswer(t, "read "+pk+"/"+rk, pk, rk, h, b)
			}
		})
	}
	wg.Wait()
}
