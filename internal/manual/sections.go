package manual

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Heading is an ATX heading (# ...) of a page.
type Heading struct {
	Line  int // 1-based
	Level int
	Text  string
	// Anchor is the fragment GitHub gives the heading: Slug of its text,
	// with -1, -2, ... after the second and later of the same slug.
	Anchor string
}

var headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)

// Headings returns the page's headings outside fenced blocks.
func (p Page) Headings() []Heading {
	in := p.inBlock()
	seen := map[string]int{}
	var out []Heading
	for i, l := range p.Lines {
		m := headingRE.FindStringSubmatch(l)
		if in[i] || m == nil {
			continue
		}
		slug := Slug(m[2])
		anchor := slug
		if n := seen[slug]; n > 0 {
			anchor = fmt.Sprintf("%s-%d", slug, n)
		}
		seen[slug]++
		out = append(out, Heading{Line: p.Offset + i + 1, Level: len(m[1]), Text: m[2], Anchor: anchor})
	}
	return out
}

var linkTextRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// Slug is GitHub's anchor of a heading's text: link targets and code
// marks dropped, lower case, every character but letters, digits, spaces,
// hyphens and underscores removed, and each space a hyphen.
func Slug(text string) string {
	text = linkTextRE.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Section returns the section whose heading's anchor is anchor, from the
// heading to the next heading of its level or above (a Page whose Offset
// keeps the file's line numbers), and the 1-based line of the heading;
// false when the page has none.
func (p Page) Section(anchor string) (Page, int, bool) {
	hs := p.Headings()
	for k, h := range hs {
		if h.Anchor != anchor {
			continue
		}
		end := p.Offset + len(p.Lines)
		for _, n := range hs[k+1:] {
			if n.Level <= h.Level {
				end = n.Line - 1
				break
			}
		}
		return Page{Path: p.Path, Lines: p.Lines[h.Line-1-p.Offset : end-p.Offset], Offset: h.Line - 1}, h.Line, true
	}
	return Page{}, 0, false
}
