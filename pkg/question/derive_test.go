package question

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// testPop is a population over which every built-in scheme compiles: its
// fields and event time moving a minute per entity, so that 2,000
// entities span a day and a half.
func testPop(t *testing.T, interval time.Duration) *keygen.Population {
	t.Helper()
	var fields []keygen.FieldSpec
	for _, b := range keygen.Builtins {
		fields = keygen.WithBuiltinFields(fields, b)
	}
	fields = append(fields, keygen.FieldSpec{Name: "status", Kind: "choice", Values: []string{"new", "paid", "shipped"}})
	for k := range fields {
		if fields[k].Name == "device" {
			fields[k].Count = 8
		}
		if fields[k].Name == "customer" {
			fields[k].Count = 40
		}
	}
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 7, Start: time.Date(2025, 1, 1, 20, 0, 0, 0, time.UTC), Interval: interval, Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	return pop
}

func builtin(t *testing.T, pop *keygen.Population, name string) *keygen.Scheme {
	t.Helper()
	b, _ := keygen.LookupBuiltin(name)
	s, err := keygen.CompileScheme(pop, b.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func question(t *testing.T, pop *keygen.Population, s Spec) *Question {
	t.Helper()
	q, err := Compile(pop, s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// Each built-in scheme's plan for the questions of the examples.
func TestDerivePlans(t *testing.T) {
	pop := testPop(t, time.Minute)
	newest := Spec{Name: "newest-by-device", Known: []string{"device"}, Want: Newest, Limit: 50}
	reading := Spec{Name: "reading", Known: []string{"device", "time"}, Want: One}
	orders := Spec{Name: "orders", Known: []string{"customer"}, Want: All}
	order := Spec{Name: "order", Known: []string{"order"}, Want: One}
	tenantDay := Spec{Name: "tenant-day", Known: []string{"tenant"}, Want: All, Window: "day"}
	lastHour := Spec{Name: "last-hour", Want: All, Window: "1h"}
	byCategory := Spec{Name: "by-category", Known: []string{"category"}, Want: Oldest, Limit: 10}
	shipped := Spec{Name: "shipped", Known: []string{"status"}, Want: All}
	for _, c := range []struct {
		scheme string
		q      Spec
		want   string
	}{
		{"device", newest, "range"},          // inverted ticks: newest first
		{"device-date", newest, "range"},     // a walk over days, newest first
		{"device-guid", newest, "scan"},      // the whole partition, sorted
		{"date", newest, "scan"},             // device is not in the keys: filter
		{"device", reading, "point"},         // PK and RK from device and time
		{"device-date", reading, "point"},    //
		{"device-guid", reading, "scan"},     // RowKey is a GUID
		{"customer", orders, "range"},        // the customer's partition
		{"customer-year", orders, "fan_out"}, // every year's partition
		{"hash-buckets", orders, "scan"},     // all 16 buckets, filtered
		{"hash-buckets", order, "point"},     // hash of the known order, order in the RowKey
		{"customer", order, "scan (table)"},  // the customer is unknown
		{"tenant-date", tenantDay, "range"},  // one tenant-day partition
		{"tenant-month", tenantDay, "range"}, // the month's partition, inverted unix bounds the day
		{"tenant", tenantDay, "scan"},        // GUID RowKey: filter on EventTime
		{"hour", lastHour, "fan_out"},        // the hour partitions the last hour covers
		{"date", lastHour, "scan"},           // GUID RowKey
		{"blog-posts", byCategory, "index PostsByCategory"},
		{"blog-posts", shipped, "scan"}, // every month, filtered
		{"region-category", shipped, "scan (table)"},
		{"month-inverted", Spec{Name: "post", Known: []string{"time", "slug"}, Want: One}, "point"}, // the RowKey from time alone finds it
	} {
		p := Derive(question(t, pop, c.q), builtin(t, pop, c.scheme))
		if p.Label() != c.want {
			t.Errorf("%s under %s: %s (%s), want %s", c.q.Name, c.scheme, p.Label(), p.Why, c.want)
		}
	}
}

// On a model of a table holding entities [0, n), every built-in scheme's
// plan returns exactly what the population model says, in order.
func TestPlansAnswerExactlyOnTheModel(t *testing.T) {
	const n = 2000
	pop := testPop(t, time.Minute)
	qs := []Spec{
		{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 50},
		{Name: "oldest", Known: []string{"device"}, Want: Oldest, Limit: 7},
		{Name: "one", Known: []string{"device", "time"}, Want: One},
		{Name: "customer", Known: []string{"customer"}, Want: All},
		{Name: "tenant-day", Known: []string{"tenant"}, Want: Newest, Window: "day"},
		{Name: "last-2h", Want: All, Window: "2h"},
		{Name: "category", Known: []string{"category"}, Want: Newest, Limit: 5},
		{Name: "order", Known: []string{"order"}, Want: One},
		{Name: "post", Known: []string{"time", "slug"}, Want: One},
	}
	st := keygen.NewStream(1, 2)
	var e keygen.Entity
	for _, b := range keygen.Builtins {
		s := builtin(t, pop, b.Spec.Name)
		m := NewModel(pop, s, n)
		for _, spec := range qs {
			p := Derive(question(t, pop, spec), s)
			for k := 0; k < 4; k++ {
				pop.Entity(st.Int64n(n), &e)
				rows, _, err := m.Ask(context.Background(), p, &e, BoundsOf(pop, n))
				if err != nil {
					t.Fatal(err)
				}
				got := seqs(rows, p.Question.Want == All)
				want := p.Question.Expected(&e, n)
				if p.Question.Want == All {
					slices.Sort(want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s under %s (%s) for entity %d: %v, want %v", spec.Name, s.Name, p.Label(), e.Index, head(got), head(want))
				}
			}
		}
	}
}

func seqs(rows []Row, sorted bool) []int64 {
	out := make([]int64, len(rows))
	for k, r := range rows {
		out[k] = r.Seq
	}
	if sorted {
		slices.Sort(out)
	}
	return out
}

func head(s []int64) []int64 { return s[:min(len(s), 8)] }
