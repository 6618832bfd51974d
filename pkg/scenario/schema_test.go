package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestJSONSchemaCoversEveryField(t *testing.T) {
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	props := root["properties"].(map[string]any)
	for _, key := range []string{"population", "schemes", "workload", "thresholds", "embedded"} {
		if _, ok := props[key]; !ok {
			t.Errorf("schema lacks %q", key)
		}
	}
	mix := props["workload"].(map[string]any)["properties"].(map[string]any)["mix"].(map[string]any)["items"].(map[string]any)
	op := mix["properties"].(map[string]any)["op"].(map[string]any)
	if enum := op["enum"].([]any); len(enum) != len(Ops) {
		t.Errorf("op enum %v, want %v", enum, Ops)
	}
	if mix["additionalProperties"] != false {
		t.Error("operations must not allow unknown keys")
	}
	// Every yaml-tagged field has a description.
	var walk func(reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Slice || ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || scalarSchemas[ty] != nil {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			name := f.Tag.Get("yaml")
			if name == "" || name == "-" {
				continue
			}
			if f.Tag.Get("doc") == "" {
				t.Errorf("%s.%s has no doc tag", ty.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Scenario{}))
	walk(reflect.TypeOf(Field{}))
}

// The patterns of the schema accept every value used in the ready scenarios.
func TestSchemaPatternsAcceptReadyScenarios(t *testing.T) {
	pattern := func(ty reflect.Type) *regexp.Regexp {
		s := scalarSchemas[ty]
		if p, ok := s["pattern"].(string); ok {
			return regexp.MustCompile(p)
		}
		return nil
	}
	dist, retry := pattern(reflect.TypeOf(Distribution(""))), pattern(reflect.TypeOf(Retry{}))
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var doc map[string]any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		w, _ := doc["workload"].(map[string]any)
		if d, ok := w["distribution"].(string); ok && !dist.MatchString(d) {
			t.Errorf("%s: schema rejects distribution %q", f, d)
		}
		if r, ok := w["retry"].(string); ok && !retry.MatchString(r) {
			t.Errorf("%s: schema rejects retry %q", f, r)
		}
		if !strings.HasSuffix(f, ".yaml") {
			t.Errorf("%s", f)
		}
	}
}
