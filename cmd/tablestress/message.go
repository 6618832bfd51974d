package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// packagePrefix matches the package names Go errors start with
// ("workload: ", "scenario: invalid: ") at the start of a message or of a
// wrapped part: the command line prints one prefix, "tablestress:".
var packagePrefix = regexp.MustCompile(`(^|: )(?:(?:workload|table|scenario|keygen|report|metrics|threshold)(?:: invalid)?: )+`)

// message is err as the user reads it after "tablestress: ": the cause
// first, without package prefixes.
func message(err error) string {
	return packagePrefix.ReplaceAllString(err.Error(), "$1")
}

// flagError explains a flag cobra could not parse, suggesting the flag the
// user probably meant: "unknown flag --duraton; did you mean --duration?".
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		add := func(f *pflag.Flag) { names = append(names, f.Name) }
		c.Flags().VisitAll(add)
		c.InheritedFlags().VisitAll(add)
		if best := textfit.Closest(name, names); best != "" {
			msg = fmt.Sprintf("unknown flag --%s; did you mean --%s?", name, best)
		}
	}
	return usageError("%s (see %s --help)", msg, c.CommandPath())
}

// targetWords are the one-word targets, for "did you mean".
var targetWords = []string{"embedded", "azurite"}

// targetError explains a target that does not parse: what was wrong, a
// suggestion for a mistyped word, and where the accepted forms are. It
// blames TABLESTRESS_TARGET when the value came from there. It never
// repeats the spec, which may hold a key or a signature.
func targetError(spec string, fromEnv bool, err error) error {
	what := err.Error()
	var pe interface{ Problem() string }
	if errors.As(err, &pe) {
		what = pe.Problem()
	}
	src := "--target"
	if fromEnv {
		src = "TABLESTRESS_TARGET"
	}
	msg := src + ": " + what
	word := strings.TrimSpace(spec)
	if !strings.ContainsAny(word, "=:/?;") && len(word) <= 24 {
		if best := textfit.Closest(word, targetWords); best != "" {
			msg += " (did you mean " + best + "?)"
		}
	}
	return usageError("%s; see tablestress help targets", msg)
}

// parseTarget reads --target, or TABLESTRESS_TARGET without it.
func parseTarget(e *env, flag string) (table.Target, error) {
	spec, fromEnv := flag, false
	if spec == "" {
		spec, fromEnv = e.getenv("TABLESTRESS_TARGET"), true
	}
	tg, err := table.ParseTarget(spec)
	if err != nil {
		return tg, targetError(spec, fromEnv && spec != "", err)
	}
	return tg, nil
}
