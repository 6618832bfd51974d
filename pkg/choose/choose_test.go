package choose

import "testing"

// Each criterion decides when every one before it ties, in the rule's
// order and direction; a tie within 1% goes on to the next.
func TestDecideByEachCriterionInTurn(t *testing.T) {
	base := Figures{Name: "b", QuestionMs: 10, Bounded: true, MainShare: 1, AccountRequests: 100, AccountEntities: 1000, Busiest: 500}
	for _, tc := range []struct {
		name      string
		x         func(*Figures)
		criterion string
	}{
		{"can be picked before it cannot", func(f *Figures) { f.Problems = 0 }, ByTier},
		{"cheaper questions", func(f *Figures) { f.QuestionMs = 9 }, ByQuestionCost},
		{"within 1% is a tie: the next decides", func(f *Figures) { f.QuestionMs = 10.05; f.Bounded = true; f.MainShare = 1; f.AccountRequests = 90 }, ByAccountRequests},
		{"partitions under the bound", func(f *Figures) { f.Bounded = true }, ByBound},
		{"the main table answers more", func(f *Figures) { f.MainShare = 1 }, ByMainTable},
		{"fewer requests", func(f *Figures) { f.AccountRequests = 50 }, ByAccountRequests},
		{"fewer rows", func(f *Figures) { f.AccountEntities = 10 }, ByAccountEntities},
		{"fewer index tables", func(f *Figures) { f.Indexes = 0 }, ByIndexes},
		{"a cooler busiest partition", func(f *Figures) { f.Busiest = 100 }, ByBusiest},
		{"the name", func(f *Figures) { f.Name = "a" }, ByName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := base
			switch tc.criterion { // y loses on the criterion only
			case ByTier:
				y.Problems, y.Over = 1, 2
			case ByBound:
				y.Bounded = false
			case ByMainTable:
				y.MainShare = 0.5
			case ByIndexes:
				y.Indexes = 1
			}
			x := y
			tc.x(&x)
			if c, first := Decide(x, y); c != tc.criterion || !first {
				t.Errorf("Decide(x, y) = %q, %v; want %q, true", c, first, tc.criterion)
			}
			if c, first := Decide(y, x); c != tc.criterion || first {
				t.Errorf("Decide(y, x) = %q, %v; want %q, false", c, first, tc.criterion)
			}
		})
	}
}

// Among schemes that cannot be picked, one that only outgrows the
// partition bound comes first, however far; then the nearest to its
// limits, then the one with fewer problems.
func TestDecideAmongProblems(t *testing.T) {
	outgrown := Figures{Name: "o", Problems: 1, Over: 30_000, Outgrown: true}
	hot := Figures{Name: "h", Problems: 1, Over: 1.5}
	hotter := Figures{Name: "a", Problems: 1, Over: 3}
	many := Figures{Name: "m", Problems: 3, Over: 1.5}
	for _, tc := range []struct {
		x, y      Figures
		criterion string
	}{
		{outgrown, hot, ByTier},
		{hot, hotter, ByOver},
		{hot, many, ByProblems},
	} {
		if c, first := Decide(tc.x, tc.y); c != tc.criterion || !first {
			t.Errorf("Decide(%s, %s) = %q, %v; want %q, true", tc.x.Name, tc.y.Name, c, first, tc.criterion)
		}
	}
}

// A near-tie is within 15% of the larger figure; a tie within 1%.
func TestNearAndTied(t *testing.T) {
	for _, tc := range []struct {
		a, b       float64
		tied, near bool
	}{
		{100, 100.9, true, true},
		{100, 102, false, true},
		{100, 115, false, true},
		{100, 118, false, false},
		{0, 0, true, true},
	} {
		if Tied(tc.a, tc.b) != tc.tied || Near(tc.a, tc.b) != tc.near {
			t.Errorf("%v, %v: tied %v near %v, want %v %v", tc.a, tc.b, Tied(tc.a, tc.b), Near(tc.a, tc.b), tc.tied, tc.near)
		}
	}
}

// An earlier criterion decides against every later one: x better on one,
// equal before it and worse on each after it, ranks first by that one.
func TestEarlierCriterionWins(t *testing.T) {
	steps := []struct {
		criterion string
		worsen    func(f *Figures)
	}{
		{ByQuestionCost, func(f *Figures) { f.QuestionMs = 20 }},
		{ByBound, func(f *Figures) { f.Bounded = false }},
		{ByMainTable, func(f *Figures) { f.MainShare = 0.5 }},
		{ByAccountRequests, func(f *Figures) { f.AccountRequests = 200 }},
		{ByAccountEntities, func(f *Figures) { f.AccountEntities = 2000 }},
		{ByIndexes, func(f *Figures) { f.Indexes = 2 }},
		{ByBusiest, func(f *Figures) { f.Busiest = 900 }},
	}
	good := Figures{QuestionMs: 10, Bounded: true, MainShare: 1, AccountRequests: 100, AccountEntities: 1000, Indexes: 1, Busiest: 500}
	for i, s := range steps {
		x, y := good, good
		x.Name, y.Name = "z", "a" // y first by name
		s.worsen(&y)
		for _, after := range steps[i+1:] {
			after.worsen(&x)
		}
		if c, first := Decide(x, y); c != s.criterion || !first {
			t.Errorf("better on %s only, worse after it: Decide = %q, %v", s.criterion, c, first)
		}
	}
}
