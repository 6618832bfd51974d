package advise

import (
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// rowKey is a RowKey template, the secondary rows written with it, and
// what it is called in a candidate's name when the questions ask for more
// than one.
type rowKey struct {
	template string
	rows     []string
	label    string
}

// rowKeys are the RowKeys that serve the questions: the event time, inverted
// for newest first ((DateTime.MaxValue - t).Ticks, Azure Storage "Table
// design patterns", "Log tail pattern") or ascending for oldest first, when a
// question wants an order or knows the time; a field that identifies an
// entity, when a question asks for one entity by it without the time; and
// when both are asked, the time-ordered RowKey with a secondary row keyed by
// the identifying field in the entity's own partition, written with it in one
// entity group transaction ("Intra-partition secondary index pattern"), so
// one partition serves both (or an index table serves the other). A
// population whose event time does not move orders nothing: a GUID.
func (in *Input) rowKeys() []rowKey {
	var newest, oldest, timed bool
	ident := ""
	for _, q := range in.Questions {
		switch {
		case q.Want == question.Newest:
			newest = true
		case q.Want == question.Oldest:
			oldest = true
		case q.Want == question.One && q.KnowsTime():
			timed = true
		case q.Want == question.One && ident == "":
			ident = in.uniqueField(q)
		}
	}
	var out []rowKey
	ordered := in.Pop.Spec().Interval > 0
	order := ""
	switch {
	case ordered && oldest && !newest:
		order = "ticks"
		out = append(out, rowKey{template: "{ticks}", label: "oldest"})
	case ordered && (newest || timed || ident == ""):
		order = "inverted_ticks"
		out = append(out, rowKey{template: "{inverted_ticks}", label: "newest"})
	}
	if ident != "" && (order == "" || timed) {
		// keyed by the identifier when no question walks the rows in
		// order (else the secondary row below serves both)
		out = append(out, rowKey{template: "{" + ident + "}", label: "by-" + ident})
	}
	if ident != "" && order != "" {
		// The literal prefixes keep each kind of row in a RowKey range of
		// its own, so a range over one never reads the other.
		out = append(out, rowKey{template: "T_{" + order + "}", rows: []string{"ID_{" + ident + "}"}, label: "rows"})
	}
	if len(out) == 0 {
		out = append(out, rowKey{template: "{guid}"})
	}
	if len(out) == 1 {
		out[0].label = ""
	}
	return out
}

// uniqueField is a field q knows that tells entities apart (a sequence,
// guid or slug field), or "".
func (in *Input) uniqueField(q *question.Question) string {
	for _, f := range q.Fields() {
		switch in.Pop.FieldKind(f) {
		case "sequence", "guid", "slug":
			return f
		}
	}
	return ""
}

// unique makes a RowKey unique within its partition when the sample
// validate checks finds two entities with the same keys: it appends the
// entity's GUID, which keeps the order the RowKey starts with.
func (in *Input) unique(spec keygen.SchemeSpec) (keygen.SchemeSpec, error) {
	spec, _, _, err := in.uniqueChecked(spec)
	return spec, err
}

// uniqueChecked is unique, and when the spec is unchanged its compiled
// scheme and the check of its keys that the judge makes (nil when
// changed).
func (in *Input) uniqueChecked(spec keygen.SchemeSpec) (keygen.SchemeSpec, *keygen.Scheme, keygen.CheckResult, error) {
	s, err := keygen.CompileScheme(in.Pop, spec)
	if err != nil {
		return spec, nil, keygen.CheckResult{}, err
	}
	res, err := s.Check(in.Pop, max(in.Seeded, 1))
	if err != nil {
		return spec, nil, res, err
	}
	if res.Collisions > 0 {
		spec.RowKey += "_{guid}"
		return spec, nil, res, nil
	}
	return spec, s, res, nil
}
