package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// --metrics-addr serves live figures while the run goes on.
func TestPrometheusEndpointDuringRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	done := make(chan int, 1)
	go func() {
		code, _, _ := runCLI(t, "run", "../../scenarios/quickstart.yaml", "--duration", "6s", "--warmup", "0s",
			"--entities", "1000", "--rate", "200", "--quiet", "--metrics-addr", addr)
		done <- code
	}()
	var body string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), `tablestress_requests_total{op="point_read"`) {
			body = string(b)
			break
		}
	}
	if body == "" {
		t.Fatal("no tablestress_requests_total series was served during the run")
	}
	for _, want := range []string{
		`tablestress_run_info{scenario="quickstart",scheme="device-date",target_kind="embedded"} 1`,
		`tablestress_operation_latency_seconds_bucket{op="point_read",scenario="quickstart",scheme="device-date",le="0.01"}`,
		`tablestress_partition_entities_total{partition="dev-`,
		`status="200"`,
		"\ngo_gc_heap_live_bytes ", // the live heap, for bench/soak.sh
		"\ngo_goroutines ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		t.Fatalf("heap profile: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "heap profile:") {
		t.Errorf("GET /debug/pprof/heap?debug=1: %s, %.80q", resp.Status, b)
	}
	// The command line may hold a connection string: never served.
	if resp, err := http.Get("http://" + addr + "/debug/pprof/cmdline"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("GET /debug/pprof/cmdline answered 200: the command line may hold a secret")
		}
	}
	if code := <-done; code != exitOK && code != exitThreshold {
		t.Errorf("run exited %d", code)
	}
}
