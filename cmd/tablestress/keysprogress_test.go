package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// keys says which scheme it simulates once that takes a while: nothing in
// the first keysProgressAfter, then a line, repeated at most every
// keysProgressEvery; a line at each later scheme's start; and a closing
// line, so stderr does not end mid-way.
func TestKeysProgressSpeaksWhenSlow(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := newKeysProgress(&buf, func() time.Time { return now })
	p.after, p.every = 3*time.Second, 5*time.Second
	at := func(s float64) { now = t0.Add(time.Duration(s * float64(time.Second))) }
	p.start("by-parcel", 1, 3) // t=0
	for _, s := range []float64{1, 2, 2.9} {
		at(s)
		p.tick()
	}
	if buf.Len() != 0 {
		t.Fatalf("a line in the first 3 s: %q", buf.String())
	}
	for _, s := range []float64{3, 4, 7.9, 8, 9} {
		at(s)
		p.tick()
	}
	at(10)
	p.start("by-depot-hour", 2, 3)
	at(11)
	p.tick() // the new scheme has run 1 s: silent
	at(12)
	p.done()
	want := "keys: simulating by-parcel (1 of 3 schemes), 3s so far\n" +
		"keys: simulating by-parcel (1 of 3 schemes), 8s so far\n" +
		"keys: simulating by-depot-hour (2 of 3 schemes)\n" +
		"keys: 2 scheme(s) simulated in 12s\n"
	if buf.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// A quick keys prints nothing on stderr; a slow one's progress goes to
// stderr, never to stdout.
func TestKeysProgressOnStderrOnly(t *testing.T) {
	code, out, errs := runCLI(t, "keys", "../../scenarios/hot-partition.yaml", "--ops", "200")
	if code != exitOK || errs != "" {
		t.Fatalf("quick keys: exit %d, stderr %q", code, errs)
	}
	defer func(a time.Duration) { keysProgressAfter = a }(keysProgressAfter)
	keysProgressAfter = 0
	code, slow, errs := runCLI(t, "keys", "../../scenarios/hot-partition.yaml", "--ops", "200")
	if code != exitOK || !strings.Contains(errs, "keys: simulating constant (1 of 2 schemes)\n") ||
		!strings.Contains(errs, "keys: simulating hash-buckets (2 of 2 schemes)\n") {
		t.Errorf("slow keys: exit %d, stderr %q", code, errs)
	}
	if slow != out || strings.Contains(slow, "keys: ") {
		t.Errorf("stdout changed with the progress:\n%s", slow)
	}
}
