// Package question is the application's read questions and each key
// scheme's plan for them.
//
// A question is declared by what the application knows when it asks (the
// values of some fields, taken from an existing entity picked by the
// request distribution) and what it wants back: the one entity those fields
// identify, the newest or oldest N entities with those values, or every one
// of them, optionally inside a calendar window (a keygen.Unit) or a span
// of time, up to now (the newest entity's event time, as a dashboard asks)
// or around the picked entity's event time. It says nothing about
// keys: Derive works out, for one scheme, the cheapest plan an application
// holding those values could use (a point read, one partition's range, a
// fan-out over the partitions it can compute, an index table's rows and
// point reads of the main rows, or a scan with a filter, sorted and cut on
// the client), from which pieces of the scheme's key templates the known
// values determine, as each piece describes itself (keygen.Part: its
// source, and what it reads of the event time). Plans are pure data
// computed without a server; Access describes one for the judge
// (pkg/judge), which costs it from the population's laws; Execute runs one
// through any Source (the Table service through pkg/workload, or Model, an
// in-memory model of a seeded table that the simulation of pkg/plan asks).
//
// The population model fixes what every answer must be: entity i is a pure
// function of (seed, i) and its event time grows with i, so "the newest N
// of a device" are the N highest indexes below the population's bound whose
// device is the asked one, whatever the scheme.
package question

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Want is what a question asks for.
type Want string

// The kinds of question.
const (
	// One is the single entity the known fields identify.
	One Want = "one"
	// Newest is the newest entities with the known values, newest first.
	Newest Want = "newest"
	// Oldest is the oldest entities with the known values, oldest first.
	Oldest Want = "oldest"
	// All is every entity with the known values, in no particular order.
	All Want = "all"
)

// Wants lists the kinds of question.
var Wants = []Want{One, Newest, Oldest, All}

// TimeField is the name under which a question knows the event time.
const TimeField = "time"

// WindowUnits are the calendar windows: the unit of the picked entity's
// event time (UTC).
var WindowUnits = []keygen.Unit{keygen.Minute, keygen.Hour, keygen.Day, keygen.Month, keygen.Year}

// WindowUnit returns the calendar window a Spec's Window names (false
// when it names none: a duration, or nothing).
func WindowUnit(window string) (keygen.Unit, bool) {
	u, ok := keygen.ParseUnit(window)
	return u, ok && slices.Contains(WindowUnits, u)
}

// isWindowUnit reports whether a Spec's Window names a calendar window.
func isWindowUnit(window string) bool {
	_, ok := WindowUnit(window)
	return ok
}

// Spec declares a question.
type Spec struct {
	Name string
	// Known are the fields whose values the application has (declared
	// fields, or time for the event time).
	Known []string
	Want  Want
	// Limit bounds Newest and Oldest (0: every matching entity, in order).
	Limit int
	// Window, for Newest, Oldest and All, keeps the entities whose event
	// time is in the calendar unit (minute, hour, day, month, year) of
	// the anchor's, or within a duration (like 1h) up to it.
	Window string
	// Anchor is where a window ends: AnchorNow (the default: the newest
	// entity's event time when the question is asked) or AnchorPicked
	// (the picked entity's).
	Anchor string
	// Select are the fields the application reads from the answer (none:
	// the whole entity); an index that carries them answers alone.
	Select []string
	// Pick are known fields drawn by a law of their own.
	Pick []Pick
}

// Question is a compiled Spec over a population. It is immutable and safe
// for concurrent use.
type Question struct {
	Spec
	pop    *keygen.Population
	fields []string    // the known declared fields
	time   bool        // the event time is known
	unit   keygen.Unit // calendar window unit, or NoUnit
	span   time.Duration
	picked bool // the window ends at the picked entity's time, not now
	picks  []PickLaw
}

// The anchors of a window.
const (
	// AnchorNow ends a window at the newest entity's event time when the
	// question is asked: "the last 10 minutes", as a dashboard asks.
	AnchorNow = "now"
	// AnchorPicked ends it at the picked entity's event time: "that
	// order's day".
	AnchorPicked = "picked"
)

// Error is a problem with one member of a Spec: Field is known, known[N],
// want, limit, window or name.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

