package metrics

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestOpNames(t *testing.T) {
	want := []string{"point_read", "range_query", "partition_scan", "table_scan", "insert", "upsert_merge",
		"upsert_replace", "update", "delete", "batch", "question"}
	if int(NumOps) != len(want) {
		t.Fatalf("NumOps = %d, want %d", NumOps, len(want))
	}
	for i, name := range want {
		op := Op(i)
		if op.String() != name {
			t.Errorf("Op(%d).String() = %q, want %q", i, op.String(), name)
		}
		if got, err := ParseOp(name); err != nil || got != op {
			t.Errorf("ParseOp(%q) = %v, %v", name, got, err)
		}
	}
	if NumOps.String() != "op(11)" {
		t.Errorf("NumOps.String() = %q", NumOps.String())
	}
}

func TestParseOpRejects(t *testing.T) {
	for _, name := range []string{"", "PointRead", "point-read", "scan", "batch "} {
		_, err := ParseOp(name)
		if !errors.Is(err, ErrUnknownOp) || !strings.Contains(err.Error(), "point_read, range_query") {
			t.Errorf("ParseOp(%q) error %v: want ErrUnknownOp listing the valid names", name, err)
		}
	}
}

// Maps keyed by Op encode with the operation names as JSON keys.
func TestOpJSONKeys(t *testing.T) {
	in := map[Op]int{Insert: 1, Batch: 2}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"batch":2,"insert":1}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var out map[Op]int
	if err := json.Unmarshal(b, &out); err != nil || out[Insert] != 1 || out[Batch] != 2 {
		t.Errorf("Unmarshal = %v, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"nope":1}`), &out); !errors.Is(err, ErrUnknownOp) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := json.Marshal(map[Op]int{NumOps: 1}); err == nil {
		t.Error("NumOps encoded as a key")
	}
}

func FuzzParseOp(f *testing.F) {
	for _, n := range opNames {
		f.Add(n)
	}
	f.Add("op(3)")
	f.Fuzz(func(t *testing.T, name string) {
		op, err := ParseOp(name)
		if err != nil {
			if !errors.Is(err, ErrUnknownOp) {
				t.Fatalf("ParseOp(%q): error %v does not wrap ErrUnknownOp", name, err)
			}
			return
		}
		if op >= NumOps || op.String() != name {
			t.Fatalf("ParseOp(%q) = %v", name, op)
		}
	})
}
