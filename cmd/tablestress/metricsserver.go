package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tablestress/tablestress/pkg/promexport"
)

// serveMetrics serves Prometheus metrics at http://addr/metrics until stop.
func serveMetrics(e *env, addr string) (*promexport.Exporter, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, usageError("--metrics-addr: %v", err)
	}
	exp := promexport.New()
	reg := prometheus.NewRegistry()
	reg.MustRegister(exp, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
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
