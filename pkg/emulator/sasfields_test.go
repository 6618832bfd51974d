package emulator

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// Tokens signed by aztables with the fields the SDK tokens above lack:
// source IP ranges, the protocol, the service, and a policy and the SAS
// both setting a field.
func TestSASSourceProtocolAndService(t *testing.T) {
	cred, err := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	if err != nil {
		t.Fatal(err)
	}
	hour := june2026.Add(time.Hour)
	table := func(v aztables.SASSignatureValues) string {
		v.TableName, v.ExpiryTime = "SasTable", hour
		if v.Protocol == "" {
			v.Protocol = aztables.SASProtocolHTTPSandHTTP
		}
		tok, err := v.Sign(cred)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	account := func(services string) string {
		qp, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: "rl", Services: services,
			ResourceTypes: "sco", ExpiryTime: hour}.Sign(cred)
		if err != nil {
			t.Fatal(err)
		}
		return qp.Encode()
	}
	tests := []struct {
		name, token, want string
	}{
		{"this address", table(aztables.SASSignatureValues{Permissions: "r", IPRange: aztables.IPRange{Start: net.ParseIP("127.0.0.1")}}), "OK"},
		{"within a range", table(aztables.SASSignatureValues{Permissions: "r", IPRange: aztables.IPRange{Start: net.ParseIP("127.0.0.0"), End: net.ParseIP("127.0.0.9")}}), "OK"},
		{"another address", table(aztables.SASSignatureValues{Permissions: "r", IPRange: aztables.IPRange{Start: net.ParseIP("10.1.2.3")}}), "AuthorizationSourceIPMismatch"},
		{"https only", table(aztables.SASSignatureValues{Permissions: "r", Protocol: aztables.SASProtocolHTTPS}), "AuthorizationProtocolMismatch"},
		{"policy and SAS both set the permissions", table(aztables.SASSignatureValues{Permissions: "r", Identifier: "both"}), "InvalidQueryParameterValue"},
		{"account SAS for the table service", account("t"), "OK"},
		{"account SAS for blobs and queues", account("bq"), "AuthorizationServiceMismatch"},
	}
	for _, tt := range tests {
		s := sasServer(t, june2026)
		do(t, s, signed(s, http.MethodPut, "/SasTable", "comp=acl", []byte(
			`<SignedIdentifiers><SignedIdentifier><Id>both</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)), http.StatusNoContent)
		if got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", tt.token, nil))); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
