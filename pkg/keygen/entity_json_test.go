package keygen

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendJSON(t *testing.T) {
	p, err := NewPopulation(PopulationSpec{Seed: 3, Fields: []FieldSpec{
		fDevice, fAge, {Name: "quote", Kind: "choice", Values: []string{`say "hi"\now`}},
	}, Payload: PayloadSpec{Size: 70_000}}) // spans three Data properties
	if err != nil {
		t.Fatal(err)
	}
	var e Entity
	p.Entity(9, &e)
	body := p.AppendJSON(nil, &e, []byte("pk"), []byte("rk"), 4)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, clip(string(body), 300))
	}
	checks := map[string]any{
		"PartitionKey": "pk", "RowKey": "rk", "Seq": "9", "Seq@odata.type": "Edm.Int64",
		"EventTime@odata.type": "Edm.DateTime", "age@odata.type": "Edm.Int64", "Version": 4.0,
		"quote": `say "hi"\now`,
	}
	for k, want := range checks {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if d, _ := m["device"].(string); !strings.HasPrefix(d, "dev-") {
		t.Errorf("device = %v", m["device"])
	}
	total := 0
	for _, k := range []string{"Data", "Data1", "Data2"} {
		s, _ := m[k].(string)
		if len(s) == 0 || len(s) > MaxPropertyChars {
			t.Errorf("%s has %d chars", k, len(s))
		}
		total += len(s)
	}
	if total != 70_000 {
		t.Errorf("payload = %d bytes, want 70000", total)
	}
	// A new version rewrites the payload; the same version reproduces it.
	again := p.AppendJSON(nil, &e, []byte("pk"), []byte("rk"), 4)
	other := p.AppendJSON(nil, &e, []byte("pk"), []byte("rk"), 5)
	if string(again) != string(body) || string(other) == string(body) {
		t.Error("the body must be a pure function of (entity, keys, version)")
	}
	patch := p.AppendPatchJSON(nil, &e, []byte("pk"), []byte("rk"), 6)
	m = nil
	if err := json.Unmarshal(patch, &m); err != nil || m["Version"] != 6.0 || len(m["Data"].(string)) != 1024 {
		t.Errorf("patch %s: %v", clip(string(patch), 100), err)
	}
}

func BenchmarkEntityKeysJSON(b *testing.B) {
	bi, _ := LookupBuiltin("device-date")
	p, _ := NewPopulation(PopulationSpec{Seed: 1, Fields: WithBuiltinFields(nil, bi), Payload: PayloadSpec{Size: 1024}})
	s, _ := CompileScheme(p, bi.Spec)
	var e Entity
	var k Keys
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p.Entity(int64(i), &e)
		s.Keys(&e, &k)
		buf = p.AppendJSON(buf[:0], &e, k.PK, k.RK, 0)
	}
	b.SetBytes(int64(len(buf)))
}
