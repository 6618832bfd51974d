package main

import (
	"context"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/internal/manual"
)

// The manual (README.md and docs/*.md) against the commands' flags: the
// synopsis of docs/commands.md lists every flag of every command and no
// flag a command lacks, and every --flag the manual names anywhere is a
// flag of some command (or of another tool it names beside it).

// loadManual reads the repository's manual.
func loadManual(t *testing.T) []manual.Page {
	t.Helper()
	pages, err := manual.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// manualPage returns the page at path of the manual.
func manualPage(t *testing.T, path string) manual.Page {
	t.Helper()
	for _, p := range loadManual(t) {
		if p.Path == path {
			return p
		}
	}
	t.Fatalf("the manual has no page %s", path)
	return manual.Page{}
}

// commandTree is the real command tree, without touching the outside.
func commandTree() *cobra.Command {
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }, stdin: strings.NewReader("")}
	return newRoot(context.Background(), e)
}

// localFlags returns the names of a command's own flags (not --help, nor
// the root's persistent --wide, nor a hidden flag).
func localFlags(c *cobra.Command) []string {
	var out []string
	c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && !f.Hidden {
			out = append(out, f.Name)
		}
	})
	sort.Strings(out)
	return out
}

var flagRE = regexp.MustCompile(`--[a-zA-Z][a-zA-Z0-9-]*`)

// butRE is how a synopsis entry takes another command's flags: "run's
// flags", less those named after "but".
var butRE = regexp.MustCompile(`([a-z]+)'s flags(?: but ((?:--[a-z-]+(?:, )?)+))?`)

// synopsis parses the synopsis block of docs/commands.md into each
// command's entry: the line "tablestress NAME ..." and its continuation
// lines.
func synopsis(t *testing.T) map[string]string {
	t.Helper()
	sec, _, ok := manualPage(t, "docs/commands.md").Section("synopsis")
	if !ok || len(sec.Blocks()) != 1 {
		t.Fatal("docs/commands.md has no Synopsis section with one code block")
	}
	entries := map[string]string{}
	name := ""
	for _, l := range sec.Blocks()[0].Lines {
		if rest, ok := strings.CutPrefix(l, "tablestress "); ok {
			name = strings.Fields(rest)[0]
			if name == "help" {
				name = strings.Join(strings.Fields(rest)[:2], " ")
			}
		}
		if name == "" {
			t.Fatalf("docs/commands.md synopsis: %q comes before any command", l)
		}
		entries[name] += " " + l
	}
	return entries
}

// entryFlags is the set of flags a synopsis entry gives its command.
func entryFlags(entries map[string]string, name string) map[string]bool {
	out := map[string]bool{}
	e := entries[name]
	if m := butRE.FindStringSubmatch(e); m != nil && m[1] != name {
		for f := range entryFlags(entries, m[1]) {
			out[f] = true
		}
		for _, f := range flagRE.FindAllString(m[2], -1) {
			delete(out, strings.TrimPrefix(f, "--"))
		}
		e = strings.Replace(e, m[0], "", 1)
	}
	for _, f := range flagRE.FindAllString(e, -1) {
		out[strings.TrimPrefix(f, "--")] = true
	}
	return out
}

// Every command has a synopsis entry that names each of its flags, and
// names no flag it does not have.
func TestManualSynopsisHasEveryFlag(t *testing.T) {
	entries := synopsis(t)
	root := commandTree()
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" || c.Hidden {
			continue
		}
		name := c.Name()
		if c.IsAdditionalHelpTopicCommand() {
			name = "help " + name // a help topic: tablestress help targets
		}
		if _, ok := entries[name]; !ok {
			t.Errorf("docs/commands.md synopsis: no entry for tablestress %s", name)
			continue
		}
		documented := entryFlags(entries, name)
		for _, f := range localFlags(c) {
			if !documented[f] {
				t.Errorf("docs/commands.md synopsis: tablestress %s --%s is not documented", c.Name(), f)
			}
			delete(documented, f)
		}
		for f := range documented {
			if f != "wide" && c.Flags().Lookup(f) == nil {
				t.Errorf("docs/commands.md synopsis: tablestress %s has no flag --%s", c.Name(), f)
			}
		}
	}
	for name := range entries {
		if c, _, err := root.Find(strings.Fields(strings.TrimPrefix(name, "help "))); err != nil || c == root {
			t.Errorf("docs/commands.md synopsis: an entry for tablestress %s, which is no command", name)
		}
	}
}

// foreignFlags are the flags the manual names of other tools (or a
// mistyped flag shown in an error), each allowed only where its line or
// one beside it names the tool.
var foreignFlags = map[string]string{
	"--build":                   "docker compose",
	"--abort-on-container-exit": "docker compose",
	"--assignee":                "az role assignment",
	"--skipApiVersionCheck":     "Azurite",
	"--bare":                    "git clone",
	"--rev":                     "azurite-suites.sh",
	"--only":                    "azurite-suites.sh",
	"--long":                    "test.sh",
	"--duraton":                 "did you mean --duration",
}

// Every --flag the manual names, in its text or its code, is a flag of a
// tablestress command (or of the other tool its line names).
func TestManualFlagsExist(t *testing.T) {
	known := map[string]bool{"--wide": true, "--help": true, "--version": true}
	for _, c := range commandTree().Commands() {
		for _, f := range localFlags(c) {
			known["--"+f] = true
		}
	}
	n := 0
	for _, p := range loadManual(t) {
		for i, l := range p.Lines {
			for _, f := range flagRE.FindAllString(l, -1) {
				n++
				if known[f] {
					continue
				}
				if tool, ok := foreignFlags[f]; ok && strings.Contains(strings.Join(p.Lines[max(i-1, 0):min(i+2, len(p.Lines))], " "), tool) {
					continue
				}
				t.Errorf("%s:%d: %s is no tablestress flag (nor a flag of another tool named on the line)", p.Path, i+1, f)
			}
		}
	}
	if n < 100 {
		t.Errorf("found %d flags in the manual: is it read?", n)
	}
}
