// Package scenario reads tablestress scenario files: YAML decoded strictly
// into typed structs, defaults filled in one place (applyDefaults), and every
// problem reported at once as FILE:LINE:COL: field: message.
package scenario

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every scenario error.
var ErrInvalid = errors.New("scenario: invalid")

// Error is one problem in a scenario file, located at the value (or key) it
// is about.
type Error struct {
	File      string
	Line, Col int
	Path      string // field path, like workload.mix[2].rows
	Msg       string
}

func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "<scenario>"
	}
	if e.Path == "" {
		return fmt.Sprintf("%s:%d:%d: %s", file, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", file, e.Line, e.Col, e.Path, e.Msg)
}

// Unwrap makes every Error match ErrInvalid.
func (e *Error) Unwrap() error { return ErrInvalid }

// Fields is the population's ordered field list (a YAML mapping in the file).
type Fields []Field

// errAt records a problem about path, located where path's value is, or at
// the nearest enclosing field that the file gives.
func (s *Scenario) errAt(path, format string, a ...any) error {
	p := s.pos.lookup(path)
	return &Error{File: s.File, Line: p.line, Col: p.col, Path: path, Msg: fmt.Sprintf(format, a...)}
}

// lookup finds the position of path or of its closest ancestor.
func (ps positions) lookup(path string) pos {
	for p := path; ; {
		if at, ok := ps[p]; ok {
			return at
		}
		cut := max(lastIndexAny(p, ".["), 0)
		if cut == 0 {
			if at, ok := ps[""]; ok {
				return at
			}
			return pos{1, 1}
		}
		p = p[:cut]
	}
}

func lastIndexAny(s, chars string) int {
	for i := len(s) - 1; i >= 0; i-- {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return i
			}
		}
	}
	return -1
}

// given reports whether the file sets path (as opposed to a default).
func (s *Scenario) given(path string) bool { _, ok := s.pos[path]; return ok }

// Given reports whether the file gave the value at path (like
// "workload.workers") rather than leaving it to its default.
func (s *Scenario) Given(path string) bool { return s.given(path) }
