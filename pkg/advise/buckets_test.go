package advise

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// judgeSpec compiles and judges a scheme.
func judgeSpec(t *testing.T, in *Input, spec keygen.SchemeSpec) *Prediction {
	t.Helper()
	s, err := keygen.CompileScheme(in.Pop, spec)
	if err != nil {
		t.Fatal(err)
	}
	p, err := in.Judge(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// withBuckets is spec with n hash buckets in place of its own count.
func withBuckets(spec keygen.SchemeSpec, from, n int) keygen.SchemeSpec {
	old := fmt.Sprintf("%% %d:0%d}", from, digits(from-1))
	spec.PartitionKey = strings.Replace(spec.PartitionKey, old, fmt.Sprintf("%% %d:0%d}", n, digits(n-1)), 1)
	return spec
}

// On the skewed devices (zipf 2.0, 5,000 readings/s: the busiest device
// writes about 3,100/s) the recommendation spreads each device's partition
// over N hash buckets, N the fewest that keep the busiest partition at or
// under 70% of 2,000 entities/s: judged with one bucket fewer, the same
// scheme is over the headroom.
func TestBucketCountIsTheFewest(t *testing.T) {
	a := adviseOn(t, "iot-skewed")
	r := a.Recommended
	if r == nil || r.Candidate.Buckets < 2 || !strings.HasPrefix(r.PartitionKey, "{device}") {
		t.Fatalf("recommended %+v: want each device's partition in hash buckets", r)
	}
	n := r.Candidate.Buckets
	in, limit := a.Input, a.Input.Opts.Headroom*a.Input.PartitionTarget()
	if got := judgeSpec(t, in, r.Candidate.Spec).BusiestEntitiesPerSec; got > limit {
		t.Errorf("%d buckets: busiest %v entities/s, over %v", n, got, limit)
	}
	fewer := withBuckets(r.Candidate.Spec, n, n-1)
	if fewer.PartitionKey == r.PartitionKey {
		t.Fatalf("no bucket count to replace in %s", r.PartitionKey)
	}
	p := judgeSpec(t, in, fewer)
	if p.BusiestEntitiesPerSec <= limit {
		t.Errorf("%s: busiest %v entities/s with %d buckets is within %v: %d are not the fewest", fewer.PartitionKey, p.BusiestEntitiesPerSec, n-1, limit, n)
	}
	// Only as much as the hottest device needs: it alone is over with
	// fewer, and every device is spread over as many.
	hot := p.BusiestPartition[:strings.Index(p.BusiestPartition, "_")]
	if want := hotDevice(t, in); hot != want {
		t.Errorf("with %d buckets the busiest partition is %s's, not the hottest device's (%s)", n-1, hot, want)
	}
}

// hotDevice is the device that takes the most new entities.
func hotDevice(t *testing.T, in *Input) string {
	t.Helper()
	s, _ := in.Pop.Support("device")
	best := 0
	for k, p := range s.Probs {
		if p > s.Probs[best] {
			best = k
		}
	}
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	in.Pop.SetValue(&e, "device", s.Values[best])
	v, _ := in.Pop.FieldString(&e, "device")
	return v
}
