package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/manual"
)

// The code blocks of the manual, read as the steps a reader would take:
// every block is a kind TestManualCommands knows how to run or check, and
// a command no test runs is refused here, so no page can show one.
//
//   - console: lines "$ COMMAND" each followed by the output it printed
//     (trimmed: a line "..." leaves lines out);
//   - sh: one command a line, without output;
//   - yaml: a scenario, which must validate;
//   - xml: the JUnit file the block before it wrote with --junit;
//   - text: anything that is not a command (the synopsis of
//     docs/commands.md is held by TestManualSynopsisHasEveryFlag).
//
// A command line may end with a comment; "# exits N" says its exit code
// (0 when not said).

// step is one command of a block, with the output the manual shows.
type step struct {
	block      manual.Block
	line       string   // as written, without its comment
	words      []string // split as the shell would, before expansion
	background bool     // ends with &
	stdout     string   // > FILE
	exit       int
	output     []string
}

// where names the step's block.
func (s step) where() string { return s.block.Where() }

var exitsRE = regexp.MustCompile(`#\s*exits? (\d+)`)

// blockSteps reads a sh or console block into its steps.
func blockSteps(b manual.Block) ([]step, error) {
	var out []step
	for _, l := range b.Lines {
		cmd, isCmd := l, true
		if b.Lang == "console" {
			cmd, isCmd = strings.CutPrefix(l, "$ ")
		} else if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if !isCmd {
			if len(out) == 0 {
				return nil, fmt.Errorf("%s: output before any command: %q", b.Where(), l)
			}
			out[len(out)-1].output = append(out[len(out)-1].output, l)
			continue
		}
		s, err := parseStep(b, cmd)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// parseStep splits a command line into its words, its comment, its
// redirection and its &.
func parseStep(b manual.Block, line string) (step, error) {
	s := step{block: b}
	words, comment, err := shellWords(line)
	if err != nil {
		return s, fmt.Errorf("%s: %q: %v", b.Where(), line, err)
	}
	if m := exitsRE.FindStringSubmatch(comment); m != nil {
		s.exit, _ = strconv.Atoi(m[1])
	}
	if n := len(words); n > 0 && words[n-1] == "&" {
		s.background, words = true, words[:n-1]
	}
	if n := len(words); n > 2 && words[n-2] == ">" {
		s.stdout, words = words[n-1], words[:n-2]
	}
	if len(words) == 0 {
		return s, fmt.Errorf("%s: an empty command", b.Where())
	}
	s.words = words
	s.line = strings.TrimSpace(strings.SplitN(line, " #", 2)[0])
	return s, nil
}

// shellWords splits a line as a POSIX shell does for the forms the
// manual uses: words, '...' and "..." quotes (kept as one word, quotes
// removed), and a comment from an unquoted " #". Variables are expanded
// later; a word keeps $NAME.
func shellWords(line string) ([]string, string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			return words, line[i:], nil
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, "", fmt.Errorf("unclosed %c", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, "", nil
}

// tablestressArgs returns the arguments of a tablestress command line
// (tablestress, bin/tablestress or go run ./cmd/tablestress), false for
// any other command.
func tablestressArgs(words []string) ([]string, bool) {
	switch {
	case words[0] == "tablestress" || words[0] == "bin/tablestress":
		return words[1:], true
	case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/tablestress":
		return words[3:], true
	}
	return nil, false
}

// otherCommands are the commands besides tablestress's that the manual
// may show, each with what TestManualCommands does with it.
var otherCommands = map[string]string{
	"make":           "the Makefile must have the target (the suite itself, make fuzz and make build are not run)",
	"go install":     "the package must be this module's command",
	"sed":            "applied: sed 's/FROM/TO/' IN > OUT, FROM found in IN",
	"export":         "sets the environment of the commands after it",
	"wait":           "waits for the block's background commands",
	"kill":           "stops a background command: kill %N",
	"docker compose": "docker-compose.yml must exist (TestDockerComposeFile holds it; Docker does not run in the tests)",
}

// commandKind names the kind of a step's command: "tablestress" or a key
// of otherCommands; an error names a command no test runs.
func commandKind(s step) (string, error) {
	if _, ok := tablestressArgs(s.words); ok {
		return "tablestress", nil
	}
	for _, k := range []string{strings.Join(s.words[:min(2, len(s.words))], " "), s.words[0]} {
		if _, ok := otherCommands[k]; ok {
			return k, nil
		}
	}
	return "", fmt.Errorf("%s: %q: no test runs this command (TestManualCommands runs tablestress and %s; a figure's command belongs in the Measured table, which bench/readme-figures.sh runs)",
		s.where(), s.line, strings.Join(sortedKeys(otherCommands), ", "))
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkBlockKind refuses a block of a kind TestManualCommands does not
// run, and a text block that shows a command.
func checkBlockKind(b manual.Block) error {
	switch b.Lang {
	case "sh", "console", "yaml", "xml":
		return nil
	case "text":
		if b.Page == "docs/commands.md" && len(b.Lines) > 0 && strings.HasPrefix(b.Lines[0], "tablestress run SCENARIO") {
			return nil // the synopsis
		}
		for _, l := range b.Lines {
			if strings.HasPrefix(l, "$ ") || strings.HasPrefix(l, "tablestress ") {
				return fmt.Errorf("%s: a text block showing a command (%q): make it console or sh, so that a test runs it", b.Where(), l)
			}
		}
		return nil
	}
	return fmt.Errorf("%s: a code block of kind %q: say which it is (console, sh, yaml, xml or text) so that a test runs or checks it", b.Where(), b.Lang)
}

// Every code block of the manual is of a kind the tests run or check, and
// every command in one is a command TestManualCommands runs.
func TestManualCommandsAreKnown(t *testing.T) {
	n := 0
	for _, p := range loadManual(t) {
		for _, b := range p.Blocks() {
			if err := checkBlockKind(b); err != nil {
				t.Error(err)
				continue
			}
			if b.Lang != "sh" && b.Lang != "console" {
				continue
			}
			steps, err := blockSteps(b)
			if err != nil {
				t.Error(err)
			}
			for _, s := range steps {
				n++
				if _, err := commandKind(s); err != nil {
					t.Error(err)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("%d commands in the manual: is it read?", n)
	}
	if _, err := os.Stat("../../Makefile"); err != nil {
		t.Error(err)
	}
}
