package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"regexp"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tablestress/tablestress/pkg/promexport"
)

// serveMetrics serves Prometheus metrics at http://addr/metrics, and Go's
// runtime profiles at http://addr/debug/pprof/ (to see where a long run's
// CPU and memory go), until stop. The command line is not served: it may
// hold a connection string.
func serveMetrics(e *env, addr string) (*promexport.Exporter, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, usageError("--metrics-addr: %v", err)
	}
	exp := promexport.New()
	reg := prometheus.NewRegistry()
	// Beside the default Go metrics, the live heap as of the last
	// collection (go_gc_heap_live_bytes): a long run's memory without the
	// garbage that go_memstats_* count between collections.
	gc := collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)}))
	reg.MustRegister(exp, gc, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(e.stderr, "tablestress: metrics server:", err)
		}
	}()
	fmt.Fprintf(e.stderr, "tablestress: Prometheus metrics at http://%s/metrics\n", ln.Addr())
	return exp, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}
