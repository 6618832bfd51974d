package question

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// feedPop is a notification feed: users, kinds and a GUID id per entity.
func feedPop(t *testing.T) *keygen.Population {
	t.Helper()
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 3, Start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Interval: time.Second,
		Fields: []keygen.FieldSpec{
			{Name: "user", Kind: "id", Count: 40},
			{Name: "kind", Kind: "choice", Values: []string{"like", "follow", "mention"}},
			{Name: "id", Kind: "guid"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return pop
}

func scheme(t *testing.T, pop *keygen.Population, spec keygen.SchemeSpec) *keygen.Scheme {
	t.Helper()
	s, err := keygen.CompileScheme(pop, spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A secondary row is an access path: the one notification by user and id
// is a point read of its ID_ row, the newest of a user a range of the
// main rows; an index whose rows carry the entity answers alone, and one
// carrying a field may filter on it.
func TestSecondaryRowsAndProjections(t *testing.T) {
	pop := feedPop(t)
	feed := scheme(t, pop, keygen.SchemeSpec{Name: "feed", PartitionKey: "{user}", RowKey: "T_{inverted_ticks}", Rows: []string{"ID_{id}"},
		Indexes: []keygen.IndexSpec{
			{Name: "ByKind", PartitionKey: "{kind}", RowKey: "{inverted_ticks}", CarriesAll: true},
			{Name: "ByKindUser", PartitionKey: "{kind}", RowKey: "{inverted_ticks}", Carries: []string{"user"}},
		}})
	plain := scheme(t, pop, keygen.SchemeSpec{Name: "plain", PartitionKey: "{user}", RowKey: "{inverted_ticks}",
		Indexes: []keygen.IndexSpec{{Name: "ByKind", PartitionKey: "{kind}", RowKey: "{inverted_ticks}"}}})
	one := Spec{Name: "one", Known: []string{"user", "id"}, Want: One}
	newest := Spec{Name: "newest", Known: []string{"user"}, Want: Newest, Limit: 5}
	kind := Spec{Name: "kind", Known: []string{"kind"}, Want: Newest, Limit: 5}
	kindOfUser := Spec{Name: "kind-of-user", Known: []string{"kind", "user"}, Want: Newest, Limit: 5, Select: []string{"user"}}
	for _, c := range []struct {
		s     *keygen.Scheme
		q     Spec
		label string
		fetch bool
	}{
		{feed, one, "point", false},
		{plain, one, "scan", false},
		{feed, newest, "range", false},
		{feed, kind, "index ByKind", false},       // a copy of the entity: no point read after it
		{plain, kind, "index ByKind", true},       // a pointer: a point read per entity
		{feed, kindOfUser, "index ByKind", false}, // the copy carries user too, and comes first
		{plain, kindOfUser, "scan", false},        // the pointer carries no user to filter on
	} {
		p := Derive(question(t, pop, c.q), c.s)
		if p.Label() != c.label || p.acc.fetches != c.fetch {
			t.Errorf("%s under %s: %s (fetches %v; %s), want %s (fetches %v)", c.q.Name, c.s.Name, p.Label(), p.acc.fetches, p.Why, c.label, c.fetch)
		}
	}
	p := Derive(question(t, pop, one), feed)
	if !strings.Contains(p.Why, "secondary row ID_{id}") {
		t.Errorf("the point read does not say it reads the secondary row: %s", p.Why)
	}
	// Each of them answers exactly what the population model says.
	const n = 600
	var e keygen.Entity
	st := keygen.NewStream(4, 5)
	for _, s := range []*keygen.Scheme{feed, plain} {
		m := NewModel(pop, s, n)
		for _, spec := range []Spec{one, newest, kind, kindOfUser} {
			p := Derive(question(t, pop, spec), s)
			for k := 0; k < 6; k++ {
				pop.Entity(st.Int64n(n), &e)
				rows, cost, err := m.Ask(context.Background(), p, &e, BoundsOf(pop, n))
				if err != nil {
					t.Fatal(err)
				}
				if got, want := seqs(rows, false), p.Question.Expected(&e, n); !slices.Equal(got, want) {
					t.Errorf("%s under %s (%s): %v, want %v", spec.Name, s.Name, p.Label(), head(got), head(want))
				}
				if p.Kind == Point && (cost.Requests != 1 || cost.Visited != 1) {
					t.Errorf("%s under %s: a point read cost %+v", spec.Name, s.Name, cost)
				}
			}
		}
	}
}

// A pick draws a known field's value by its own law; it applies to a
// question that does not want one entity, names a known field with a
// finite set of values, and parses; a select names declared fields.
func TestPicks(t *testing.T) {
	pop := feedPop(t)
	q := question(t, pop, Spec{Name: "feed", Known: []string{"user"}, Want: Newest, Limit: 5, Pick: []Pick{{Field: "user", Law: "single(7)"}}})
	var e keygen.Entity
	pop.Entity(3, &e)
	st := keygen.NewStream(1, 1)
	q.ApplyPicks(&e, q.DrawPicks(&st, nil), 2)
	if v, _ := pop.Value(&e, "user"); v.Num != 7 {
		t.Errorf("picked user %v, want 7", v)
	}
	for _, c := range []struct {
		spec Spec
		says string
	}{
		{Spec{Name: "a", Known: []string{"user", "id"}, Want: One, Pick: []Pick{{"user", "uniform"}}}, "remove pick, or want newest"},
		{Spec{Name: "b", Known: []string{"user"}, Want: All, Pick: []Pick{{"kind", "uniform"}}}, "not a known field"},
		{Spec{Name: "c", Known: []string{"id"}, Want: All, Pick: []Pick{{"id", "uniform"}}}, "no finite set of values"},
		{Spec{Name: "d", Known: []string{"user"}, Want: All, Pick: []Pick{{"user", "zipf(0)"}}}, "pick.user"},
		{Spec{Name: "e", Known: []string{"user"}, Want: All, Select: []string{"colour"}}, `"colour" is not a field`},
	} {
		if _, err := Compile(pop, c.spec); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want %q", c.spec, err, c.says)
		}
	}
}
