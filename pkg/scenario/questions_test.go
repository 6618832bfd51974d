package scenario

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

const withQuestions = `
population:
  entities: 100
schemes:
  - builtin: device-date
questions:
  - {name: newest-by-device, known: [device], want: newest, limit: 50}
  - {name: reading, known: [device, time], want: one}
  - {name: last-hour, want: all, window: 1h}
workload:
  mix:
    - {question: newest-by-device, weight: 3}
    - {op: question, question: reading}
    - op: insert
thresholds:
  - p99(question:newest-by-device) < 50ms
`

func TestQuestionsDecodeAndCompile(t *testing.T) {
	s, errs := Parse("q.yaml", []byte(withQuestions))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Workload.Mix[0].Op != "question" || s.Workload.Mix[0].Question != "newest-by-device" {
		t.Errorf("mix[0]: %+v, want op question defaulted", s.Workload.Mix[0])
	}
	pop, _, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := s.CompileQuestions(pop)
	if err != nil || len(qs) != 3 || qs[0].Limit != 50 || string(qs[2].Want) != "all" {
		t.Fatalf("CompileQuestions: %v %+v", err, qs)
	}
}

// Every mistake in questions, their mix entries and their thresholds is
// reported at once at its line and column.
func TestQuestionErrorsAtTheirPlace(t *testing.T) {
	bad := strings.NewReplacer(
		"known: [device], want: newest, limit: 50", "known: [device, colour], want: newest, limit: 50",
		"known: [device, time], want: one", "known: [device], want: one",
		"want: all, window: 1h", "want: all, window: fortnight, limit: 3",
		"{op: question, question: reading}", "{op: question, question: redaing}",
		"p99(question:newest-by-device)", "p99(question:newest)",
	).Replace(withQuestions)
	_, errs := Parse("q.yaml", []byte(bad))
	want := []string{
		`q.yaml:7:46: questions[0].known[1]: "colour" is not a field`,
		`q.yaml:8:28: questions[1].known: want: one needs a field that tells entities apart`,
		`q.yaml:9:42: questions[2].window: "fortnight": use minute, hour, day, month or year`,
		`q.yaml:9:60: questions[2].limit: limit applies to newest and oldest, not to all`,
		`q.yaml:13:32: workload.mix[1].question: "redaing" is not one of the scenario's questions (newest-by-device, reading, last-hour)`,
		`q.yaml:16:5: thresholds[0]: "p99(question:newest) < 50ms": unknown operation "question:newest"`,
	}
	wantErrors(t, errs, want)
}

// A misspelt field in known is one error, at the misspelling, naming the
// declared fields: not also advice on what the misspelt list identifies.
func TestKnownTypoIsOneErrorAtItsPlace(t *testing.T) {
	src := strings.Replace(withQuestions, "known: [device, time], want: one", "known: [device, tme], want: one", 1)
	_, errs := Parse("q.yaml", []byte(src))
	wantErrors(t, errs, []string{`q.yaml:8:37: questions[1].known[1]: "tme" is not a field; the application can know a declared field (`})
	for _, e := range errs {
		if strings.Contains(e.Error(), "shared by many entities") {
			t.Errorf("advice on a misspelt list: %v", e)
		}
	}
}

func TestQuestionNeedsWantAndMixNeedsName(t *testing.T) {
	src := strings.Replace(withQuestions, "{name: last-hour, want: all, window: 1h}", "{name: last-hour, window: 1h}", 1)
	src = strings.Replace(src, "{op: question, question: reading}", "{op: question}", 1)
	_, errs := Parse("q.yaml", []byte(src))
	text := ""
	for _, e := range errs {
		text += e.Error() + "\n"
	}
	for _, w := range []string{"q.yaml:9:5: questions[2]: a question needs want", "q.yaml:13:7: workload.mix[1]: op question needs question: NAME"} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

const withPicks = `
population:
  entities: 100
  fields:
    user: {kind: id, count: 50}
    id: {kind: guid}
questions:
  - {name: feed, known: [user], want: newest, limit: 5, pick: {user: uniform}, select: [user]}
schemes:
  - name: s
    partition_key: "{user}"
    row_key: "{inverted_ticks}"
    rows: ["ID_{id}"]
    indexes:
      - {name: Copy, partition_key: "{hash(id) % 4}", row_key: "{id}", carries: all}
      - {name: Users, partition_key: "{hash(id) % 4}", row_key: "{id}", carries: [user]}
workload:
  mix:
    - {question: feed}
`

// A question's picks and selects, and what an index carries, decode and
// reach the compiled question and scheme; each mistake in them is
// reported at its line and column.
func TestPicksSelectsAndCarries(t *testing.T) {
	s, errs := Parse("p.yaml", []byte(withPicks))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := s.CompileQuestions(pop)
	if err != nil || len(qs[0].Picks()) != 1 || qs[0].Picks()[0].Field != "user" || !qs[0].Selects("user") || qs[0].Selects("id") {
		t.Fatalf("question: %v %+v", err, qs[0])
	}
	ix := schemes[0].Indexes
	if !ix[0].CarriesAll || len(ix[1].Carries) != 1 || !ix[1].Carried("user") || ix[1].Carried("id") {
		t.Errorf("indexes: %+v", ix)
	}
	bad := strings.NewReplacer(
		"pick: {user: uniform}, select: [user]", "pick: {user: zipf(0), id: uniform}, select: [user, user]",
		"carries: all", "carries: everything",
		"carries: [user]", "carries: [colour]",
	).Replace(withPicks)
	_, errs = Parse("p.yaml", []byte(bad))
	want := []string{
		`p.yaml:8:70: questions[0].pick.user: "zipf(0)": the exponent must be in (0, 10]`,
		`p.yaml:8:83: questions[0].pick.id: "id" is not a known field of the question`,
		`p.yaml:8:108: questions[0].select[1]: "user" is selected twice`,
		`p.yaml:15:81: schemes[0].indexes[0].carries: "everything": write all (a copy of the entity) or a list`,
		`p.yaml:16:82: schemes[0].indexes[1].carries: "colour" is not a field`,
	}
	wantErrors(t, errs, want)
}

// wantErrors checks that errs are, in order, errors whose text starts
// with each of want.
func wantErrors(t *testing.T, errs []error, want []string) {
	t.Helper()
	got := make([]string, len(errs))
	for i, e := range errs {
		got[i] = e.Error()
	}
	if len(got) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], w)
		}
	}
}

// A window anchored at the picked entity is valid and warned of, at its
// line: a dashboard asks of now, the default.
func TestAnchorPickedWarns(t *testing.T) {
	src := strings.Replace(messagesBase, "want: newest, limit: 10}", "want: newest, limit: 10, window: day, anchor: picked}", 1)
	sc, errs := Parse("a.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w := strings.Join(sc.Warnings(), "\n")
	if !strings.Contains(w, "a.yaml:22:93:") || !strings.Contains(w, "questions[0].anchor: the window ends at the picked entity's event time") {
		t.Errorf("warnings %q", w)
	}
	qs, err := sc.CompileQuestions(mustPop(t, sc))
	if err != nil || !qs[0].AnchoredAt() {
		t.Errorf("compiled %v, anchored at the picked entity: %v", err, err == nil && qs[0].AnchoredAt())
	}
}

// mustPop is the scenario's population.
func mustPop(t *testing.T, sc *Scenario) *keygen.Population {
	t.Helper()
	pop, _, err := sc.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return pop
}
