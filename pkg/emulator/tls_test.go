package emulator

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/internal/devcert"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// startTLS starts a service over TLS with a certificate of a fresh
// authority, reached the way way reaches it, and returns it with an HTTP
// client trusting that authority (in process: the service's transport).
func startTLS(t *testing.T, way reach, cfg Config) (*reached, *http.Client) {
	t.Helper()
	ca, err := devcert.NewCA("test")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLS, err = ca.ServerConfig("127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	in := way.start(t, cfg)
	if in.rt != nil {
		return in, &http.Client{Transport: in.rt}
	}
	return in, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
}

// Served over TLS, the service is an https endpoint: its URL and
// connection string say so, an SDK trusting its authority works through
// them, the metadata URLs it answers with are https, a SAS for https only
// is accepted, and (over its socket) a plain-http request gets no answer.
// In process nothing is encrypted, but the client addresses the service
// as https, and the service answers as it does over TLS.
func TestServedOverTLS(t *testing.T) { forEachReach(t, testServedOverTLS) }

func testServedOverTLS(t *testing.T, way reach) {
	in, hc := startTLS(t, way, Config{Model: model.Off()})
	if !strings.HasPrefix(in.url, "https://127.0.0.1") || !strings.Contains(in.conn, "DefaultEndpointsProtocol=https;") {
		t.Fatalf("URL %s, connection string %s", in.url, in.conn)
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: hc, Retry: policy.RetryOptions{MaxRetries: -1}}}
	svc, err := aztables.NewServiceClientFromConnectionString(in.conn, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, "Secure", nil); err != nil {
		t.Fatal(err)
	}
	tb := svc.NewClient("Secure")
	if _, err := tb.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","V":1}`), nil); err != nil {
		t.Fatal(err)
	}
	full := aztables.MetadataFormatFull
	got, err := tb.GetEntity(ctx, "p", "r", &aztables.GetEntityOptions{Format: &full})
	if err != nil {
		t.Fatal(err)
	}
	if body := string(got.Value); !strings.Contains(body, `"odata.metadata":"https://127.0.0.1`) || !strings.Contains(body, `"odata.id":"https://127.0.0.1`) {
		t.Errorf("metadata URLs are not https: %s", body)
	}

	cred, _ := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	qp, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPS, Permissions: aztables.AccountSASPermissions{Read: true, List: true}.String(),
		Services: "t", ResourceTypes: aztables.AccountSASResourceTypes{Container: true, Object: true}.String(),
		StartTime: time.Now().Add(-time.Minute).UTC(), ExpiryTime: time.Now().Add(time.Hour).UTC()}.Sign(cred)
	if err != nil {
		t.Fatal(err)
	}
	sas, err := aztables.NewServiceClientWithNoCredential(in.url+"?"+qp.Encode(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sas.NewClient("Secure").GetEntity(ctx, "p", "r", nil); err != nil {
		t.Errorf("a SAS for https only, over https: %v", err)
	}

	if in.rt != nil {
		return // in process: there is no socket to speak plain http to
	}
	host := strings.TrimSuffix(strings.TrimPrefix(in.url, "https://"), "/"+DevAccount)
	resp, err := http.Get("http://" + host + "/" + DevAccount + "/Tables")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("plain http was served: %s %s", resp.Status, b)
		}
	}
}
