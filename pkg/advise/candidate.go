package advise

import (
	"fmt"
	"math"
	"strings"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// Candidate is a key scheme the advisor judges: generated, or one of the
// scenario's own.
type Candidate struct {
	Spec keygen.SchemeSpec
	// Own is set for the scenario's own schemes.
	Own bool
	// Pattern says in words what the scheme is made of.
	Pattern string
	// Buckets is the hash buckets its PartitionKey spreads over (0: none),
	// Unit its time bucket (NoUnit for none).
	Buckets int
	Unit    keygen.Unit
	// Fewer is the same form with one bucket fewer in table Searched (""
	// for the main table, else an index table's name), when it was
	// judged (it is over the headroom: that is why this one has more);
	// SearchedBuckets is this one's count there.
	Fewer           *Candidate
	Searched        string
	SearchedBuckets int

	Scheme     *keygen.Scheme
	Prediction *Prediction
	// Problems say why it cannot be recommended (empty when it can), Over
	// how far over its limits it is (the largest ratio of a figure to
	// its limit; 0 when within them).
	Problems []judge.Finding
	Over     float64
	// outgrown is set when its one problem is that its partitions
	// outgrow the bound while another's stay under it: it serves the
	// load.
	outgrown bool
	// form is what a generated candidate was built from.
	form *form
}

// timeLayouts are the time buckets the advisor uses, coarsest first, in
// the .NET formats of the design guidance.
var timeLayouts = []struct {
	unit   keygen.Unit
	layout string
}{
	{keygen.Year, "yyyy"}, {keygen.Month, "yyyy-MM"}, {keygen.Day, "yyyy-MM-dd"}, {keygen.Hour, "yyyy-MM-dd-HH"}, {keygen.Minute, "yyyy-MM-dd-HH-mm"},
}

// layoutOf is the .NET layout of a time bucket unit.
func layoutOf(unit keygen.Unit) string {
	for _, t := range timeLayouts {
		if t.unit == unit {
			return t.layout
		}
	}
	return ""
}

// pkSpec is a PartitionKey under construction: a field (or none), a time
// bucket (or none), hash buckets of a source (or none); or an identifying
// field alone (ident: a partition per entity).
type pkSpec struct {
	field   string
	unit    keygen.Unit
	buckets int
	hashOf  string
	ident   string
}

// template renders the PartitionKey template. The hash bucket leads a
// key without a field, so the partitions of the current time bucket are
// not neighbours in key order (where Azure may serve them from one range
// partition: REST "Design a scalable partitioning strategy for Azure Table
// storage", "Range partitions").
func (k pkSpec) template() string {
	if k.ident != "" {
		return "{" + k.ident + "}"
	}
	var parts []string
	if k.field != "" {
		parts = append(parts, "{"+k.field+"}")
	}
	hash := ""
	if k.buckets > 0 {
		hash = fmt.Sprintf("{hash(%s) %% %d:0%d}", k.hashOf, k.buckets, digits(k.buckets-1))
		if k.field == "" {
			parts = append(parts, hash)
		}
	}
	if k.unit != keygen.NoUnit {
		parts = append(parts, "{time:"+layoutOf(k.unit)+"}")
	}
	if k.buckets > 0 && k.field != "" {
		parts = append(parts, hash)
	}
	return strings.Join(parts, "_")
}

// name is the candidate's name: its pieces joined by dashes, like
// device-hour-hash4.
func (k pkSpec) name() string {
	if k.ident != "" {
		return k.ident
	}
	var parts []string
	if k.field != "" {
		parts = append(parts, k.field)
	}
	if k.buckets > 0 && k.field == "" {
		parts = append(parts, fmt.Sprintf("hash%d", k.buckets))
	}
	if k.unit != keygen.NoUnit {
		parts = append(parts, k.unit.String())
	}
	if k.buckets > 0 && k.field != "" {
		parts = append(parts, fmt.Sprintf("hash%d", k.buckets))
	}
	return strings.Join(parts, "-")
}

// pattern says the PartitionKey in words.
func (k pkSpec) pattern() string {
	if k.ident != "" {
		return k.ident + " alone: a partition per entity"
	}
	var parts []string
	if k.field != "" {
		parts = append(parts, k.field)
	}
	if k.unit != keygen.NoUnit {
		parts = append(parts, "a "+k.unit.String()+" bucket")
	}
	if k.buckets > 0 {
		parts = append(parts, fmt.Sprintf("%d hash buckets of %s", k.buckets, k.hashOf))
	}
	return strings.Join(parts, " + ")
}

// digits is the decimal digits of n (at least 1).
func digits(n int) int {
	return max(1, int(math.Floor(math.Log10(float64(max(n, 1)))))+1)
}
