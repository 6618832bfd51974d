package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/advise"
)

// advise --html writes the advice of a load with an exception as a page
// that shows it as an exception, never as a success: the question no
// design serves, its cost under the recommendation (rows visited a
// question and entities/s at its rate) and what would change it, beside
// the recommendation for the rest; the exit code stays 3.
func TestAdviseHTMLShowsExceptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "advise.html")
	code, out, errs := runCLI(t, "advise", "--no-prove", "--quiet", "--html", path, "../../scenarios/parcel-tracking-dashboard.yaml")
	if code != exitExceptions {
		t.Fatalf("exit %d, want %d:\n%s\n%s", code, exitExceptions, out, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		"<!DOCTYPE html>", "recommended with exceptions", `<div class="exception"><h3>exception: depot-24h</h3>`,
		"7,031,871", // rows visited a question, and entities/s at once a second
		"what would change it:</b> it would take a window of 3.7 hours", "a count or summary kept beside the data",
		"Recommended: parcel+ByDepotCopy-minute", "For the rest of the load, 2,520 ops/s without depot-24h",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if !strings.Contains(page, `<p class="verdict warn">recommended with exceptions`) || strings.Contains(page, `class="verdict good"`) {
		t.Errorf("the verdict is not shown as an exception:\n%.3000s", page)
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Errorf("the page loads or links something: it should stand alone")
	}
}

// A file advise cannot write is named, and the exit is a failure.
func TestAdviseHTMLUnwritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "advise.html")
	code, _, errs := runCLI(t, "advise", "--no-prove", "--quiet", "--html", path, "../../scenarios/quickstart.yaml")
	if code != exitFailure || !strings.Contains(errs, path) {
		t.Errorf("exit %d, stderr %q: want %d naming %s", code, errs, exitFailure, path)
	}
}

// The proof's section puts each scheme's busiest partition measured
// beside predicted, with how far off, and its verdict.
func TestAdviseHTMLShowsTheProof(t *testing.T) {
	a := &advise.Advice{Scenario: "s", Model: "azure", Horizon: "a year"}
	pr := &advise.Proof{Rate: 2520, Entities: 1_000_000, DurationS: 20, WarmupS: 1, Tolerance: 0.15, Run: true, OK: true, Target: "embedded",
		Schemes: []advise.ProofRun{{Scheme: "parcel", Role: "recommended",
			Predicted: advise.ProofFigures{BusiestPartition: "D065", BusiestEntitiesPerSec: 461, BusiestSD: 20},
			Measured:  &advise.ProofFigures{BusiestPartition: "D065", BusiestEntitiesPerSec: 484}}}}
	var b strings.Builder
	if err := writeAdviceHTML(&b, a, pr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Proof</h2>", "<td>461 ± 20.0</td><td>484</td><td>5%</td>", `<p class="verdict good">proof: ok`, "its busiest partition measured within 15% of the prediction"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %q:\n%s", want, b.String())
		}
	}
}
