package faults

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// Only the named partitions get faults, and only their requests are
// numbered: their decisions are those of an unfiltered injector.
func TestPartitionFilter(t *testing.T) {
	filtered := New(mustParse(t, "503=30%,drop=10%,seed=5,partitions=hot|warm"))
	all := New(mustParse(t, "503=30%,drop=10%,seed=5"))
	for i := range 3000 {
		part := []string{"hot", "cold", "warm", "", "*"}[i%5]
		f := filtered.Decide(part, false)
		switch part {
		case "hot", "warm":
			if want := all.Decide(part, false); f != want {
				t.Fatalf("request %d to %s: %+v, want the unfiltered sequence's %+v", i, part, f, want)
			}
		default:
			if f != (Fault{}) {
				t.Fatalf("request %d to %q outside the filter: %+v", i, part, f)
			}
		}
	}
	if c := filtered.Counts(); c.Decisions != 1200 || c.Status == 0 || c.Dropped == 0 {
		t.Errorf("counts %+v, want 1,200 decisions with faults", c)
	}
}

// Discard applies to writes only, and only to writes that would be served.
func TestDiscardWritesOnly(t *testing.T) {
	in := New(mustParse(t, "discard=100%"))
	for i := range 1000 {
		write := i%2 == 0
		if f := in.Decide("p", write); f.Discard != write || f.Status != 0 || f.Drop {
			t.Fatalf("request %d (write %v): %+v", i, write, f)
		}
	}
	if c := in.Counts(); c.Discarded != 500 || c.Decisions != 1000 {
		t.Errorf("counts %+v, want 500 writes discarded", c)
	}
	in = New(mustParse(t, "503=100%,discard=100%"))
	if f := in.Decide("p", true); f.Status != 503 || f.Discard {
		t.Errorf("a refused write was discarded: %+v", f)
	}
}

// Each status fault is Azure's (or Cosmos DB's) own answer, classified as
// throttling by the client, with the messages the partition model uses.
func TestAnswers(t *testing.T) {
	tests := []struct {
		spec    string
		status  int
		code    string
		message string
	}{
		{"503=100%", 503, "ServerBusy", model.MsgBusy},
		{"500=100%", 500, "OperationTimedOut", model.MsgTimeout},
		{"504=100%", 504, "", "Gateway Timeout"},
		{"429=100%", 429, "TooManyRequests", ""}, // Cosmos DB: checked below
	}
	for _, tt := range tests {
		f := New(mustParse(t, tt.spec)).Decide("p", true)
		if f.Status != tt.status || f.Code != tt.code || tt.message != "" && f.Message != tt.message {
			t.Errorf("%s: %+v", tt.spec, f)
		}
		if outcome.Classify(f.Status, f.Code) != outcome.Throttled {
			t.Errorf("%s: %d %s is not classified as throttling", tt.spec, f.Status, f.Code)
		}
	}
	if f := New(mustParse(t, "429=100%")).Decide("p", false); !strings.Contains(f.Message, "Request rate is large") {
		t.Errorf("429 message %q, want Cosmos DB's Request rate is large", f.Message)
	}
}

// A zero Config, "none" and a nil *Injector inject nothing and count
// nothing; neither do shares of zero.
func TestNothingToInject(t *testing.T) {
	var nilInjector *Injector
	for name, in := range map[string]*Injector{
		"zero config": New(Config{}),
		"none":        New(mustParse(t, "none")),
		"zero shares": New(mustParse(t, "503=0%,drop=0,latency=5ms@0%")),
		"nil":         nilInjector,
	} {
		if in.Active() {
			t.Errorf("%s: active", name)
		}
		for range 1000 {
			if f := in.Decide("p", true); f != (Fault{}) {
				t.Fatalf("%s: %+v", name, f)
			}
		}
		if c := in.Counts(); c.Decisions != 0 || c.Statuses == nil {
			t.Errorf("%s: counts %+v", name, c)
		}
	}
}
