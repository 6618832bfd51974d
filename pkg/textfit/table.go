package textfit

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Column is a column of a Table.
type Column struct {
	Header string
	// Short is a shorter header, used when the table does not fit with the
	// full ones.
	Short string
	// Right aligns the column's cells to the right (numbers).
	Right bool
	// Drop orders the columns that give way when the table is too wide:
	// 0 never gives way, and higher values give way first. A droppable
	// column whose cells are all empty, "0", "-" or "0.00%" gives way
	// before any other.
	Drop int
	// Wrap makes the column take the width left and wrap its cells onto
	// further lines (a verdict). At most one column wraps; it should be
	// the last.
	Wrap bool
	// MinWrap is the narrowest the wrapping column is made (0: 24
	// characters, or its header's width when wider).
	MinWrap int
	// Shrink lets the column's cells be cut short (ending in "…") to fit,
	// down to minShrink characters, once every droppable column gave way.
	Shrink bool
	// Hide leaves the column out whatever the width (a column that does
	// not apply to these rows).
	Hide bool
}

// Cell is one cell: its text and colour.
type Cell struct {
	Text  string
	Color Color
}

// Table is a table of text laid out to a Style's width. Fit it with Render:
// at unlimited width every column is shown; otherwise droppable columns
// give way (Column.Drop) and the wrapping column takes what is left; when
// the columns that cannot give way are still too wide, each row becomes a
// block of "HEADER value" lines under its first cell.
type Table struct {
	Cols []Column
	// Indent starts every line.
	Indent string
	rows   [][]Cell
}

// gap is the space between columns.
const gap = 2

// minWrap is the narrowest a wrapping column is made; minShrink the
// narrowest a shrinking one is cut to.
const (
	minWrap    = 24
	softShrink = 32
	minShrink  = 16
)

// narrowest is the width a wrapping column is made at least.
func (c Column) narrowest() int {
	m := c.MinWrap
	if m == 0 {
		m = minWrap
	}
	return max(m, Len(c.Header))
}

// Row adds a row of plain cells.
func (t *Table) Row(texts ...string) {
	cells := make([]Cell, len(texts))
	for i, s := range texts {
		cells[i] = Cell{Text: s}
	}
	t.Cells(cells...)
}

// Cells adds a row of cells; missing cells are empty.
func (t *Table) Cells(cells ...Cell) {
	row := make([]Cell, len(t.Cols))
	copy(row, cells)
	t.rows = append(t.rows, row)
}

// Len is the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// Render writes the table fitted to st and returns the headers of the
// columns that gave way (nil when all are shown).
func (t *Table) Render(w io.Writer, st Style) ([]string, error) {
	p := &Printer{W: w, Style: st}
	if st.width() > 0 && t.need(t.naturalWidths(), t.visible()) > st.width() {
		t = t.shortHeaders()
	}
	nat := t.naturalWidths()
	shown := t.visible()
	width := st.width()
	if width == 0 {
		t.lines(p, nat, shown, 0)
		return nil, p.Err
	}
	// Empty columns give way first, then long keys are cut to softShrink,
	// then the other columns give way, then keys are cut to minShrink.
	order, empties := t.dropOrder()
	k := 0
	for ; t.need(nat, shown) > width && k < empties; k++ {
		shown[order[k]] = false
	}
	nat = t.shrink(nat, shown, width, softShrink)
	for ; t.need(nat, shown) > width && k < len(order); k++ {
		shown[order[k]] = false
	}
	nat = t.shrink(nat, shown, width, minShrink)
	if t.need(nat, shown) > width {
		t.blocks(p)
		return nil, p.Err
	}
	var dropped []string
	for i, c := range t.Cols {
		if !shown[i] && !c.Hide {
			dropped = append(dropped, c.Header)
		}
	}
	t.lines(p, nat, shown, width)
	return dropped, p.Err
}

// visible is which columns are not hidden.
func (t *Table) visible() []bool {
	v := make([]bool, len(t.Cols))
	for i, c := range t.Cols {
		v[i] = !c.Hide
	}
	return v
}

// shortHeaders is t with the short headers in place of the long ones.
func (t *Table) shortHeaders() *Table {
	s := *t
	s.Cols = append([]Column(nil), t.Cols...)
	for i, c := range s.Cols {
		if c.Short != "" {
			s.Cols[i].Header = c.Short
		}
	}
	return &s
}

