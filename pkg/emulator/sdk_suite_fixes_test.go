package emulator

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// Query Tables with full metadata gives each table its odata.type,
// odata.id and odata.editLink (REST "Query Tables"; aztables'
// TestListTables reads them), and with no metadata no odata.metadata.
func TestListTablesMetadata(t *testing.T) {
	forEachReach(t, func(t *testing.T, r reach) {
		svc := r.start(t, Config{Model: model.Off()})
		c := azClient(t, svc, DevKey)
		if _, err := c.CreateTable(context.Background(), "Listed", nil); err != nil {
			t.Fatal(err)
		}
		p := c.NewListTablesPager(&aztables.ListTablesOptions{Format: to.Ptr(aztables.MetadataFormatFull)})
		page, err := p.NextPage(context.Background())
		if err != nil || len(page.Tables) != 1 {
			t.Fatalf("%+v %v", page, err)
		}
		var md struct {
			Type string `json:"odata.type"`
			ID   string `json:"odata.id"`
			Link string `json:"odata.editLink"`
		}
		json.Unmarshal(page.Tables[0].Value, &md)
		want := [3]string{"devstoreaccount1.Tables", svc.url + "/Tables('Listed')", "Tables('Listed')"}
		if got := [3]string{md.Type, md.ID, md.Link}; got != want {
			t.Errorf("full metadata: %q, want %q", got, want)
		}
		q := signed(svc.Server, http.MethodGet, "/Tables", "$format=application%2Fjson%3Bodata%3Dnometadata", nil)
		if body := do(t, svc.Server, q, 200).Body.String(); body != `{"value":[{"TableName":"Listed"}]}` {
			t.Errorf("no metadata: %s", body)
		}
	})
}

// A retention of 366 days is 400 InvalidXmlDocument, as Azure answers
// aztables' TestRetentionTooLong (its recording), an error code the SDK
// knows.
func TestRetentionTooLong(t *testing.T) {
	svc := azClient(t, socketReached(startServer(t, Config{Model: model.Off()})), DevKey)
	_, err := svc.SetProperties(context.Background(), aztables.ServiceProperties{MinuteMetrics: &aztables.Metrics{
		Enabled: to.Ptr(true), IncludeAPIs: to.Ptr(true), Version: to.Ptr("1.0"),
		RetentionPolicy: &aztables.RetentionPolicy{Enabled: to.Ptr(true), Days: to.Ptr(int32(366))}}}, nil)
	var re *azcore.ResponseError
	if !asResponseError(err, &re) || re.StatusCode != 400 || re.ErrorCode != "InvalidXmlDocument" {
		t.Fatalf("366 days: %v", err)
	}
}

// An error answering a request that asked for XML (the SDKs' service
// properties and ACL requests) is Azure's XML <Error>, with the
// x-ms-error-code header; one that asked for JSON stays JSON.
func TestXMLErrorBody(t *testing.T) {
	s := newServer(t)
	for _, accept := range []string{"application/xml", "application/json;odata=minimalmetadata"} {
		r := signed(s, http.MethodPut, "/", "restype=service&comp=properties", []byte("<not xml"))
		r.Header.Set("Accept", accept)
		w := do(t, s, r, 400)
		body, _ := io.ReadAll(w.Body)
		xmlWanted := accept == "application/xml"
		isXML := strings.HasPrefix(string(body), `<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidXmlDocument</Code><Message>XML specified is not syntactically valid.`)
		if isXML != xmlWanted || strings.HasPrefix(w.Header().Get("Content-Type"), "application/xml") != xmlWanted ||
			w.Header().Get("X-Ms-Error-Code") != "InvalidXmlDocument" {
			t.Errorf("Accept %s: %s %q", accept, w.Header().Get("Content-Type"), body)
		}
	}
}
