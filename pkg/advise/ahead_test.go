package advise

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The workers that judge ahead of the generator change nothing: the
// advice, every candidate's name, order and figures, is byte for byte
// the advice judged one candidate after another.
func TestAheadMatchesSerial(t *testing.T) {
	for _, name := range []string{"blog-posts", "employee-directory", "tenant-log"} {
		t.Run(name, func(t *testing.T) {
			sc, _ := load(t, name)
			in, err := Prepare(sc, Defaults())
			if err != nil {
				t.Fatal(err)
			}
			in.serial = true
			want := adviceJSON(t, adviseInput(t, in))
			got := adviceJSON(t, adviseWith(t, name, Defaults()))
			if !bytes.Equal(got, want) {
				t.Errorf("advice judged ahead differs from one by one:\n%s\nwant\n%s", firstDiff(got, want), firstDiff(want, got))
			}
		})
	}
}

// adviseInput advises in.
func adviseInput(t *testing.T, in *Input) *Advice {
	t.Helper()
	a, err := in.Advise(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func adviceJSON(t *testing.T, a *Advice) []byte {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff is a's text around its first byte that differs from b's.
func firstDiff(a, b []byte) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return string(a[max(n-80, 0):min(n+80, len(a))])
}
