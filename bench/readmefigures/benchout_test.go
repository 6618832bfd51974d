package main

import (
	"strings"
	"testing"
)

func TestParseResults(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: github.com/tablestress/tablestress/pkg/emulator
cpu: Oxide Virtual Turin-like Processor
BenchmarkPointReadIn1M-2   	    3000	     15234 ns/op	    4272 B/op	      55 allocs/op
BenchmarkPartitionMemory-2 	       1	2074837193 ns/op	       697.1 bytes/partition	       450.2 hist-bytes/partition
BenchmarkSplit-2   	gc 20 @8.232s 2%: 0.30+99+0.008 ms clock
     3000	     83154 ns/op	   13722 B/op	     103 allocs/op
BenchmarkNoProcs 	     100	      12 ns/op
PASS
server-cpu.sh: logs and each run's figures (runs.jsonl) in /tmp/x
BenchmarkServerCPU/point-read	39899	51080 ns/op	41700 ns/floor-op	480000 ns/azurite-op	1.225 ×/floor
ok  	github.com/tablestress/tablestress/pkg/emulator	18.370s
`
	res := ParseResults(out)
	want := []struct {
		name   string
		metric string
		v      float64
	}{
		{"BenchmarkPointReadIn1M", "allocs/op", 55},
		{"BenchmarkPartitionMemory", "bytes/partition", 697.1},
		{"BenchmarkSplit", "ns/op", 83154},                  // the name and the result on two lines
		{"BenchmarkNoProcs", "ns/op", 12},                   // GOMAXPROCS=1 has no suffix
		{"BenchmarkServerCPU/point-read", "×/floor", 1.225}, // bench/server-cpu.sh's
	}
	if len(res) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(res), len(want), res)
	}
	for k, w := range want {
		if res[k].Name != w.name || res[k].Metrics[w.metric] != w.v {
			t.Errorf("result %d = %+v, want %s with %g %s", k, res[k], w.name, w.v, w.metric)
		}
	}
}

func TestMeasure(t *testing.T) {
	res := ParseResults("BenchmarkA-2 10 30 ns/op\nBenchmarkA-2 10 10 ns/op\nBenchmarkA-2 10 20 ns/op\n")
	if v, err := Measure(res, "ns/op"); err != nil || v != 20 {
		t.Errorf("the median of 30, 10, 20 = %g, %v; want 20", v, err)
	}
	res = ParseResults("BenchmarkA-2 10 30 ns/op\nBenchmarkA-2 10 10 ns/op\n")
	if v, err := Measure(res, "ns/op"); err != nil || v != 20 {
		t.Errorf("the median of 30, 10 = %g, %v; want 20", v, err)
	}
	tests := []struct{ out, metric, says string }{
		{"PASS\n", "ns/op", "printed no benchmark result"},
		{"BenchmarkA-2 10 30 ns/op\nBenchmarkB-2 10 30 ns/op\n", "ns/op", "ran BenchmarkA and BenchmarkB"},
		{"BenchmarkA-2 10 30 ns/op 5 B/op\n", "bytes/entity", "printed no bytes/entity (it printed B/op, ns/op)"},
		{"BenchmarkA-2 10 30 ns/op 5 B/op\nBenchmarkA-2 10 30 ns/op\n", "B/op", "printed B/op in 1 of its 2 results"},
	}
	for _, tt := range tests {
		_, err := Measure(ParseResults(tt.out), tt.metric)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Measure(%q, %s) = %v, want an error saying %q", tt.out, tt.metric, err, tt.says)
		}
	}
}