// Unwrap makes every Error match ErrQuestion.
func (e *Error) Unwrap() error { return ErrQuestion }

// ErrQuestion is wrapped by every problem of a question.
var ErrQuestion = errors.New("question: invalid")

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// MaxLimit bounds Limit: the answer is merged and cut on the client.
const MaxLimit = 100_000

// Compile checks spec against the population and returns the question, or
// every problem found (each an *Error, joined).
func Compile(pop *keygen.Population, spec Spec) (*Question, error) {
	q := &Question{Spec: spec, pop: pop}
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, &Error{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	if !nameRE.MatchString(spec.Name) {
		bad("name", "%q: a question's name is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit (thresholds name it: p99(question:NAME))", spec.Name)
	}
	for k, f := range spec.Known {
		at := fmt.Sprintf("known[%d]", k)
		switch {
		case slices.Contains(spec.Known[:k], f):
			bad(at, "%q is listed twice: list it once", f)
		case f == TimeField:
			q.time = true
		case pop.HasField(f):
			q.fields = append(q.fields, f)
		default:
			bad(at, "%q is not a field; the application can know a declared field (%s) or time", f, strings.Join(pop.Fields(), ", "))
		}
	}
	if !slices.Contains(Wants, spec.Want) {
		bad("want", "%q: use one (the entity the known fields identify), newest, oldest or all", spec.Want)
	}
	if spec.Limit != 0 && spec.Want != Newest && spec.Want != Oldest {
		bad("limit", "limit applies to newest and oldest, not to %s: remove limit, or want newest or oldest", spec.Want)
	}
	if spec.Limit < 0 || spec.Limit > MaxLimit {
		bad("limit", "%d: use 1 to %d (or leave it out for every matching entity)", spec.Limit, MaxLimit)
	}
	if spec.Want == One && !q.identifies() {
		bad("known", "want: one needs a field that tells entities apart (time, or a sequence, guid or slug field); %v is shared by many entities: ask for newest with limit: 1", spec.Known)
	}
	q.compilePicks(spec, bad)
	if spec.Window != "" {
		switch {
		case spec.Want == One:
			bad("window", "a window applies to newest, oldest and all, not to one: remove window")
		case q.time:
			bad("window", "the event time is known, so there is no window to search: remove window, or time from known")
		case isWindowUnit(spec.Window):
			q.unit, _ = WindowUnit(spec.Window)
		default:
			d, err := time.ParseDuration(spec.Window)
			if err != nil || d <= 0 {
				bad("window", "%q: use minute, hour, day, month or year (the current one), or a duration like 1h (up to now)", spec.Window)
			}
			q.span = d
		}
	}
	q.picked = anchor(spec, bad)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return q, nil
}

// identifies reports whether the known fields tell every entity apart: the
// event time (it grows with the index), or a sequence, guid or slug field.
func (q *Question) identifies() bool {
	if q.time && q.pop.Spec().Interval > 0 {
		return true
	}
	for _, f := range q.fields {
		switch q.pop.FieldKind(f) {
		case "sequence", "guid", "slug":
			return true
		}
	}
	return false
}

// Fields are the known declared fields (not the event time).
func (q *Question) Fields() []string { return q.fields }

// KnowsTime reports whether the event time is known.
func (q *Question) KnowsTime() bool { return q.time }

// Ordered reports whether the answer has an order: newest or oldest first.
func (q *Question) Ordered() bool { return q.Want == Newest || q.Want == Oldest }

// Population is the population the question was compiled over.
func (q *Question) Population() *keygen.Population { return q.pop }

// anchor reads spec's Anchor: whether the window ends at the picked
// entity's event time (AnchorPicked) rather than now, saying what is
// wrong through bad.
func anchor(spec Spec, bad func(field, format string, a ...any)) bool {
	switch spec.Anchor {
	case "", AnchorNow:
	case AnchorPicked:
		if spec.Window == "" {
			bad("anchor", "anchor says where a window ends: add a window, or remove anchor")
		}
		return true
	default:
		bad("anchor", "%q: use now (the newest event time, the default) or picked (the picked entity's event time)", spec.Anchor)
	}
	return false
}
