package manual

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Link is a Markdown link [text](target) of a page's text.
type Link struct {
	Page   string
	Line   int // 1-based
	Target string
}

// linkRE matches an inline link or image; the target ends at the first
// space (a title may follow) or parenthesis.
var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// codeSpanRE matches an inline code span, whose brackets are no link.
var codeSpanRE = regexp.MustCompile("`+[^`]*`+")

// Links returns the links of the page's text, outside fenced blocks and
// code spans.
func (p Page) Links() []Link {
	in := p.inBlock()
	var out []Link
	for i, l := range p.Lines {
		if in[i] {
			continue
		}
		l = codeSpanRE.ReplaceAllString(l, "")
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			out = append(out, Link{Page: p.Path, Line: p.Offset + i + 1, Target: m[1]})
		}
	}
	return out
}

// Relative reports whether a link's target is in the repository: not a
// URL with a scheme, nor a mail address.
func (l Link) Relative() bool {
	return !strings.Contains(l.Target, "://") && !strings.HasPrefix(l.Target, "mailto:")
}

// CheckLinks checks every relative link of the pages (read from root):
// the file or directory it names exists, and its anchor, when it has one,
// is a heading of the Markdown page it names (of its own page for a bare
// #anchor). It returns one error per broken link, naming its place.
func CheckLinks(root string, pages []Page) []error {
	byPath := map[string]Page{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	var errs []error
	for _, p := range pages {
		for _, l := range p.Links() {
			if !l.Relative() {
				continue
			}
			if err := checkLink(root, byPath, l); err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: link %s: %w", l.Page, l.Line, l.Target, err))
			}
		}
	}
	return errs
}

func checkLink(root string, byPath map[string]Page, l Link) error {
	file, anchor, _ := strings.Cut(l.Target, "#")
	target := l.Page
	if file != "" {
		target = path.Clean(path.Join(path.Dir(l.Page), file))
		if strings.HasPrefix(target, "../") {
			return fmt.Errorf("leaves the repository")
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
			return fmt.Errorf("no such file or directory %s", target)
		}
	}
	if anchor == "" {
		return nil
	}
	page, ok := byPath[target]
	if !ok {
		if !strings.HasSuffix(target, ".md") {
			return fmt.Errorf("an anchor into %s, which is not a Markdown page", target)
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
		if err != nil {
			return err
		}
		page = Parse(target, string(data))
	}
	var have []string
	for _, h := range page.Headings() {
		if h.Anchor == anchor {
			return nil
		}
		have = append(have, h.Anchor)
	}
	return fmt.Errorf("%s has no heading #%s (its anchors: %s)", target, anchor, strings.Join(have, ", "))
}
