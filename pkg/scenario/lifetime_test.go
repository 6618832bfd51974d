package scenario

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A field's lifetime reads as it is written: a span in days or a Go
// duration, the entities a key receives, the keys live at once as its
// count; the population compiles it with the interval.
func TestLifetimeFromYAML(t *testing.T) {
	src := strings.Replace(messagesBase, "{kind: id, count: 50, prefix: dev-, width: 3}", "{kind: id, prefix: P, lifetime: {span: 1.5d, entities: 12}}", 1)
	src = strings.Replace(src, "  interval: 1s", "  interval: 10ms", 1)
	sc, errs := Parse("l.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(joinErrs(errs))
	}
	pop, _, err := sc.Compile()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := pop.Lifetime("device")
	// 36 h at 100 entities/s: 12,960,000 entities, 1,080,000 keys of 12.
	if !ok || l.Live != 1_080_000 || l.PerKey != 12 || l.Span(10*time.Millisecond) != 36*time.Hour {
		t.Errorf("lifetime %+v (ok %v); want 1,080,000 live keys of 12 over 36h", l, ok)
	}
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	field := root["properties"].(map[string]any)["population"].(map[string]any)["properties"].(map[string]any)["fields"].(map[string]any)["additionalProperties"].(map[string]any)
	life, ok := field["properties"].(map[string]any)["lifetime"].(map[string]any)
	if !ok || !strings.Contains(life["description"].(string), "born and retire") || life["properties"].(map[string]any)["span"] == nil {
		t.Errorf("the schema's lifetime: %v", life)
	}
}
