package textfit

import (
	"fmt"
	"io"
	"strings"
)

// Wrap breaks s into lines of at most width visible characters at spaces;
// the lines after the first start with indent. A word longer than a line is
// cut. Width 0 (unlimited) returns s as one line. s must hold no colour
// sequences (paint the lines afterwards).
func Wrap(s string, width int, indent string) []string {
	if width <= 0 || Len(s) <= width {
		return []string{s}
	}
	width = max(width, MinWidth)
	ind := []rune(indent)
	if len(ind) > width/2 {
		ind = ind[:width/2]
	}
	rest := strings.TrimLeft(s, " ")
	line := []rune(s[:len(s)-len(rest)])
	start := len(line) // where the current line's words begin
	var lines []string
	emit := func() {
		lines = append(lines, strings.TrimRight(string(line), " "))
		line = append([]rune(nil), ind...)
		start = len(line)
	}
	for i, tok := range strings.Split(rest, " ") {
		w := []rune(tok)
		if i > 0 && len(line) > start {
			if len(line)+1+len(w) > width {
				emit()
			} else {
				line = append(line, ' ')
			}
		}
		for len(line)+len(w) > width { // a word longer than what is left of the line
			room := width - len(line)
			line = append(line, w[:room]...)
			w = w[room:]
			emit()
		}
		line = append(line, w...)
	}
	if len(line) > start || len(lines) == 0 {
		lines = append(lines, strings.TrimRight(string(line), " "))
	}
	return lines
}

// Printer writes lines fitted to a Style, remembering the first error.
type Printer struct {
	W     io.Writer
	Style Style
	Err   error
}

// Write implements io.Writer.
func (p *Printer) Write(b []byte) (int, error) {
	if p.Err != nil {
		return 0, p.Err
	}
	n, err := p.W.Write(b)
	p.Err = err
	return n, err
}

// Printf writes formatted text as it is.
func (p *Printer) Printf(format string, a ...any) { fmt.Fprintf(p, format, a...) }

// Line prints a formatted line, wrapped to the width with continuation
// lines indented by two spaces more than the line's own indentation.
func (p *Printer) Line(format string, a ...any) {
	p.Wrapped(fmt.Sprintf(format, a...), "")
}

// Wrapped prints s wrapped to the width; continuation lines start with
// extra plus s's own leading spaces and two more.
func (p *Printer) Wrapped(s string, extra string) {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	indent := strings.Repeat(" ", lead+2) + extra
	for _, l := range Wrap(s, p.Style.width(), indent) {
		fmt.Fprintln(p, l)
	}
}

// Painted prints s wrapped, the whole of it in colour c.
func (p *Printer) Painted(c Color, format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	lead := len(s) - len(strings.TrimLeft(s, " "))
	for _, l := range Wrap(s, p.Style.width(), strings.Repeat(" ", lead+2)) {
		fmt.Fprintln(p, p.Style.Paint(l, c))
	}
}

// Blank prints an empty line.
func (p *Printer) Blank() { fmt.Fprintln(p) }
