package main

import (
	"errors"
	"fmt"
	"strings"
)

// Exit codes, the command-line contract.
const (
	exitOK      = 0
	exitFailure = 1 // runtime failure: the target failed, the run was interrupted
	exitUsage   = 2 // bad flags, invalid scenario
	// exitExceptions is advise's "recommended with exceptions": a design
	// for all but the questions no design serves.
	exitExceptions = 3
	exitThreshold  = 99 // the run completed but a threshold failed
)

// exitError carries an exit code through cobra's error return.
type exitError struct {
	code   int
	err    error
	silent bool // the message was already printed
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as a usage or input problem (exit code 2).
func usageError(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// withCode gives err an exit code.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// codeOf returns the exit code for an error returned by a command: its own
// code, or 1.
func codeOf(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitFailure
}

// silentExit returns an exit code whose explanation is already on screen.
func silentExit(code int) error {
	return &exitError{code: code, err: fmt.Errorf("exit %d", code), silent: true}
}

// isCobraUsage recognises cobra's own argument and command errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