// naturalWidths are the widths of the columns' widest cells.
func (t *Table) naturalWidths() []int {
	nat := make([]int, len(t.Cols))
	for i, c := range t.Cols {
		nat[i] = Len(c.Header)
	}
	for _, r := range t.rows {
		for i, c := range r {
			nat[i] = max(nat[i], Len(c.Text))
		}
	}
	return nat
}

// need is the width the shown columns take, the wrapping one at its
// narrowest.
func (t *Table) need(nat []int, shown []bool) int {
	n, cols := Len(t.Indent), 0
	for i, c := range t.Cols {
		if !shown[i] {
			continue
		}
		w := nat[i]
		if c.Wrap {
			w = min(w, c.narrowest())
		}
		n += w
		cols++
	}
	return n + gap*max(cols-1, 0)
}

// shrink narrows the shown Shrink columns, widest first, until the table
// fits width or they are all at floor; it returns the new widths.
func (t *Table) shrink(nat []int, shown []bool, width, floor int) []int {
	nat = append([]int(nil), nat...)
	for over := t.need(nat, shown) - width; over > 0; over = t.need(nat, shown) - width {
		widest := -1
		for i, c := range t.Cols {
			if shown[i] && c.Shrink && nat[i] > floor && (widest < 0 || nat[i] > nat[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		nat[widest] = max(nat[widest]-over, floor)
	}
	return nat
}

// dropOrder lists the droppable columns in the order they give way: empty
// ones first (it returns how many), then by Drop descending, the rightmost
// first among equals.
func (t *Table) dropOrder() ([]int, int) {
	var idx []int
	for i, c := range t.Cols {
		if c.Drop > 0 {
			idx = append(idx, i)
		}
	}
	empty := func(i int) bool {
		for _, r := range t.rows {
			switch r[i].Text {
			case "", "0", "-", "0.00%", "0%":
			default:
				return false
			}
		}
		return true
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ea, eb := empty(idx[a]), empty(idx[b])
		if ea != eb {
			return ea
		}
		if t.Cols[idx[a]].Drop != t.Cols[idx[b]].Drop {
			return t.Cols[idx[a]].Drop > t.Cols[idx[b]].Drop
		}
		return idx[a] > idx[b]
	})
	n := 0
	for n < len(idx) && empty(idx[n]) {
		n++
	}
	return idx, n
}

// lines renders the shown columns; the wrapping column takes what is left
// of width (0: its natural width).
func (t *Table) lines(p *Printer, nat []int, shown []bool, width int) {
	widths := append([]int(nil), nat...)
	wrapCol := -1
	for i, c := range t.Cols {
		if shown[i] && c.Wrap {
			wrapCol = i
		}
	}
	if wrapCol >= 0 && width > 0 {
		others := t.need(nat, shown) - min(nat[wrapCol], t.Cols[wrapCol].narrowest())
		widths[wrapCol] = max(min(nat[wrapCol], width-others), 1)
	}
	header := make([]Cell, len(t.Cols))
	for i, c := range t.Cols {
		header[i] = Cell{Text: c.Header}
	}
	for _, r := range append([][]Cell{header}, t.rows...) {
		// Each cell's lines; only the wrapping column has more than one.
		cellLines := make([][]string, len(r))
		height := 1
		for i, c := range r {
			cellLines[i] = []string{c.Text}
			if Len(c.Text) > widths[i] && t.Cols[i].Shrink {
				cellLines[i] = []string{TruncateMiddle(c.Text, widths[i])}
			}
			if i == wrapCol && width > 0 {
				cellLines[i] = wrapCell(c.Text, widths[i])
			}
			height = max(height, len(cellLines[i]))
		}
		for k := 0; k < height; k++ {
			var b strings.Builder
			b.WriteString(t.Indent)
			last := lastShown(shown)
			for i, c := range t.Cols {
				if !shown[i] {
					continue
				}
				text := ""
				if k < len(cellLines[i]) {
					text = cellLines[i][k]
				}
				pad := strings.Repeat(" ", max(widths[i]-Len(text), 0))
				text = p.Style.Paint(text, r[i].Color)
				switch {
				case c.Right:
					b.WriteString(pad + text)
				case i == last:
					b.WriteString(text)
				default:
					b.WriteString(text + pad)
				}
				if i != last {
					b.WriteString(strings.Repeat(" ", gap))
				}
			}
			fmt.Fprintln(p, strings.TrimRight(b.String(), " "))
		}
	}
}

func lastShown(shown []bool) int {
	for i := len(shown) - 1; i >= 0; i-- {
		if shown[i] {
			return i
		}
	}
	return -1
}
