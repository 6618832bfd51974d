package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// embeddedConfig builds the embedded service's configuration from the
// flags, or the scenario's embedded section.
func embeddedConfig(s *scenario.Scenario, f *runFlags) (emulator.Config, error) {
	ms, fs := s.Embedded.Model, s.Embedded.Faults
	if f.model != "" {
		ms = f.model
	}
	if f.faults != "" {
		fs = f.faults
	}
	mc, fc, err := parseServiceFlags(ms, fs)
	return emulator.Config{Model: mc, Faults: fc}, err
}

// parseServiceFlags reads the embedded service's --model and --faults
// specs (run's, compare's and the emulator command's), its errors said of
// the flag.
func parseServiceFlags(modelSpec, faultSpec string) (model.Config, faults.Config, error) {
	mc, err := model.Parse(modelSpec)
	if err != nil {
		return mc, faults.Config{}, usageError("--model: %v", err)
	}
	fc, err := faults.Parse(faultSpec)
	if err != nil {
		return mc, fc, usageError("--faults: %v", err)
	}
	return mc, fc, nil
}

// embeddedErrors checks the scenario's embedded section (the model and
// fault specs, which the embedded service parses), located in the file.
func embeddedErrors(s *scenario.Scenario) []error {
	var errs []error
	if s.Embedded.Model != "" {
		if _, err := model.Parse(s.Embedded.Model); err != nil {
			errs = append(errs, s.ErrorAt("embedded.model", err))
		}
	}
	if s.Embedded.Faults != "" {
		if _, err := faults.Parse(s.Embedded.Faults); err != nil {
			errs = append(errs, s.ErrorAt("embedded.faults", err))
		}
	}
	for i, m := range s.Embedded.Models {
		if _, err := model.Parse(m); err != nil {
			errs = append(errs, s.ErrorAt(fmt.Sprintf("embedded.models[%d]", i), err))
		}
	}
	return errs
}

// The values of --embedded-transport.
const (
	transportInProcess = "in-process"
	transportSocket    = "socket"
)

// checkTransport checks --embedded-transport, which applies to the
// embedded target only.
func checkTransport(f *runFlags, tg table.Target, changed bool) error {
	switch f.embeddedTransport {
	case transportInProcess, transportSocket:
	default:
		return usageError("--embedded-transport: %q is neither %s nor %s", f.embeddedTransport, transportInProcess, transportSocket)
	}
	if changed && tg.Kind != table.KindEmbedded {
		return usageError("--embedded-transport chooses how the embedded service is reached; the target is %s", tg.Kind)
	}
	return nil
}

// embeddedService is the embedded Table service a session runs on: the
// service itself, the connection string that reaches it, how to connect
// (dial: nil over the network; rt: the transport of a service in process,
// nil over a connection) and how to stop it.
type embeddedService struct {
	server *emulator.Server
	conn   string
	dial   func(ctx context.Context, network, addr string) (net.Conn, error)
	rt     http.RoundTripper
	stop   func()
}

// startEmbedded starts the embedded Table service for a run: in process
// (transport in-process: the SDK reaches it with no socket), or on a free
// loopback port (socket).
func startEmbedded(cfg emulator.Config, transport string) (*embeddedService, error) {
	if transport == transportInProcess {
		p, err := emulator.StartInProcess(cfg)
		if err != nil {
			return nil, withCode(exitFailure, err)
		}
		return &embeddedService{server: p.Server, conn: p.ConnectionString(), rt: p, stop: stopper(p.Close)}, nil
	}
	in, err := emulator.Start("127.0.0.1:0", cfg)
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	return &embeddedService{server: in.Server, conn: in.ConnectionString(), stop: stopper(in.Close)}, nil
}

// stopper stops a service with close, waiting at most 5 s for its
// requests in flight.
func stopper(close func(context.Context) error) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = close(ctx)
	}
}
