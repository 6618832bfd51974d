package textfit

import (
	"fmt"
	"strings"
)

// wrapCell wraps s into lines of at most width characters at spaces,
// breaking words where they must.
func wrapCell(s string, width int) []string {
	var out []string
	for _, word := range strings.Fields(s) {
		r := []rune(word)
		for len(r) > 0 {
			n := len(out)
			if n > 0 && Len(out[n-1])+1+len(r) <= width {
				out[n-1] += " " + string(r)
				r = nil
				continue
			}
			k := min(len(r), width)
			out = append(out, string(r[:k]))
			r = r[k:]
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// Dropped is the note under a table some columns of which gave way, or ""
// when none did.
func Dropped(headers []string) string {
	if len(headers) == 0 {
		return ""
	}
	return fmt.Sprintf("(left out to fit: %s; --wide shows them)", strings.Join(headers, ", "))
}

// blocks renders each row as its first cell, then one indented "HEADER
// value" line per other non-empty cell, wrapped; a blank line separates
// the rows.
func (t *Table) blocks(p *Printer) {
	label := 0
	for _, c := range t.Cols[1:] {
		if !c.Hide {
			label = max(label, Len(c.Header))
		}
	}
	for k, r := range t.rows {
		if k > 0 {
			fmt.Fprintln(p)
		}
		for _, l := range Wrap(t.Indent+r[0].Text, p.Style.width(), t.Indent+"  ") {
			fmt.Fprintln(p, p.Style.Paint(l, r[0].Color))
		}
		for i, c := range t.Cols[1:] {
			cell := r[i+1]
			if cell.Text == "" || c.Hide {
				continue
			}
			prefix := t.Indent + "  " + c.Header + strings.Repeat(" ", label-Len(c.Header)+gap)
			for k, l := range Wrap(prefix+cell.Text, p.Style.width(), strings.Repeat(" ", Len(prefix))) {
				if k == 0 {
					l = prefix + p.Style.Paint(strings.TrimPrefix(l, prefix), cell.Color)
				} else {
					l = p.Style.Paint(l, cell.Color)
				}
				fmt.Fprintln(p, l)
			}
		}
	}
}
