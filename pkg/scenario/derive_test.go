package scenario

import "testing"

const deriveSrc = `name: derive
population:
  entities: 1000
  fields:
    device: {kind: id, count: 10, prefix: d, width: 2}
schemes:
  - name: own
    partition_key: "{device}"
    row_key: "{ticks}"
questions:
  - {name: dropped, known: [device], want: all}
  - {name: kept, known: [device], want: newest, limit: 5}
workload:
  rate: 100/s
  mix:
    - {question: dropped, weight: 1}
    - {op: range_query, rows: 20, weight: 2}
    - {question: kept, weight: 3}
`

// A derived scenario reads as the file with the same edits would: a
// scheme made in memory gives what it sets, the own scheme moved keeps
// what the file gave, and the kept questions and mix entries keep theirs
// at their new places; it validates, and the scenario it came from is as
// it was.
func TestDeriveMovesWhatTheFileGave(t *testing.T) {
	s, errs := Parse("derive.yaml", []byte(deriveSrc))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	made := Scheme{Name: "made", PartitionKey: "all", RowKey: "{device}_{ticks}"}
	d := s.Derive([]SchemeFrom{{Own: -1, Scheme: made}, {Own: 0}}, []string{"dropped"})
	if errs := d.Validate(); len(errs) > 0 {
		t.Fatalf("the derived scenario does not validate: %v", errs)
	}
	if len(d.Schemes) != 2 || d.Schemes[0].Name != "made" || d.Schemes[1].Name != "own" {
		t.Errorf("schemes %+v", d.Schemes)
	}
	if len(d.Questions) != 1 || d.Questions[0].Name != "kept" || len(d.Workload.Mix) != 2 || d.Workload.Mix[0].Op != "range_query" {
		t.Errorf("questions %+v, mix %+v", d.Questions, d.Workload.Mix)
	}
	for path, want := range map[string]bool{
		"schemes[0].partition_key": true, "schemes[1].row_key": true, "schemes[1].rows": false,
		"questions[0].limit": true, "questions[1].want": false,
		"workload.mix[0].rows": true, "workload.mix[1].rows": false, "workload.mix[1].question": true, "workload.mix[2].weight": false,
	} {
		if d.Given(path) != want {
			t.Errorf("derived: given %s is %v, want %v", path, d.Given(path), want)
		}
	}
	if len(s.Schemes) != 1 || len(s.Questions) != 2 || len(s.Workload.Mix) != 3 || !s.Given("workload.mix[2].question") || s.Given("schemes[1].row_key") {
		t.Error("Derive changed the scenario it came from")
	}
}
