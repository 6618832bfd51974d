package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const minimal = `
population:
  entities: 100
schemes:
  - builtin: device-date
workload:
  mix:
    - op: point_read
`

func TestMinimalScenarioGetsDefaults(t *testing.T) {
	s, errs := Parse("min.yaml", []byte(minimal))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w := s.Workload
	if w.Duration.D() != DefaultDuration || w.Workers != DefaultWorkers || w.Timeout.D() != DefaultTimeout ||
		w.Distribution != "uniform" || w.Retry.Kind != "none" || w.Mix[0].Weight != 1 {
		t.Errorf("defaults not applied: %+v", w)
	}
	if s.Seed != DefaultSeed || s.Population.Interval.D() != DefaultInterval || !s.Population.Start.Equal(DefaultStart) || s.Population.Payload != DefaultPayload {
		t.Errorf("population defaults not applied: %+v", s.Population)
	}
	if s.Schemes[0].Name != "device-date" || s.DisplayName() != "min" {
		t.Errorf("names: scheme %q display %q", s.Schemes[0].Name, s.DisplayName())
	}
	pop, schemes, err := s.Compile()
	if err != nil || !pop.HasField("device") || len(schemes) != 1 {
		t.Errorf("Compile: %v (fields %v)", err, pop.Fields())
	}
}

func TestExplicitZeroIsKept(t *testing.T) {
	s, errs := Parse("z.yaml", []byte(minimal+"  warmup: 0s\n"+`seed: 0
`))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Seed != 0 {
		t.Errorf("seed: 0 was replaced by %d", s.Seed)
	}
	s, errs = Parse("z.yaml", []byte(strings.Replace(minimal, "entities: 100", "entities: 100\n  payload: 0B", 1)))
	if len(errs) > 0 || s.Population.Payload != 0 {
		t.Errorf("payload: 0B gave %d %v", s.Population.Payload, errs)
	}
}

// The acceptance case: three different mistakes, all reported with
// line and column in one pass.
func TestThreeMistakesReportedTogether(t *testing.T) {
	src := `population:
  entities: 100
schemes:
  - name: mine
    partition_key: "{devise}_{time:yyyy-MM-dd}"
    row_key: "{inverted_ticks}"
workload:
  duration: 30 seconds
  mix:
    - op: point_read
      wieght: 3
`
	_, errs := Parse("bad.yaml", []byte(src))
	got := joinErrs(errs)
	want := []string{
		`bad.yaml:5:21: schemes[0].partition_key: "devise" is not a field`, // col 20 is the quote, 21 the brace
		`bad.yaml:8:13: workload.duration: "30 seconds" is not a duration`,
		`bad.yaml:11:7: workload.mix[0].wieght: unknown field "wieght" in workload.mix[0]; did you mean "weight"?`,
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if len(errs) != 3 {
		t.Errorf("got %d errors, want exactly 3:\n%s", len(errs), got)
	}
}

func joinErrs(errs []error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"list for scalar", minimal + "  workers: [1, 2]\n", `workload.workers: expected a single value (like 20, 30s or a word), found a list`},
		{"scalar for list", strings.Replace(minimal, "  mix:\n    - op: point_read", "  mix: point_read", 1), `workload.mix: expected a list`},
		{"not a number", minimal + "  workers: many\n", `workload.workers: "many" is not a whole number`},
		{"not a bool", strings.Replace(minimal, "- op: point_read", "- op: range_query\n      across_partitions: yes please", 1), `is not a boolean`},
		{"duplicate key", minimal + "  workers: 2\n  workers: 3\n", `"workers" is given twice (first on line`},
		{"unknown top-level", "populaton:\n  entities: 1\n" + minimal, `unknown field "populaton" in the scenario; did you mean "population"?`},
		{"unknown, no suggestion", minimal + "  zzzzzz: 1\n", "known fields: distribution, duration"},
		{"mapping expected", "population: 5\n", "expected a mapping with keys such as entities"},
		{"yaml syntax", "population:\n  entities: [1,\n", "YAML syntax"},
		{"empty", "", "the file is empty"},
		{"two documents", minimal + "---\n" + minimal, "several YAML documents"},
		{"bad distribution", minimal + "  distribution: zipf(-1)\n", `t.yaml:9:17: workload.distribution: "zipf(-1)": the exponent must be in (0, 10], like zipf(0.99) or zipf(1.2)`},
		{"unknown distribution", minimal + "  distribution: pareto\n", `t.yaml:9:17: workload.distribution: "pareto" is not a distribution; use one of uniform, zipf`},
		{"bad field distribution", strings.Replace(minimal, "entities: 100", "entities: 100\n  fields:\n    d: {kind: id, count: 3, distribution: zipf(0)}", 1),
			`t.yaml:5:43: population.fields.d.distribution: "zipf(0)": the exponent must be in (0, 10], like zipf(0.99) or zipf(1.2)`},
		{"bad retry", minimal + "  retry: sometimes\n", `"sometimes" is not a retry strategy`},
		// In {...} a comma ends a plain value: the whole value, quoted, is the hint.
		{"comma in flow mapping", strings.Replace(minimal, "entities: 100", "entities: 100\n  fields:\n    c: {kind: id, count: 10, distribution: hotspot(0.2,0.8)}", 1),
			`"hotspot(0.2" was cut at a comma: inside {...} a comma ends a value, so quote it: distribution: "hotspot(0.2,0.8)"`},
		{"duplicate field", "population:\n  fields:\n    a: {kind: guid}\n    a: {kind: guid}\n" + strings.TrimPrefix(minimal, "\npopulation:\n  entities: 100\n"), `field "a" is declared twice`},
	}
	for _, tt := range tests {
		_, errs := Parse("t.yaml", []byte(tt.src))
		if got := joinErrs(errs); !strings.Contains(got, tt.want) {
			t.Errorf("%s: want %q in:\n%s", tt.name, tt.want, got)
		}
		for _, e := range errs {
			if !regexp.MustCompile(`^t\.yaml:\d+:\d+: `).MatchString(e.Error()) {
				t.Errorf("%s: %q lacks FILE:LINE:COL", tt.name, e)
			}
		}
	}
}

