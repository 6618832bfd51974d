package main

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/session"
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
	transportInProcess = session.InProcess
	transportSocket    = session.Socket
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
