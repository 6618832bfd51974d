// Command testsummary reads `go test -json` on its standard input and
// prints what go test prints without -v (each package's line, build
// errors, the whole output of every failed test), then, at the end, every
// test that skipped and why, the slowest tests, and the counts of passed,
// failed and skipped tests. scripts/test.sh pipes the suite through it.
//
//	go test -json ./... | testsummary [-slowest 15] [-ci] [-module PATH]
//
// It exits 1 when a test or a package failed, and with -ci (CI, where
// nothing may be skipped) also when a test skipped for any reason but an
// opt-in one (a skip message that begins "opt-in:", testenv.OptIn).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	slowest := flag.Int("slowest", 15, "how many of the slowest tests to list")
	ci := flag.Bool("ci", false, "fail on any skip that is not opt-in (CI runs every test)")
	module := flag.String("module", "", "the module's path, left out of the package paths the summary lists")
	flag.Parse()
	s := newSummary(os.Stdout)
	if *module != "" {
		s.trim = *module + "/"
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		s.line(in.Text())
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
	forbidden := s.report(*slowest)
	code := 0
	if s.failed > 0 || s.pkgFail > 0 {
		code = 1
	}
	if *ci && len(forbidden) > 0 {
		fmt.Printf("testsummary: CI is set and %d test(s) skipped; every test must run in CI:\n", len(forbidden))
		for _, r := range forbidden {
			fmt.Printf("  %s %s: %s\n", strings.TrimPrefix(r.pkg, s.trim), r.test, r.reason)
		}
		code = 1
	}
	os.Exit(code)
}
