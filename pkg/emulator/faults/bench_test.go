package faults

import "testing"

// BenchmarkDecide is Decide on the hot path, from all Ps in parallel, with
// every kind of fault configured, and with nothing to inject.
func BenchmarkDecide(b *testing.B) {
	for _, spec := range []string{"503=2%,500=1%,504=0.5%,429=1%,latency=1ms..20ms@10%,drop=0.1%,discard=0.1%,seed=7",
		"503=2%,partitions=a|b", "none"} {
		b.Run(spec, func(b *testing.B) {
			in := New(mustParse(b, spec))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					in.Decide("a", true)
				}
			})
		})
	}
}
