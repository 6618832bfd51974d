package manual

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"A first look", "a-first-look"},
		{"The project's own tests: `make test`", "the-projects-own-tests-make-test"},
		{"advise --json", "advise---json"},
		{"find: a scheme's limit", "find-a-schemes-limit"},
		{"The embedded Table service and `tablestress emulator`", "the-embedded-table-service-and-tablestress-emulator"},
		{"See [the list](x.md#y) now", "see-the-list-now"},
		{"HTTPS and Microsoft Entra ID", "https-and-microsoft-entra-id"},
		{"snake_case and 1.5×", "snake_case-and-15"},
	} {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

const sample = "# Title\n\nText with `a span` and [a link](other.md#part).\n\n" +
	"1. A step:\n\n   ```console\n   $ tablestress keys x.yaml\n     output\n   ```\n\n" +
	"## Part\n\n`two\nlines` and ``a ` tick``\n\n```\n# not a heading\n[not](a-link.md)\n```\n\n## Part\n"

func TestParse(t *testing.T) {
	p := Parse("docs/sample.md", sample)
	blocks := p.Blocks()
	if len(blocks) != 2 {
		t.Fatalf("blocks %+v, want 2", blocks)
	}
	if b := blocks[0]; b.Line != 7 || b.Lang != "console" || !reflect.DeepEqual(b.Lines, []string{"$ tablestress keys x.yaml", "  output"}) {
		t.Errorf("first block %+v", b)
	}
	if blocks[1].Lang != "" || len(blocks[1].Lines) != 2 {
		t.Errorf("second block %+v", blocks[1])
	}
	var spans []string
	for _, s := range p.Spans() {
		spans = append(spans, s.Text)
	}
	if want := []string{"a span", "two lines", "a ` tick"}; !reflect.DeepEqual(spans, want) {
		t.Errorf("spans %q, want %q", spans, want)
	}
	var anchors []string
	for _, h := range p.Headings() {
		anchors = append(anchors, h.Anchor)
	}
	if want := []string{"title", "part", "part-1"}; !reflect.DeepEqual(anchors, want) {
		t.Errorf("anchors %q, want %q", anchors, want)
	}
	links := p.Links()
	if len(links) != 1 || links[0].Target != "other.md#part" || links[0].Line != 3 {
		t.Errorf("links %+v, want other.md#part on line 3", links)
	}
	sec, line, ok := p.Section("part")
	if !ok || line != 12 || sec.Offset != 11 || len(sec.Spans()) != 2 || sec.Spans()[0].Line != 14 {
		t.Errorf("Section(part) = %v line %d %v, spans %+v", ok, line, sec.Offset, sec.Spans())
	}
}

// CheckLinks finds a missing file, a missing anchor in another page and
// in its own, and passes good ones.
func TestCheckLinks(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# Top\n\n[ok](docs/a.md#one) [bad](docs/a.md#two) [gone](docs/none.md) [self](#top) [web](https://example.com/x#y)\n"), 0o644)
	os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# One\n\n[up](../README.md) [dir](../docs) [selfbad](#nope) [out](../../x.md)\n"), 0o644)
	pages, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range CheckLinks(root, pages) {
		got = append(got, e.Error())
	}
	want := []string{"README.md:3: link docs/a.md#two: docs/a.md has no heading #two", "README.md:3: link docs/none.md: no such file",
		"docs/a.md:3: link #nope: docs/a.md has no heading #nope", "docs/a.md:3: link ../../x.md: leaves the repository"}
	if len(got) != len(want) {
		t.Fatalf("errors %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d = %q, want it to start %q", i, got[i], want[i])
		}
	}
}

// Every relative link of the repository's manual resolves, anchors
// included.
func TestRepositoryLinks(t *testing.T) {
	pages, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 2 {
		t.Fatalf("the manual has %d pages", len(pages))
	}
	for _, e := range CheckLinks("../..", pages) {
		t.Error(e)
	}
}
