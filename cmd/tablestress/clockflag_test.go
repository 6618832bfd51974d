package main

import (
	"strings"
	"testing"
)

// --clock virtual is refused, with the reason, where a virtual clock
// cannot serve: another target, the socket transport, a model that takes
// no time; a value other than virtual or wall is refused too. Refusals
// exit 2 before anything runs.
func TestClockFlagRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--clock", "virtual", "--target", "azurite"}, "--clock virtual: the target is azurite"},
		{[]string{"--clock", "virtual", "--embedded-transport", "socket"}, "--clock virtual: the embedded service is reached over a connection"},
		{[]string{"--clock", "virtual", "--model", "off"}, "--clock virtual: the model off answers in no time"},
		{[]string{"--clock", "virtual", "--model", "azure,latency=off"}, "answers in no time"},
		{[]string{"--clock", "fast"}, `--clock: "fast" is neither virtual nor wall`},
	} {
		code, _, errs := runCLI(t, append([]string{"run", "../../scenarios/quickstart.yaml", "--quiet"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}

// Without --clock, a run on the embedded service in process lives on the
// virtual clock, and with a model that takes no time, or over a socket, on
// the wall clock: each report says which.
func TestClockDefaults(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "on a virtual clock"},
		{[]string{"--model", "off"}, "model: off\n"},
		{[]string{"--clock", "wall"}, "model: azure\n"},
	} {
		args := append([]string{"run", "../../scenarios/quickstart.yaml", "--quiet", "--duration", "1s", "--warmup", "0s", "--entities", "500"}, tc.args...)
		code, out, errs := runCLI(t, args...)
		if (code != exitOK && code != exitThreshold) || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d (%s), the report does not say %q:\n%.400s", tc.args, code, errs, tc.want, out)
		}
	}
}
