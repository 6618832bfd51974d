package advise

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// indexDesign is an index table for a question the main table can only scan
// (Azure Storage "Table design patterns", "Index entities pattern"), judged
// as a table of its own: keyed by the question's known fields (or by the
// field that identifies the entity: a partition per entity, or hash buckets
// of it; or by time alone), spread over hash buckets when its partitions are
// hot, with a time bucket when they grow past the bound, and carrying the
// entity when the question reads many rows (no point read back per row).
type indexDesign struct {
	q       *question.Question
	keys    []string // the known fields with a finite set of values it is keyed by
	ident   string   // keyed by this identifying field itself (keys empty)
	rk      string
	buckets int         // hash buckets of hashOf (0: none)
	hashOf  string      //
	unit    keygen.Unit // time bucket (NoUnit for none)
	carries bool        // its rows are copies of the entity's
}

// spec is the design as a scheme's index table. A hash bucket leads a
// key without a field, so the partitions of the current time bucket are
// not neighbours in key order.
func (d indexDesign) spec() keygen.IndexSpec {
	hash := ""
	if d.buckets > 0 {
		hash = fmt.Sprintf("{hash(%s) %% %d:0%d}", d.hashOf, d.buckets, digits(d.buckets-1))
	}
	var pk []string
	name := d.keys
	switch {
	case d.ident != "" && hash == "":
		pk, name = []string{"{" + d.ident + "}"}, []string{d.ident}
	case d.ident != "":
		pk, name = []string{hash}, []string{d.ident}
	case len(d.keys) == 0:
		name = []string{"time"}
		if hash != "" {
			pk = append(pk, hash)
		}
	default:
		for _, f := range d.keys {
			pk = append(pk, "{"+f+"}")
		}
		if by := strings.Trim(d.rk, "{}"); d.q.Want == question.One && !strings.Contains(by, "ticks") {
			name = append(append([]string(nil), d.keys...), by) // a lookup of one entity in the keys' partition
		}
	}
	if d.unit != keygen.NoUnit {
		pk = append(pk, "{time:"+layoutOf(d.unit)+"}")
	}
	if hash != "" && len(d.keys) > 0 {
		pk = append(pk, hash)
	}
	x := keygen.IndexSpec{Name: "By" + camel(name), PartitionKey: strings.Join(pk, "_"), RowKey: d.rk, CarriesAll: d.carries}
	if d.carries {
		x.Name += "Copy" // its rows are copies: a table of its own name
		if len(d.q.Spec.Select) > 0 {
			x.CarriesAll, x.Carries = false, d.q.Spec.Select
		}
	}
	return x
}

// label names the design in a candidate's name: its table, and its hash
// and time buckets (two designs of one table differ in them).
func (d indexDesign) label() string {
	out := d.spec().Name
	if d.buckets > 0 {
		out += fmt.Sprintf("-hash%d", d.buckets)
	}
	if d.unit != keygen.NoUnit {
		out += "-" + d.unit.String()
	}
	return out
}

// indexDesigns are the designs of an index for each question candidate
// c's main table can only scan, sized from the population's laws: as many
// hash buckets as the busiest key's writes need, and the coarsest time
// bucket that keeps a partition under the bound over the horizon.
func (in *Input) indexDesigns(c *Candidate) []indexDesign {
	var out []indexDesign
	for k, qc := range c.Prediction.Questions {
		if qc.Plan != string(question.Scan) {
			continue
		}
		d, ok := in.indexDesign(in.Questions[k])
		if !ok || slices.ContainsFunc(out, func(o indexDesign) bool { return o.spec().Name == d.spec().Name }) ||
			slices.ContainsFunc(c.Spec.Indexes, func(y keygen.IndexSpec) bool { return y.Name == d.spec().Name }) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// indexDesign is the index serving question q, if one can.
func (in *Input) indexDesign(q *question.Question) (indexDesign, bool) {
	d := indexDesign{q: q, rk: "{inverted_ticks}", hashOf: in.hashSource("")}
	for _, f := range q.Fields() {
		if _, ok := in.Support(f); ok {
			d.keys = append(d.keys, f)
		}
	}
	ident := in.uniqueField(q)
	switch {
	case q.Want == question.Oldest:
		d.rk = "{ticks}"
	case q.Want == question.One && ident != "" && !q.KnowsTime():
		d.rk = "{" + ident + "}"
	}
	timed := in.Pop.Spec().Interval > 0
	if !timed && strings.Contains(d.rk, "ticks") {
		return d, false
	}
	if len(d.keys) == 0 && ident != "" && q.Want == question.One {
		d.ident = ident // a lookup table: a partition per entity
		return d, true
	}
	if len(d.keys) == 0 && (!timed || q.WindowLength() == 0) {
		return d, false // it would read the whole index: no better than the table
	}
	share := 1.0
	for _, f := range d.keys {
		share *= in.topShare(f)
	}
	w := in.InsertRate()
	if n := int(math.Ceil(w * share / (in.Opts.Headroom * in.PartitionTarget()))); n > 1 {
		d.buckets = min(n, MaxBuckets)
	}
	if timed {
		d.unit = in.granularity(share/float64(max(d.buckets, 1)), in.keysLife(d.keys...), in.itemBytes())
	}
	d.carries = q.Want != question.One
	return d, true
}

// camel joins names with each word capitalized and only letters and
// digits kept: [order] is Order, [device_id, tenant] DeviceIdTenant.
func camel(names []string) string {
	var b strings.Builder
	for _, n := range names {
		up := true
		for _, r := range n {
			switch {
			case !isAlnum(r):
				up = true
			case up:
				b.WriteString(strings.ToUpper(string(r)))
				up = false
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
