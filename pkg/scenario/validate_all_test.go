package scenario

import (
	"strings"
	"testing"
)

// Every problem validation finds in the workload and in the schemes is
// reported at once, in file order, at the line and column of the value,
// with the message that says what would be right.
func TestValidateReportsEveryWorkloadAndSchemeProblem(t *testing.T) {
	src := `population:
  entities: 0
schemes:
  - builtin: device-date
    row_key: "{i}"
  - builtin: nosuch
  - name: device-date
    partition_key: "p"
    row_key: "{i}"
  - partition_key: "q"
    row_key: "{i}"
  - name: big
    partition_key: "p"
    row_key: "{i}"
    rows: ["X{i}", "Y{i}"]
workload:
  workers: 0
  timeout: 0s
  rate: 0
  duration: 10s
  stages: [{duration: 0s, rate: 5}, {duration: 4s, rate: 9}]
  target_partitions: ["a/b", "ok"]
  mix:
    - {op: scan}
    - {op: insert, rows: 5, weight: 0}
    - {op: range_query, rows: 5000, from: middle, max_pages: -1, index: nosuch}
    - {op: batch, size: 40, kind: delete}
    - {op: point_read, select: ["not ok", "Fine"]}
    - {op: batch, size: 200, kind: insert}
`
	want := []string{
		`v.yaml:4:14: schemes[0].builtin: a built-in scheme brings its own templates: remove partition_key/row_key/rows/indexes, or drop builtin to write your own`,
		`v.yaml:6:14: schemes[1].builtin: "nosuch" is not a built-in scheme; built-ins are append-only, bib-age,`,
		`v.yaml:7:11: schemes[2].name: scheme name "device-date" is already used by schemes[0]`,
		`v.yaml:10:5: schemes[3]: a scheme with its own templates needs a name`,
		`v.yaml:17:12: workload.workers: 0 workers: use between 1 and 10000`,
		`v.yaml:18:12: workload.timeout: the request timeout must be > 0, like 10s`,
		`v.yaml:19:9: workload.rate: rate 0 with stages: give the starting rate, or leave rate out to start from 0`,
		`v.yaml:20:13: workload.duration: 10s, but the stages last 4s: a staged run lasts as long as its stages; leave duration out (--duration scales the stages)`,
		`v.yaml:21:23: workload.stages[0].duration: a stage needs a duration > 0`,
		`v.yaml:22:23: workload.target_partitions[0]: key "a/b": '/' is not allowed in keys (Azure forbids / \ # ?)`,
		`v.yaml:24:12: workload.mix[0].op: "scan" is not an operation; use one of point_read, range_query,`,
		`v.yaml:25:26: workload.mix[1].rows: rows does not apply to insert (only to range_query)`,
		`v.yaml:25:37: workload.mix[1].weight: the weight must be > 0`,
		`v.yaml:26:31: workload.mix[2].rows: 5000 rows: use between 1 and 1000 (one page)`,
		`v.yaml:26:43: workload.mix[2].from: "middle": use entity (from the picked entity's RowKey) or start (from the start of its partition)`,
		`v.yaml:26:62: workload.mix[2].max_pages: max_pages must be >= 0 (0 reads every page)`,
		`v.yaml:26:73: workload.mix[2].index: scheme "device-date" has no index table "nosuch"`,
		`v.yaml:26:73: workload.mix[2].index: the unnamed schemes[3] has no index table "nosuch"`,
		`v.yaml:26:73: workload.mix[2].index: scheme "big" has no index table "nosuch"`,
		`v.yaml:27:25: workload.mix[3].size: 40 entities × 3 rows per entity under scheme "big" is 120 operations; an entity group transaction holds at most 100`,
		`v.yaml:27:35: workload.mix[3].kind: "delete": use insert, upsert_merge, upsert_replace or mixed`,
		`v.yaml:28:33: workload.mix[4].select[0]: "not ok" is not a property name`,
		`v.yaml:29:25: workload.mix[5].size: 200 entities × 1 rows per entity under scheme "device-date" is 200 operations; an entity group transaction holds at most 100`,
		`v.yaml:29:25: workload.mix[5].size: 200 entities × 1 rows per entity under the unnamed schemes[3] is 200 operations; an entity group transaction holds at most 100`,
		`v.yaml:29:25: workload.mix[5].size: 200 entities × 3 rows per entity under scheme "big" is 600 operations; an entity group transaction holds at most 100`,
		`v.yaml:29:25: workload.mix[5].size: 200: an entity group transaction holds 1 to 100 operations`,
	}
	_, errs := Parse("v.yaml", []byte(src))
	wantErrors(t, errs, want)
}

// A mix that only reads or changes existing entities needs a seed phase
// that writes some.
func TestValidateNeedsEntitiesToRead(t *testing.T) {
	src := strings.Replace(minimal, "entities: 100", "entities: 0", 1)
	_, errs := Parse("n.yaml", []byte(src))
	want := "n.yaml:3:13: population.entities: the mix reads or changes existing entities but the seed phase writes none and nothing inserts: set entities > 0"
	if len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("got %v, want %s", errs, want)
	}
	if _, errs := Parse("n.yaml", []byte(src+"    - op: insert\n")); len(errs) != 0 {
		t.Errorf("a mix that inserts needs no seed phase: %v", errs)
	}
}

// A scheme with templates but no name is told so once, at the scheme; it
// is still compiled and checked, so its other problems come at once, and
// each names it by its place in the file, never as a scheme "".
func TestValidateNamelessScheme(t *testing.T) {
	src := `population:
  entities: 100
schemes:
  - partition_key: "{device"
    row_key: "{i}"
  - partition_key: "p"
    row_key: "r"
workload:
  mix:
    - {op: range_query, index: byday}
`
	want := []string{
		`u.yaml:4:5: schemes[0]: a scheme with its own templates needs a name`,
		`u.yaml:4:21: schemes[0].partition_key: `,
		`u.yaml:6:5: schemes[1]: a scheme with its own templates needs a name`,
		`u.yaml:10:32: workload.mix[0].index: the unnamed schemes[1] has no index table "byday"`,
	}
	_, errs := Parse("u.yaml", []byte(src))
	got := make([]string, len(errs))
	for i, e := range errs {
		got[i] = e.Error()
		if strings.Contains(got[i], `""`) {
			t.Errorf("error %d names a scheme \"\": %s", i, got[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("error %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
}
