package question

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Pick declares a known field whose value a question draws by a law of
// its own (Law, a distribution over the field's values in the order of
// its support) instead of taking the picked entity's: every user asking
// for their feed equally often, however many notifications each has.
type Pick struct {
	Field string
	Law   string
}

// PickLaw is a compiled Pick: the field, the law, and how many values it
// draws among (positions in keygen's Joint order: an id's numbers, a
// choice's values in order, an int's from min; the keys live when it is
// asked, for a key with a lifetime).
type PickLaw struct {
	Field string
	Dist  keygen.Distribution
	N     int64
}

// compilePicks checks the picks and selects of spec against q: a pick
// names a known field with a finite set of values, once, with a law that
// parses (uniform, for a key with a lifetime: among the keys live when
// the question is asked), on a question that does not want one entity; a
// select names declared fields, once.
func (q *Question) compilePicks(spec Spec, bad func(field, format string, a ...any)) {
	for k, p := range spec.Pick {
		at := fmt.Sprintf("pick.%s", p.Field)
		d, err := keygen.ParseDistribution(p.Law)
		n, finite := q.pop.Cardinality(p.Field)
		switch {
		case spec.Want == One:
			bad(at, "a one question asks for an entity that exists, picked by the request distribution: remove pick, or want newest, oldest or all")
		case slices.ContainsFunc(spec.Pick[:k], func(o Pick) bool { return o.Field == p.Field }):
			bad(at, "%q is picked twice: keep one", p.Field)
		case !slices.Contains(q.fields, p.Field):
			bad(at, "%q is not a known field of the question (known: %s): a pick draws the value of a field the application knows", p.Field, strings.Join(spec.Known, ", "))
		case !finite:
			bad(at, "%q has no finite set of values to draw from (a sequence, guid or slug is new for every entity): pick an id, choice, int or bool field", p.Field)
		case err != nil:
			bad(at, "%v", err)
		case q.lifetime(p.Field) && d.String() != "uniform":
			bad(at, "%q is a key with a lifetime: a pick draws among its live keys evenly, so write {%s: uniform}; to ask mostly of recent keys, leave the pick out and pick entities with the request distribution latest(S)", p.Field, p.Field)
		default:
			q.picks = append(q.picks, PickLaw{Field: p.Field, Dist: d, N: n})
		}
	}
	for k, f := range spec.Select {
		at := fmt.Sprintf("select[%d]", k)
		switch {
		case slices.Contains(spec.Select[:k], f):
			bad(at, "%q is selected twice: list it once", f)
		case !q.pop.HasField(f):
			bad(at, "%q is not a field: select a declared field (%s)", f, strings.Join(q.pop.Fields(), ", "))
		}
	}
}

// Picks are the question's fields drawn by their own laws.
func (q *Question) Picks() []PickLaw { return q.picks }

// DrawPicks draws, for each of the question's picks, the position of a
// value (appended to dst).
func (q *Question) DrawPicks(st *keygen.Stream, dst []int64) []int64 {
	for _, p := range q.picks {
		dst = append(dst, p.Dist.Pick(st, p.N))
	}
	return dst
}

// ApplyPicks sets e's picked fields to the drawn values (positions from
// DrawPicks) when entity newest is the newest written, so the question is
// asked with them.
func (q *Question) ApplyPicks(e *keygen.Entity, drawn []int64, newest int64) {
	for k, p := range q.picks {
		if k < len(drawn) {
			v, _ := q.pop.PickValue(p.Field, drawn[k], newest)
			q.pop.SetValue(e, p.Field, v)
		}
	}
}

// Selects reports whether the application reads field f from the answer:
// every field when the question selects none.
func (q *Question) Selects(f string) bool {
	return len(q.Spec.Select) == 0 || slices.Contains(q.Spec.Select, f)
}

// lifetime reports whether field f's keys are born and retire.
func (q *Question) lifetime(f string) bool {
	_, ok := q.pop.Lifetime(f)
	return ok
}
