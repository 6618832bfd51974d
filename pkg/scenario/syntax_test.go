package scenario

import (
	"strings"
	"testing"
)

// A YAML syntax error is reported at the line and column of its problem:
// the bracket or quote left open, the line indented wrongly, the tab,
// never the line before (yaml.v3 counts a parser's lines from 0).
func TestSyntaxErrorsAtTheirProblem(t *testing.T) {
	for _, c := range []struct{ src, at string }{
		{"a: 1\nb:\n  c: {x: 1, y: 2\n  d: 3\n", "3:6"}, // the { left open
		{"{a: 1\n", "1:1"},                                    // on the first line
		{"a: [1, 2\nb: 3\n", "1:4"},                           // the [ left open
		{"a:\n  b: 1\n c: 2\n", "3:2"},                        // indented like neither key
		{"a:\n\tb: 1\n", "2:1"},                               // a tab
		{"a: \"x\nb: 1\nc: 2\n", "1:4"},                       // the quote left open, whatever YAML stumbles on
		{"name: 'it''s\nseed: 1\n", "1:7"},                    // a quote written twice is not its end
		{sub("    - {op: update}", "    op: update"), "34:5"}, // the line that is not an item of its list
	} {
		_, errs := Parse("s.yaml", []byte(c.src))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "s.yaml:"+c.at+": YAML syntax: ") {
			t.Errorf("%q: %v, want one YAML syntax error at %s", c.src, errs, c.at)
		}
	}
}
