package scenario

import (
	"encoding/json"
	"reflect"
	"strings"
)

// SchemaID is the $id of the scenario JSON Schema.
const SchemaID = "https://github.com/tablestress/tablestress/schema/scenario.json"

// JSONSchema returns a JSON Schema (draft 2020-12) of the scenario format,
// generated from the Scenario struct and its doc and enum tags, so editors
// (e.g. the YAML language server) can complete and check scenario files.
func JSONSchema() ([]byte, error) {
	root := schemaOf(reflect.TypeOf(Scenario{}))
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "tablestress scenario"
	return json.MarshalIndent(root, "", "  ")
}

type obj = map[string]any

// scalarSchemas describes the value types that parse themselves.
var scalarSchemas = map[reflect.Type]obj{
	reflect.TypeOf(Duration(0)): {"type": "string", "pattern": `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`, "examples": []string{"30s", "1m30s", "250ms"}},
	reflect.TypeOf(Span(0)):     {"type": "string", "pattern": `^(([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+|[0-9]+(\.[0-9]+)?d)$`, "examples": []string{"72h", "3d"}},
	reflect.TypeOf(Rate(0)): {"anyOf": []obj{{"type": "number", "minimum": 0},
		{"type": "string", "pattern": `^[0-9.]+\s*(/\s*[smh])?$`}}, "examples": []any{2000, "2000/s", "120/m"}},
	reflect.TypeOf(Size(0)): {"anyOf": []obj{{"type": "integer", "minimum": 0},
		{"type": "string", "pattern": `^[0-9.]+\s*(B|KiB|MiB|GiB|KB|MB|GB)?$`}}, "examples": []any{"512B", "1KiB"}},
	reflect.TypeOf(Count(0)): {"anyOf": []obj{{"type": "integer", "minimum": 0},
		{"type": "string", "pattern": `^[0-9_.]+[kKMG]?$`}}, "examples": []any{20000, "20k", "1M"}},
	reflect.TypeOf(Time{}): {"type": "string", "format": "date-time"},
	reflect.TypeOf(Distribution("")): {"type": "string",
		"pattern":  `^\s*(uniform|sequential|single(\(\s*[0-9]+\s*\))?|(zipf|zipfian|latest)(\(\s*[0-9.]+\s*\))?|hotspot\(\s*[0-9.]+\s*,\s*[0-9.]+\s*\))\s*$`,
		"examples": []string{"uniform", "zipf(0.99)", "hotspot(0.2,0.8)", "latest"}},
	reflect.TypeOf(Retry{}): {"type": "string",
		"pattern":  `^\s*(none|fixed\([^,]+,[^,]+\)|exponential\([^,]+,[^,]+,[^,]+,[^,]+\))\s*$`,
		"examples": []string{"none", "fixed(200ms,3)", "exponential(1s,100ms,10s,5)"}},
}

func schemaOf(t reflect.Type) obj {
	if s, ok := scalarSchemas[t]; ok {
		return s
	}
	if s, ok := projectionSchema(t); ok {
		return s
	}
	if t == thresholdType {
		return obj{"anyOf": []obj{{"type": "string"}, schemaOfStruct(t)}}
	}
	if t == fieldsType {
		return obj{"type": "object", "additionalProperties": schemaOf(reflect.TypeOf(Field{})),
			"propertyNames": obj{"pattern": `^[A-Za-z_][A-Za-z0-9_]*$`}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem())
	case reflect.String:
		return obj{"type": "string"}
	case reflect.Bool:
		return obj{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return obj{"type": "integer"}
	case reflect.Float64:
		return obj{"type": "number"}
	case reflect.Slice:
		return obj{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Struct:
		return schemaOfStruct(t)
	}
	return obj{}
}

func schemaOfStruct(t reflect.Type) obj {
	{
		props := obj{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			p := obj{}
			for k, v := range schemaOf(f.Type) {
				p[k] = v
			}
			if doc := f.Tag.Get("doc"); doc != "" {
				p["description"] = doc
			}
			if enum := f.Tag.Get("enum"); enum != "" {
				p["enum"] = strings.Split(enum, ",")
			}
			props[name] = p
		}
		return obj{"type": "object", "properties": props, "additionalProperties": false}
	}
}
