package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// canned is a policy.Transporter answering every request with one recorded
// answer, whatever it asks: with it, the SDK runs alone (it builds, signs
// and sends every request, and reads and decodes every answer) with no
// service and no connection behind it. It reads and closes each request's
// body, as a transport does. Safe for concurrent use: the answer's header
// is shared, which the SDK only reads.
type canned struct {
	status int
	header http.Header
	body   []byte
}

// Do implements policy.Transporter.
func (c *canned) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: c.status, Status: fmt.Sprint(c.status, " ", http.StatusText(c.status)), Proto: "HTTP/1.1",
		ProtoMajor: 1, ProtoMinor: 1, Header: c.header, Body: io.NopCloser(bytes.NewReader(c.body)),
		ContentLength: int64(len(c.body)), Request: r}, nil
}

// recorder passes requests to the service and keeps the last answer.
type recorder struct {
	rt   http.RoundTripper
	last *canned
}

func (t *recorder) Do(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	t.last = &canned{status: resp.StatusCode, header: resp.Header, body: body}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, err
}

// cannedClient returns a client of table answered by the embedded
// service's own answer to op on the scenario's first entity (a point read
// of it, or its insert), recorded once from the service in process and
// replayed to every request.
func cannedClient(src *source, table, op string) (*aztables.Client, error) {
	p, err := emulator.StartInProcess(emulator.Config{Model: model.Off()})
	if err != nil {
		return nil, err
	}
	defer p.Close(context.Background())
	rec := &recorder{rt: p}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: rec, Retry: policy.RetryOptions{MaxRetries: -1}}}
	cred, err := aztables.NewSharedKeyCredential(emulator.DevAccount, emulator.DevKey)
	if err != nil {
		return nil, err
	}
	svc, err := aztables.NewServiceClientWithSharedKey(p.URL(), cred, opts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if _, err := svc.CreateTable(ctx, table, nil); err != nil {
		return nil, err
	}
	var ent keygen.Entity
	var keys keygen.Keys
	src.pop.Entity(0, &ent)
	src.scheme.Keys(&ent, &keys)
	body := src.pop.AppendJSON(nil, &ent, keys.PK, keys.RK, 0)
	tc := svc.NewClient(table)
	if _, err := tc.AddEntity(ctx, body, nil); err != nil {
		return nil, err
	}
	if op == "read" {
		if _, err := tc.GetEntity(ctx, string(keys.PK), string(keys.RK), nil); err != nil {
			return nil, err
		}
	}
	opts.Transport = rec.last
	if svc, err = aztables.NewServiceClientWithSharedKey(p.URL(), cred, opts); err != nil {
		return nil, err
	}
	return svc.NewClient(table), nil
}