func TestValidateErrors(t *testing.T) {
	base := `population:
  entities: 100
  fields:
    path: {kind: choice, values: [ok, "a/b"]}
schemes:
  - builtin: device-date
workload:
  mix:
`
	tests := []struct {
		name, extra, want string
	}{
		{"unknown op", "    - op: scan\n", `"scan" is not an operation`},
		{"field of another op", "    - op: insert\n      rows: 5\n", "rows does not apply to insert (only to range_query)"},
		{"filter on a point read", "    - op: point_read\n      filter: \"x eq 1\"\n", "filter does not apply to point_read (only to range_query, partition_scan, table_scan)"},
		{"zero weight", "    - op: insert\n      weight: 0\n", "the weight must be > 0"},
		{"batch too big", "    - op: batch\n      size: 101\n", "1 to 100 operations"},
		{"bad batch kind", "    - op: batch\n      kind: delete\n", `"delete": use insert`},
		{"range rows", "    - op: range_query\n      rows: 5000\n", "use between 1 and 1000"},
		{"missing index", "    - op: range_query\n      index: PostsByTag\n", `has no index table "PostsByTag"`},
		{"bad select", "    - op: point_read\n      select: [\"not ok\"]\n", `"not ok" is not a property name`},
		{"bad threshold", "    - op: insert\nthresholds:\n  - p99(insert) < 20\n", `thresholds[0]: "p99(insert) < 20": a latency needs a unit`},
	}
	for _, tt := range tests {
		_, errs := Parse("v.yaml", []byte(base+tt.extra))
		if got := joinErrs(errs); !strings.Contains(got, tt.want) {
			t.Errorf("%s: want %q in:\n%s", tt.name, tt.want, got)
		}
	}
	// A key template that can generate a forbidden character is refused with the offending value.
	bad := strings.Replace(base, "- builtin: device-date", "- name: slashy\n    partition_key: \"{path}\"\n    row_key: \"{i}\"", 1) + "    - op: insert\n"
	_, errs := Parse("v.yaml", []byte(bad))
	if got := joinErrs(errs); !strings.Contains(got, `v.yaml:7:21: schemes[0].partition_key: can generate "a/b": '/' is not allowed`) {
		t.Errorf("forbidden character not reported at the template:\n%s", got)
	}
	// Workers, duration, scheme problems.
	src := "population:\n  entities: 1\nschemes:\n  - builtin: nosuch\n  - name: x\n    partition_key: a\nworkload:\n  workers: 0\n  duration: 0s\n  mix:\n    - op: insert\n"
	_, errs = Parse("v.yaml", []byte(src))
	got := joinErrs(errs)
	for _, w := range []string{`"nosuch" is not a built-in scheme`, "needs builtin, or both partition_key and row_key", "0 workers", "needs a duration > 0"} {
		if !strings.Contains(got, w) {
			t.Errorf("want %q in:\n%s", w, got)
		}
	}
}

