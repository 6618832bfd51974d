package main

import (
	"strings"
	"testing"
)

// Errors have one prefix and the cause first; bad targets point to the
// help topic (never listing every form), blame where the value came from
// and suggest the word meant; mistyped flags and schemes get a suggestion.
func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
		code int
	}{
		{[]string{"run", "scenarios/nope.yaml"}, nil, "tablestress: scenarios/nope.yaml: file not found\n", exitUsage},
		{[]string{"keys", "nope.yaml"}, nil, "tablestress: nope.yaml: file not found\n", exitUsage},
		{[]string{"report", "nope.json"}, nil, "tablestress: nope.json: file not found\n", exitUsage},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--target", "azurtie"}, nil,
			"tablestress: --target: the target is not one of the accepted forms (did you mean azurite?); see tablestress help targets\n", exitUsage},
		{[]string{"run", "../../scenarios/quickstart.yaml"}, map[string]string{"TABLESTRESS_TARGET": "embeded"},
			"tablestress: TABLESTRESS_TARGET: the target is not one of the accepted forms (did you mean embedded?); see tablestress help targets\n", exitUsage},
		{[]string{"run", "../../scenarios/hot-partition.yaml", "--scheme", "hash-bucket"}, nil,
			`tablestress: --scheme: no scheme "hash-bucket" in hot-partition (did you mean hash-buckets?); its schemes: constant, hash-buckets` + "\n", exitUsage},
		{[]string{"compare", "../../scenarios/hot-partition.yaml", "--scheme", "x"}, nil,
			`tablestress: --scheme: no scheme "x" in hot-partition; its schemes: constant, hash-buckets` + "\n", exitUsage},
		{[]string{"find", "../../scenarios/hot-partition.yaml", "--scheme", "hash-bucket"}, nil,
			`tablestress: --scheme: no scheme "hash-bucket" in hot-partition (did you mean hash-buckets?); its schemes: constant, hash-buckets` + "\n", exitUsage},
		{[]string{"keys", "../../scenarios/hot-partition.yaml", "--scheme", "constnt"}, nil,
			`tablestress: --scheme: no scheme "constnt" in hot-partition (did you mean constant?); its schemes: constant, hash-buckets` + "\n", exitUsage},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--shard", "1/2"}, nil,
			"tablestress: --shard needs --table: the shards of one run share one table\n", exitUsage},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--skip-seed", "--shard", "1/2"}, nil,
			"tablestress: --skip-seed needs --table: the table tablestress seed --keep-table prepared\n", exitUsage},
		{[]string{"find", "../../scenarios/quickstart.yaml", "--max-throttled", "1,5%"}, nil,
			`tablestress: --max-throttled: "1,5%" has a comma: a percentage takes a decimal point and no thousands separators, like 1.5% or 1000%` + "\n", exitUsage},
		{[]string{"find", "../../scenarios/quickstart.yaml", "--max-throttled", "100%"}, nil,
			"tablestress: --max-throttled: 100% is out of range: want above 0% and below 100%\n", exitUsage},
		{[]string{"find", "../../scenarios/quickstart.yaml", "--max-throttled", "0.01"}, nil,
			"tablestress: --max-throttled: 0.01 needs a % sign: 0.01%, or 1% if it is a fraction of the whole\n", exitUsage},
		{[]string{"advise", "../../scenarios/quickstart.yaml", "--headroom", "70"}, nil,
			"tablestress: --headroom: 70 needs a % sign: 70%\n", exitUsage},
		{[]string{"advise", "../../scenarios/quickstart.yaml", "--headroom", "170%"}, nil,
			"tablestress: --headroom: 170% is out of range: want above 0% and at most 100%\n", exitUsage},
		{[]string{"run", "../../scenarios/quickstart.yaml", "--duraton", "3s"}, nil,
			"tablestress: unknown flag --duraton; did you mean --duration? (see tablestress run --help)\n", exitUsage},
	} {
		code, _, errs := runTerm(t, 0, tc.env, tc.args...)
		if code != tc.code || errs != tc.want {
			t.Errorf("%v: exit %d\n%s\nwant exit %d\n%s", tc.args, code, errs, tc.code, tc.want)
		}
		if strings.Count(errs, "tablestress:") != 1 || strings.Contains(errs, "invalid:") || len(errs) > 200 {
			t.Errorf("%v: not one short message with one prefix: %q", tc.args, errs)
		}
	}
	code, out, _ := runCLI(t, "help", "targets")
	if code != exitOK || !strings.Contains(out, "UseDevelopmentStorage=true") || !strings.Contains(out, "TABLESTRESS_TARGET") {
		t.Errorf("help targets: exit %d\n%s", code, out)
	}
}

// Every command's help has an example and shows no internal default or
// document number.
func TestHelpTexts(t *testing.T) {
	for _, c := range newRoot(t.Context(), &env{getenv: func(string) string { return "" }}).Commands() {
		if c.Name() == "help" || c.Name() == "completion" || !c.IsAvailableCommand() {
			continue
		}
		code, out, _ := runCLI(t, c.Name(), "--help")
		if code != exitOK {
			t.Errorf("%s --help: exit %d", c.Name(), code)
		}
		if !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help has no example", c.Name())
		}
		for _, bad := range []string{"(default -1", "seed 00", "seeds 00"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s --help shows %q", c.Name(), bad)
			}
		}
	}
}
