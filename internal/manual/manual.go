// Package manual reads tablestress's manual, README.md and the pages of
// docs/, as the tests that hold it to the code need it: its fenced code
// blocks, its inline code spans, its sections and its links.
package manual

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Page is one Markdown file of the manual.
type Page struct {
	Path  string   // relative to the repository's top directory, with slashes
	Lines []string // without line ends
	// Offset is the number of the file's lines before Lines[0]: 0 for a
	// whole page, more for a Section.
	Offset int
}

// Load reads the manual under root: README.md, then docs/*.md by name.
func Load(root string) ([]Page, error) {
	paths, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	paths = append([]string{filepath.Join(root, "README.md")}, paths...)
	var pages []Page
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		pages = append(pages, Parse(filepath.ToSlash(rel), string(data)))
	}
	return pages, nil
}

// Parse makes a Page of a file's text.
func Parse(path, text string) Page {
	return Page{Path: path, Lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n")}
}

// Block is a fenced code block.
type Block struct {
	Page  string
	Line  int    // 1-based line of the opening fence
	Lang  string // the fence's info string, "" when none
	Lines []string
}

// Where names the block's place, PAGE:LINE.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.Page, b.Line) }

// fence returns the fence of a line that opens or closes a block
// (``` or ~~~, indented by up to the list indentation used here) and the
// rest of the line.
func fence(line string) (string, string, bool) {
	t := strings.TrimLeft(line, " ")
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f, strings.TrimSpace(strings.TrimLeft(t, f[:1])), true
		}
	}
	return "", "", false
}

// Blocks returns the page's fenced code blocks. The lines of a block
// inside a list item lose the item's indentation.
func (p Page) Blocks() []Block {
	var out []Block
	var cur *Block
	indent := 0
	for i, l := range p.Lines {
		_, info, ok := fence(l)
		switch {
		case cur == nil && ok:
			indent = len(l) - len(strings.TrimLeft(l, " "))
			cur = &Block{Page: p.Path, Line: p.Offset + i + 1, Lang: info}
		case cur != nil && ok && info == "":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			n := min(indent, len(l)-len(strings.TrimLeft(l, " ")))
			cur.Lines = append(cur.Lines, l[n:])
		}
	}
	return out
}

// inBlock reports, for each line of the page, whether it is inside a
// fenced block (fences included).
func (p Page) inBlock() []bool {
	in := make([]bool, len(p.Lines))
	open := false
	for i, l := range p.Lines {
		_, info, ok := fence(l)
		switch {
		case !open && ok:
			open = true
			in[i] = true
		case open && ok && info == "":
			open = false
			in[i] = true
		default:
			in[i] = open
		}
	}
	return in
}

// Span is an inline code span of the page's text (outside blocks).
type Span struct {
	Page string
	Line int // 1-based
	Text string
}

// Spans returns the page's inline code spans, in order. A span may run
// over a line end (Markdown joins the lines with a space).
func (p Page) Spans() []Span {
	var out []Span
	in := p.inBlock()
	for i := 0; i < len(p.Lines); i++ {
		if in[i] {
			continue
		}
		para, first := p.Lines[i], i
		// Join the paragraph's lines so that spans across line ends are whole.
		for i+1 < len(p.Lines) && !in[i+1] && strings.TrimSpace(p.Lines[i+1]) != "" && strings.TrimSpace(para) != "" {
			i++
			para += "\n" + p.Lines[i]
		}
		out = append(out, spansOf(p.Path, p.Offset+first, para)...)
	}
	return out
}

// spansOf finds the code spans of a paragraph starting at line first
// (0-based).
func spansOf(page string, first int, para string) []Span {
	var out []Span
	for k := 0; k < len(para); {
		if para[k] != '`' {
			k++
			continue
		}
		n := 0
		for k+n < len(para) && para[k+n] == '`' {
			n++
		}
		ticks := para[k : k+n]
		end := strings.Index(para[k+n:], ticks)
		if end < 0 {
			k += n
			continue
		}
		text := strings.ReplaceAll(para[k+n:k+n+end], "\n", " ")
		if n > 1 {
			text = strings.TrimSpace(text)
		}
		out = append(out, Span{Page: page, Line: first + 1 + strings.Count(para[:k], "\n"), Text: text})
		k += n + end + n
	}
	return out
}

// Text returns the page's text outside fenced blocks.
func (p Page) Text() string {
	in := p.inBlock()
	var b strings.Builder
	for i, l := range p.Lines {
		if !in[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
