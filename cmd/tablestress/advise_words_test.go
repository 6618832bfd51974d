package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// A load past ten times its target reads as how many times over, a
// question longer than the horizon as never, not as fifteen digits.
func TestAdviseFiguresPastMeaning(t *testing.T) {
	year := 365 * 24 * time.Hour
	for _, c := range []struct{ got, want string }{
		{loadText(0.65), "65%"},
		{loadText(1555.2), "1,555×"},
		{loadText(12_431_890_654.31), "12 billion×"},
		{questionMsText(5.4, year), "5.4"},
		{questionMsText(2_627_743, year), "2,627,743"},
		{questionMsText(300_425_419_116_000, year), "never"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// The header states the retention beside the horizon.
func TestAdviseHeaderStatesRetention(t *testing.T) {
	var b bytes.Buffer
	p := &textfit.Printer{W: &b}
	printHeader(p, &advise.Advice{Scenario: "s", Model: "azure", Headroom: 0.7, Horizon: "a year", Retention: "90 days"}, 0)
	if !strings.Contains(b.String(), "horizon a year, data deleted after 90 days") {
		t.Errorf("%q", b.String())
	}
}

// advise exits 3 when it recommends a design with exceptions, 99 when
// nothing serves the load, 0 when the design serves all of it.
func TestAdviseExitCodes(t *testing.T) {
	rec := &advise.Pick{Name: "user"}
	ex := &advise.Infeasible{Reason: "every-like takes 10 days", Exceptions: []advise.Exception{{Question: "every-like"}}}
	for _, c := range []struct {
		a    *advise.Advice
		want int
	}{
		{&advise.Advice{Recommended: rec}, exitOK},
		{&advise.Advice{Recommended: rec, Infeasible: ex}, exitExceptions},
		{&advise.Advice{Infeasible: &advise.Infeasible{Reason: "no scheme"}}, exitThreshold},
	} {
		if got := codeOf(adviceOutcome(c.a, nil, nil)); got != c.want {
			t.Errorf("%+v: exit %d, want %d", c.a.Infeasible, got, c.want)
		}
	}
}