func TestCollisionWarning(t *testing.T) {
	src := strings.Replace(minimal, "- builtin: device-date", "- builtin: device-unix", 1)
	src = strings.Replace(src, "entities: 100", "entities: 5000\n  interval: 100ms", 1)
	s, errs := Parse("w.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(s.Warnings()) != 1 || !strings.Contains(s.Warnings()[0], "409 EntityAlreadyExists") {
		t.Errorf("warnings = %q", s.Warnings())
	}
}

func TestReadyScenariosValidate(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	if len(files) == 0 {
		t.Fatal("no scenarios found")
	}
	for _, f := range files {
		s, errs := Load(f)
		if len(errs) > 0 {
			t.Errorf("%s:\n%s", f, joinErrs(errs))
			continue
		}
		if s.Description == "" {
			t.Errorf("%s: a ready scenario must describe what it demonstrates", f)
		}
		data, _ := os.ReadFile(f)
		if !strings.HasPrefix(string(data), "#") {
			t.Errorf("%s: a ready scenario starts with a comment saying what it demonstrates and the expected outcome", f)
		}
	}
}

func TestStagesSetDuration(t *testing.T) {
	s, errs := Parse("s.yaml", []byte(minimal+"  stages:\n    - {duration: 10s, rate: 100}\n    - {duration: 5s, rate: 0}\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Workload.Duration.D() != 15*time.Second || s.Workload.Stages[0].Rate != 100 {
		t.Errorf("stages: %+v", s.Workload)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte("population: {fields: {a: {kind: id, count: 3}}}\nschemes: [{name: x, partition_key: '{a}', row_key: '{i}'}]\nworkload: {mix: [{op: batch, size: 3}]}"))
	f.Add([]byte("a: &x [1]\nb: *x\n"))
	if data, err := os.ReadFile("../../scenarios/quickstart.yaml"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, errs := Parse("f.yaml", data)
		if (s == nil) == (len(errs) == 0) {
			t.Fatalf("Parse returned scenario=%v with %d errors", s != nil, len(errs))
		}
		for _, e := range errs {
			if e == nil || e.Error() == "" {
				t.Fatal("empty error")
			}
		}
	})
}

// Every problem at once: a scheme without a template does not hide the
// next scheme's template problems, and a template reports each of its own.
func TestValidateReportsEverySchemeProblem(t *testing.T) {
	src := `
population:
  entities: 100
  fields:
    device: {kind: id, count: 10}
schemes:
  - name: a
    row_key: "{i}"
  - name: b
    partition_key: "{nosuch}_{device:zz}_{alsonot}"
    row_key: "{i}/x"
workload:
  duration: 5s
  stages: [{duration: 3s, rate: 10}]
  mix:
    - {op: point_read}
`
	_, errs := Parse("s.yaml", []byte(src))
	want := []string{
		"s.yaml:7:5: schemes[0]: a scheme needs builtin",
		`s.yaml:10:21: schemes[1].partition_key: "nosuch" is not a field`,
		`s.yaml:10:30: schemes[1].partition_key: "zz" is not a number format`,
		`s.yaml:10:42: schemes[1].partition_key: "alsonot" is not a field`,
		"s.yaml:11:18: schemes[1].row_key: '/' is not allowed in keys",
		"s.yaml:13:13: workload.duration: 5s, but the stages last 3s",
	}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d: %q, want it to start with %q", i, errs[i], w)
		}
	}
}

// A value cut at a comma in a flow mapping is one problem, not also an
// unknown field named after the rest of the value.
func TestCommaInFlowMappingIsOneError(t *testing.T) {
	src := strings.Replace(minimal, "entities: 100", "entities: 100\n  fields:\n    c: {kind: id, count: 10, distribution: hotspot(0.2,0.8)}", 1)
	_, errs := Parse("t.yaml", []byte(src))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `quote it: distribution: "hotspot(0.2,0.8)"`) {
		t.Errorf("want one error with the quoted value, got:\n%s", joinErrs(errs))
	}
	quoted := strings.Replace(src, "hotspot(0.2,0.8)", `"hotspot(0.2,0.8)"`, 1)
	if _, errs := Parse("t.yaml", []byte(quoted)); len(errs) != 0 {
		t.Errorf("quoted, the value is fine: %s", joinErrs(errs))
	}
}
