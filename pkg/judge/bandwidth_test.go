package judge

import (
	"context"
	"math"
	"testing"
)

// photos are 64 KiB entities, 100 written a second, and each album's
// newest 100 read 50 times a second: 6.4 MB/s in, 5,000 rows, about
// 330 MB/s, out.
const photos = `
name: photos
seed: 4
population:
  entities: 20000
  interval: 10ms
  payload: 64KiB
  fields:
    album: {kind: id, count: 10}
questions:
  - {name: album, known: [album], want: newest, limit: 100}
schemes:
  - {name: by-album, partition_key: "{album}", row_key: "{inverted_ticks}"}
workload:
  rate: 150/s
  mix:
    - {op: insert, weight: 100}
    - {question: album, weight: 50}
`

// The account's bandwidth is asked what the rows weigh: every written
// row's bytes in, every returned row's bytes out, each as the run sends
// it (the entity's JSON body), whatever the count of requests.
func TestBandwidthWeighsTheRows(t *testing.T) {
	in := prepare(t, "photos", []byte(photos))
	p, err := in.Judge(context.Background(), in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	q := p.Questions[0]
	body := float64(in.Pop.Spec().Payload.Size)
	if !(body > 0) {
		t.Fatalf("payload %v", body)
	}
	// The body is the payload and the fields, keys and annotations: a
	// little over the payload.
	in1, out1 := 100*body, q.PerSec*q.RowsPerQuestion*body
	if p.IngressBytesPerSec < in1 || p.IngressBytesPerSec > 1.05*in1 {
		t.Errorf("ingress %v bytes/s, want 100 rows of a little over %v bytes", p.IngressBytesPerSec, body)
	}
	if math.Abs(q.RowsPerQuestion-100) > 1 || p.EgressBytesPerSec < out1 || p.EgressBytesPerSec > 1.05*out1 {
		t.Errorf("egress %v bytes/s for %v rows a question at %v/s, want a little over %v", p.EgressBytesPerSec, q.RowsPerQuestion, q.PerSec, out1)
	}
}
