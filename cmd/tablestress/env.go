package main

import (
	"context"
	"io"
	"os"

	"golang.org/x/term"
)

// env is what commands may touch of the outside world, injected so commands
// are testable: output streams, environment variables, whether stdout is a
// terminal.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	isTerminal     bool
	stdin          io.Reader
	// hard is canceled by a second interrupt: in-flight requests stop too.
	hard context.Context
}

func newEnv(stdout, stderr *os.File) *env {
	return &env{
		stdout:     stdout,
		stderr:     stderr,
		getenv:     os.Getenv,
		isTerminal: term.IsTerminal(int(stdout.Fd())),
		stdin:      os.Stdin,
		hard:       context.Background(),
	}
}
