package main

import (
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/manual"
	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/threshold"
)

// The manual against the formats tablestress writes and reads: every
// field of the JSON documents, of the CSV files, of the scenario format and
// every threshold metric is on its page, and every name the page gives as
// one is real.

// jsonNames returns the JSON member names of the types, through structs
// (embedded ones flattened), pointers, slices and map values.
func jsonNames(types ...reflect.Type) map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t == reflect.TypeFor[time.Time]() {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-" || !f.IsExported():
				continue
			case f.Anonymous && name == "":
				walk(f.Type)
				continue
			case name == "":
				name = f.Name
			}
			names[name] = true
			walk(f.Type)
		}
	}
	for _, t := range types {
		walk(t)
	}
	return names
}

var memberRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkNames holds a section of the manual to a set of names: each name
// is a code span of the section, and each code span of the section shaped
// like a name is one of them (or one of the values the section also
// quotes).
func checkNames(t *testing.T, page, anchor, what string, names map[string]bool, values ...string) {
	t.Helper()
	sec, line, ok := manualPage(t, page).Section(anchor)
	if !ok {
		t.Fatalf("%s has no section #%s", page, anchor)
	}
	spans := map[string]bool{}
	isValue := map[string]bool{}
	for _, v := range values {
		isValue[v] = true
	}
	for _, s := range sec.Spans() {
		spans[s.Text] = true
		if memberRE.MatchString(s.Text) && !names[s.Text] && !isValue[s.Text] {
			t.Errorf("%s:%d: `%s` is documented as %s, which has no such member", s.Page, s.Line, s.Text, what)
		}
	}
	var missing []string
	for n := range names {
		if !spans[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		t.Errorf("%s:%d (#%s): %s's `%s` is not documented", page, line, anchor, what, n)
	}
}

func TestManualReportFields(t *testing.T) {
	names := jsonNames(reflect.TypeFor[report.Report](), reflect.TypeFor[report.Compare]())
	if !names["rows_visited_from"] || !names["charged_requests"] || !names["limit_ops_per_sec"] {
		t.Fatalf("the report's members were not all found: %v", names)
	}
	checkNames(t, "docs/reports.md", "the-json-report", "the JSON report", names,
		"open", "closed", "azure", "point", "range", "fan_out", "scan", "service", "passed", "stopped", // values
		"compare", "question", "abort_on_fail") // a command, an operation, a scenario field
}

func TestManualAdviseFields(t *testing.T) {
	// Advice.Proof is an any: the proof's types are named here.
	names := jsonNames(reflect.TypeFor[advise.Advice](), reflect.TypeFor[advise.Proof]())
	checkNames(t, "docs/choosing-keys.md", "advise---json", "advise --json", names)
}

func TestManualKeysFields(t *testing.T) {
	names := jsonNames(reflect.TypeFor[[]*keysAnalysis]())
	checkNames(t, "docs/choosing-keys.md", "keys---json", "keys --json", names, "compare")
}

func TestManualCSVColumns(t *testing.T) {
	names := map[string]bool{}
	for _, h := range append(append([]string{}, report.CSVHeader...), report.QuestionsCSVHeader...) {
		names[h] = true
	}
	checkNames(t, "docs/reports.md", "csv", "a CSV file", names)
}

// schemaPaths returns every member of the scenario format's JSON Schema as
// a path: a list's items as NAME[], a map's entries as NAME.NAME.
func schemaPaths(t *testing.T) map[string]bool {
	t.Helper()
	data, err := scenario.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	var walk func(node map[string]any, path string)
	walk = func(node map[string]any, path string) {
		if items, ok := node["items"].(map[string]any); ok {
			path += "[]"
			paths[path] = true
			node = items
		}
		for _, alt := range append(asList(node["anyOf"]), asList(node["oneOf"])...) {
			walk(alt.(map[string]any), path)
		}
		if ap, ok := node["additionalProperties"].(map[string]any); ok {
			walk(ap, path+".NAME")
		}
		props, _ := node["properties"].(map[string]any)
		for name, p := range props {
			full := strings.TrimPrefix(path+"."+name, ".")
			paths[full] = true
			walk(p.(map[string]any), full)
		}
	}
	walk(root, "")
	return paths
}

func asList(v any) []any { l, _ := v.([]any); return l }

var pathSpanRE = regexp.MustCompile(`^[a-z_]+(\.|\[\])[a-zA-Z_.\[\]]*$`)

// Every member of the scenario format is in the table of docs/scenarios.md
// (a list's items as NAME[], a field of the population as
// population.fields.NAME.kind), and every path the table gives is one.
func TestManualScenarioFields(t *testing.T) {
	paths := schemaPaths(t)
	if !paths["workload.mix[].etag"] || !paths["thresholds[].abort_on_fail"] || !paths["population.fields.NAME.kind"] {
		t.Fatalf("the schema's members were not all found: %v", paths)
	}
	sec, line, ok := manualPage(t, "docs/scenarios.md").Section("every-field")
	if !ok {
		t.Fatal("docs/scenarios.md has no section #every-field")
	}
	spans := map[string]bool{}
	for _, s := range sec.Spans() {
		spans[s.Text] = true
		if (pathSpanRE.MatchString(s.Text) || paths[s.Text+"[]"]) && !paths[s.Text] {
			t.Errorf("%s:%d: `%s` is no member of the scenario format", s.Page, s.Line, s.Text)
		}
	}
	for p := range paths {
		if !spans[p] && !(strings.HasSuffix(p, "[]") && spans[strings.TrimSuffix(p, "[]")]) {
			t.Errorf("docs/scenarios.md:%d (#every-field): the scenario format's `%s` is not documented", line, p)
		}
	}
}

// Every threshold metric is in the table of docs/scenarios.md#thresholds,
// and the table's first column names metrics only.
func TestManualThresholdMetrics(t *testing.T) {
	sec, line, ok := manualPage(t, "docs/scenarios.md").Section("thresholds")
	if !ok {
		t.Fatal("docs/scenarios.md has no section #thresholds")
	}
	listed := map[string]bool{}
	for _, l := range sec.Lines {
		cells := strings.Split(l, "|")
		if len(cells) < 3 || strings.Contains(cells[1], "---") || strings.TrimSpace(cells[1]) == "metric" {
			continue
		}
		for _, s := range manual.Parse("", cells[1]).Spans() {
			if _, ok := threshold.Metrics[s.Text]; !ok {
				t.Errorf("docs/scenarios.md:%d: `%s` is no threshold metric", line, s.Text)
			}
			listed[s.Text] = true
		}
	}
	for m := range threshold.Metrics {
		if !listed[m] {
			t.Errorf("docs/scenarios.md:%d (#thresholds): the threshold metric %s is not in the table", line, m)
		}
	}
}
