package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/scenario"
)

func newValidateCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files and list every problem as FILE:LINE:COL: message",
		Long: `validate decodes each scenario strictly (unknown fields are errors), checks
every value and combination, compiles every key scheme and renders a sample of
its keys to prove none is invalid (over 1 KiB, or containing / \ # ? ' or
control characters). It exits 0 when all files are valid and 2 otherwise,
after listing every problem of every file. Warnings (like RowKey collisions)
are printed but do not fail validation.`,
		Example: `  tablestress validate scenarios/*.yaml
  tablestress validate my.yaml && tablestress run my.yaml`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("validate needs at least one scenario file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := 0
			for _, f := range args {
				s, _, errs := checkScenario(f)
				for _, err := range errs {
					fmt.Fprintln(e.stderr, err)
				}
				if len(errs) > 0 {
					bad++
					continue
				}
				for _, w := range s.Warnings() {
					fmt.Fprintln(e.stderr, "warning:", w)
				}
				fmt.Fprintf(e.stdout, "%s: ok (%d scheme(s), %d operation(s) in the mix)\n", f, len(s.Schemes), len(s.Workload.Mix))
			}
			if bad > 0 {
				fmt.Fprintf(e.stderr, "%d of %d file(s) invalid\n", bad, len(args))
				return silentExit(exitUsage)
			}
			return nil
		},
	}
}

// checkScenario reads and checks a scenario file: the file as the scenario
// package reads it, and its embedded section. It returns every problem.
func checkScenario(path string) (*scenario.Scenario, []byte, []error) {
	source, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, []error{fileError(path, err)}
	}
	s, errs := scenario.Parse(path, source)
	if s != nil {
		errs = append(errs, embeddedErrors(s)...)
	}
	if len(errs) > 0 {
		scenario.SortErrors(errs)
		return nil, nil, errs
	}
	return s, source, nil
}

// fileError says why a file could not be read, the cause first: "FILE: file
// not found".
func fileError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: file not found", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot read it: %w", path, err)
}

// loadScenario loads a scenario for the commands that run one, printing
// every problem and warning.
func loadScenario(e *env, path string) (*scenario.Scenario, []byte, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, usageError("%v", fileError(path, err))
	}
	s, source, errs := checkScenario(path)
	if len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintln(e.stderr, err)
		}
		return nil, nil, silentExit(exitUsage)
	}
	for _, w := range s.Warnings() {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	return s, source, nil
}
