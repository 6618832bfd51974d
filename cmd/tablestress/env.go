package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/session"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// env is what commands may touch of the outside world, injected so commands
// are testable: output streams, environment variables, whether stdout and
// stderr are terminals and how wide.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	isTerminal     bool // stdout
	errTerminal    bool // stderr
	// termWidth returns the width of the terminal on fd 1 (stdout) or 2
	// (stderr), 0 when it is not one.
	termWidth func(fd int) int
	stdin     io.Reader
	// hard is canceled by a second interrupt: in-flight requests stop too.
	hard context.Context
	// wide is --wide: every column, no wrapping.
	wide bool
	// embed starts the embedded Table service for a session; nil is
	// session.StartEmbedded (in process, or a free loopback port, as
	// --embedded-transport says). Tests serve it over in-memory
	// connections on a fake clock.
	embed func(emulator.Config) (*session.Embedded, error)
}

func newEnv(stdout, stderr *os.File) *env {
	return &env{
		stdout:      stdout,
		stderr:      stderr,
		getenv:      os.Getenv,
		isTerminal:  term.IsTerminal(int(stdout.Fd())),
		errTerminal: term.IsTerminal(int(stderr.Fd())),
		termWidth: func(fd int) int {
			if w, _, err := term.GetSize(fd); err == nil {
				return w
			}
			return 0
		},
		stdin: os.Stdin,
		hard:  context.Background(),
	}
}

// columns is the width to fit output to: COLUMNS when set, else the width
// of the terminal the stream (fd 1 or 2) is, else 0 (unlimited: a file or
// a pipe gets every column).
func (e *env) columns(fd int, terminal bool) int {
	if n, err := strconv.Atoi(strings.TrimSpace(e.getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if terminal && e.termWidth != nil {
		return e.termWidth(fd)
	}
	return 0
}

// colour reports whether a stream shows colour: a terminal, without
// NO_COLOR (https://no-color.org) and not TERM=dumb.
func (e *env) colour(terminal bool) bool {
	return terminal && e.getenv("NO_COLOR") == "" && e.getenv("TERM") != "dumb"
}

// style is how stdout's text is laid out: --wide is unlimited.
func (e *env) style() textfit.Style {
	st := textfit.Style{Color: e.colour(e.isTerminal)}
	if !e.wide {
		st.Width = e.columns(1, e.isTerminal)
	}
	return st
}

// errStyle is how stderr's lines are laid out (the live status line and
// messages).
func (e *env) errStyle() textfit.Style {
	st := textfit.Style{Color: e.colour(e.errTerminal)}
	if !e.wide {
		st.Width = e.columns(2, e.errTerminal)
	}
	return st
}
