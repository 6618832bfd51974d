package advise

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// mixIndexes are the index tables the mix reads by name (an operation's
// index), as the scenario's own schemes declare them.
func (in *Input) mixIndexes() []keygen.IndexSpec {
	var out []keygen.IndexSpec
	for _, op := range in.Scenario.Workload.Mix {
		if op.Index == "" || slices.ContainsFunc(out, func(x keygen.IndexSpec) bool { return x.Name == op.Index }) {
			continue
		}
		for i := range in.Scenario.Schemes {
			k := slices.IndexFunc(in.Scenario.SchemeSpec(i).Indexes, func(x keygen.IndexSpec) bool { return x.Name == op.Index })
			if k >= 0 {
				out = append(out, in.Scenario.SchemeSpec(i).Indexes[k])
				break
			}
		}
	}
	return out
}

// indexesFor are index tables for every question candidate c's main
// table can only scan, when one can serve it: rows keyed by the
// question's known fields, newest first (or by the field that identifies
// the entity), each pointing at its main row (seed 001's
// PostsByCategory).
func (in *Input) indexesFor(c *Candidate) []keygen.IndexSpec {
	var ix []keygen.IndexSpec
	for k, qc := range c.Prediction.Questions {
		if qc.Plan != string(question.Scan) {
			continue
		}
		if x, ok := in.indexFor(in.Questions[k], c.Prediction); ok && !slices.ContainsFunc(ix, func(y keygen.IndexSpec) bool { return y.Name == x.Name }) &&
			!slices.ContainsFunc(c.Spec.Indexes, func(y keygen.IndexSpec) bool { return y.Name == x.Name }) {
			ix = append(ix, x)
		}
	}
	return ix
}

// indexFor is an index table serving question q, if one can.
func (in *Input) indexFor(q *question.Question, p *Prediction) (keygen.IndexSpec, bool) {
	var keys []string
	for _, f := range q.Fields() {
		if _, ok := in.Pop.Support(f); ok {
			keys = append(keys, f)
		}
	}
	ident := in.uniqueField(q)
	rk := "{inverted_ticks}"
	switch {
	case q.Want == question.Oldest:
		rk = "{ticks}"
	case q.Want == question.One && ident != "" && !q.KnowsTime():
		rk = "{" + ident + "}"
	}
	if in.Pop.Spec().Interval <= 0 && strings.Contains(rk, "ticks") {
		return keygen.IndexSpec{}, false
	}
	var pk []string
	for _, f := range keys {
		pk = append(pk, "{"+f+"}")
	}
	name := keys
	if len(keys) == 0 {
		if ident == "" {
			return keygen.IndexSpec{}, false
		}
		// The identifying field alone: hashed into as many buckets as its
		// index rows need (an increasing one would be append-only).
		n := max(1, int(math.Ceil(p.WriteEntitiesPerSec/math.Max(in.Opts.Headroom*in.PartitionTarget(), 1))))
		pk = append(pk, fmt.Sprintf("{hash(%s) %% %d:0%d}", ident, n, digits(n-1)))
		name = []string{ident}
	}
	return keygen.IndexSpec{Name: "By" + camel(name), PartitionKey: strings.Join(pk, "_"), RowKey: rk}, true
}

// camel joins names with each word capitalized and only letters and
// digits kept: [order] is Order, [device_id, tenant] DeviceIdTenant.
func camel(names []string) string {
	var b strings.Builder
	for _, n := range names {
		up := true
		for _, r := range n {
			switch {
			case !unicode.IsLetter(r) && !unicode.IsDigit(r):
				up = true
			case up:
				b.WriteRune(unicode.ToUpper(r))
				up = false
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
