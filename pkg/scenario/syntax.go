package scenario

import (
	"regexp"
	"strconv"
	"strings"
)

// yaml.v3 reports a parser's problem (as opposed to a scanner's) at the
// 0-based line of what it was parsing, so one line early ("line 43" for a
// { opened on line 44 and never closed); its scanner's problems it reports
// at their 1-based line. parserProblems are the parser's messages, and
// syntaxHints say what each problem usually means and how to fix it.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true, "did not find expected '-' indicator": true,
	"did not find expected <document start>": true, "did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true, "found duplicate %YAML directive": true,
	"found incompatible YAML document": true, "found undefined tag handle": true,
}

var syntaxHints = map[string]string{
	"did not find expected ',' or '}'":                "the { opened here is not closed: end the mapping with } on this line, and quote a value holding a comma, a colon or a brace",
	"did not find expected ',' or ']'":                "the [ opened here is not closed: end the list with ] on this line, and quote an item holding a comma or a bracket",
	"did not find expected key":                       "this line is not a key of the mapping it is in: indent it like the keys beside it, or give it a key (key: value)",
	"did not find expected '-' indicator":             "this line is in a list but is not an item: start it with '- ', or indent it under the item it belongs to",
	"found character that cannot start any token":     "a tab or a character YAML reserves (@, `) starts a value here: indent with spaces, and quote a value starting with @ or `",
	"mapping values are not allowed in this context":  "a second ': ' on this line: quote the value that holds it, like key: \"a: b\"",
	"could not find expected ':'":                     "a key without ': value': add the colon, or quote the text if it is a value",
	"found unexpected end of stream":                  "the file ends inside a value: close the quote opened here",
	"found a tab character that violates indentation": "a tab indents this line: indent with spaces, not tabs",
}

var yamlLineRE = regexp.MustCompile(`line (\d+)(?::? column (\d+))?`)

// syntaxError turns a yaml.v3 parse error into an Error at the line of the
// problem (the one a parser's problem starts on), at the bracket left open
// when that is the problem, saying what would fix it.
func syntaxError(file string, data []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line, col := 1, 1
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			col, _ = strconv.Atoi(m[2])
		}
		msg = strings.TrimSpace(strings.TrimPrefix(yamlLineRE.ReplaceAllString(msg, ""), ":"))
		if parserProblems[msg] {
			line++
		}
	}
	lines := strings.Split(string(data), "\n")
	if ql, qc, ok := openQuote(lines, line); ok && (ql < line || msg == "found unexpected end of stream") {
		// A quote left open runs on over the lines below it, and YAML
		// stumbles where it ends: the problem is the quote.
		return &Error{File: file, Line: ql, Col: qc, Msg: "YAML syntax: the quote opened here is not closed on its line: close it (YAML read on to line " +
			strconv.Itoa(line) + ": " + msg + ")"}
	}
	switch {
	case m2col(msg):
		line, col = openedAt(lines, line, msg[len(msg)-2])
	case msg == "did not find expected '-' indicator":
		line, col = notAnItem(lines, line)
	case line >= 1 && line <= len(lines) && col == 1:
		col = len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " ")) + 1
	}
	if hint, ok := syntaxHints[msg]; ok {
		msg = hint + " (YAML: " + msg + ")"
	}
	return &Error{File: file, Line: line, Col: col, Msg: "YAML syntax: " + msg}
}

// m2col reports whether msg is an unclosed flow collection's, whose column
// is its opening bracket's.
func m2col(msg string) bool {
	return msg == "did not find expected ',' or '}'" || msg == "did not find expected ',' or ']'"
}

// openedAt is the line and column of the bracket of kind closer's ('}' or
// ']') left open: on line, or the nearest line above it that opens one
// and does not close it (yaml.v3 gives the line after it when the bracket
// opens the file's first line); line, at its first non-blank column, when
// there is none.
func openedAt(lines []string, line int, closer byte) (int, int) {
	for l := min(line, len(lines)); l >= 1; l-- {
		if c := unclosed(lines[l-1], closer); c > 0 {
			return l, c
		}
	}
	return line, 1
}

// notAnItem is the line, and its column, of the list starting on line
// (yaml.v3 names the list) that sits at the list's indentation without
// being an item; the list's start when there is none.
func notAnItem(lines []string, line int) (int, int) {
	if line < 1 || line > len(lines) {
		return line, 1
	}
	indent := len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " "))
	for l := line + 1; l <= len(lines); l++ {
		text := strings.TrimLeft(lines[l-1], " ")
		at := len(lines[l-1]) - len(text)
		switch {
		case text == "" || strings.HasPrefix(text, "#") || at > indent:
		case at < indent:
			return line, indent + 1
		case !strings.HasPrefix(text, "-"):
			return l, at + 1
		}
	}
	return line, indent + 1
}

// openQuote is where a quote is left open: the first line, up to line,
// holding an unclosed " or ' outside a comment, and its column; false when
// there is none.
func openQuote(lines []string, line int) (int, int, bool) {
	for l := 1; l <= min(line, len(lines)); l++ {
		quote, at := byte(0), 0
		text := lines[l-1]
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case quote == '"' && c == '\\', quote == '\'' && c == '\'' && i+1 < len(text) && text[i+1] == '\'':
				i++ // an escaped character, or a quote written twice
			case quote != 0 && c == quote:
				quote = 0
			case quote == 0 && (c == '"' || c == '\'') && (i == 0 || strings.ContainsRune(" :[{,-", rune(text[i-1]))):
				quote, at = c, i+1
			case quote == 0 && c == '#':
				i = len(text)
			}
		}
		if quote != 0 {
			return l, at, true
		}
	}
	return line, 1, false
}

// unclosed is the 1-based column of the last bracket of kind closer's
// ('}' or ']') opened on line and not closed on it, outside quotes; 0 when
// there is none.
func unclosed(line string, closer byte) int {
	opener := byte('{')
	if closer == ']' {
		opener = '['
	}
	var open []int
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' '):
			i = len(line)
		case c == opener:
			open = append(open, i)
		case c == closer && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return 0
	}
	return open[len(open)-1] + 1
}
