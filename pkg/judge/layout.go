package judge

import (
	"encoding/binary"
	"math"
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// maxGroups bounds the groups of alike partitions a table is judged as;
// beyond it the values of its fields are binned more coarsely.
const maxGroups = 1 << 18

// layout is one table of a scheme (the main table or an index table) as
// the judge sees its PartitionKey: the fields with a finite set of
// values it is made of, the hash buckets of values new for every entity,
// the time bucket, or a partition per entity.
type layout struct {
	table  string // "" for the main table, else the index table's name
	tmpl   *keygen.Template
	parts  []keygen.Part
	srcs   []source
	fields []pkField
	// hashes is how many partitions the hash (or modulo) pieces of values
	// new for every entity spread each combination of the fields over.
	hashes float64
	// unit is the time bucket (0 for none), cal its calendar unit.
	unit time.Duration
	cal  keygen.Unit
	// unique is set when every entity has a PartitionKey of its own.
	unique bool
	// life is the life of the keys its value pieces name, when they have
	// one (lifetime.go), lifeField that field.
	life      time.Duration
	lifeField string
	// rows is the table's rows per entity.
	rows float64
	// groups are the table's partitions, grouped: every combination of
	// the fields' bins (or classes), each standing for mult alike
	// partitions of share of the entities each.
	groups []group
	byKey  map[string]int32
	// binned is each identity field's binning.
	binned []*binning
	// nkeys is keys() once counted.
	nkeys float64
}

// pkField is a field a PartitionKey is made of: by its value (class nil),
// or by pieces that hash it or take it modulo a number (class).
type pkField struct {
	name  string
	law   *fieldLaw
	class *classMap
}

// group is one group of alike partitions: the bin (or class) of each of
// the layout's fields, how many partitions it stands for (before hash
// buckets and time buckets) and each one's share of the entities.
type group struct {
	comp  []int32
	mult  float64
	share float64
}

// newLayout analyses PartitionKey template pk of table, whose entities
// each have rows rows in it.
func (in *Input) newLayout(table string, pk *keygen.Template, rows float64) *layout {
	l := &layout{table: table, tmpl: pk, parts: pk.Parts(), hashes: 1, rows: rows}
	l.srcs = make([]source, len(l.parts))
	pieces := map[string][]keygen.Part{}
	identity := map[string]bool{}
	var order []string
	for k, p := range l.parts {
		if p.Kind == keygen.PartLiteral {
			continue
		}
		s := in.sourceOf(p)
		l.srcs[k] = s
		switch {
		case s.kind == srcBucket:
			if l.unit == 0 || s.res < l.unit {
				l.unit, l.cal = s.res, keygen.UnitOf(s.res)
			}
		case s.kind == srcUnique && (p.Kind == keygen.PartHash || p.Kind == keygen.PartMod):
			l.hashes *= float64(p.Buckets)
		case s.kind == srcUnique:
			l.unique = true
		default:
			if !slices.Contains(order, p.Source) {
				order = append(order, p.Source)
			}
			pieces[p.Source] = append(pieces[p.Source], p)
			identity[p.Source] = identity[p.Source] || p.Kind == keygen.PartValue
		}
	}
	for _, f := range order {
		pf := pkField{name: f, law: in.law(f)}
		if !identity[f] {
			pf.class = in.classesOf(pf.law, pieces[f], piecesKey(pieces[f]))
		}
		l.fields = append(l.fields, pf)
	}
	l.life, l.lifeField = in.keyedLife(l.parts)
	in.enumerate(l)
	return l
}

// enumerate lists the layout's groups: every combination of its fields'
// bins (or classes), binned more coarsely while there are more than
// maxGroups.
func (in *Input) enumerate(l *layout) {
	prec := binPrecision
	for {
		l.binned = make([]*binning, len(l.fields))
		count := 1.0
		for k, f := range l.fields {
			if f.class != nil {
				count *= float64(len(f.class.share))
				continue
			}
			l.binned[k] = in.binsAt(f.law, prec)
			count *= float64(len(l.binned[k].bins))
		}
		if count <= maxGroups || prec <= 1 {
			break
		}
		prec--
	}
	l.byKey = map[string]int32{}
	comp := make([]int32, len(l.fields))
	for {
		g := group{comp: slices.Clone(comp), mult: 1, share: 1}
		for k, f := range l.fields {
			if f.class != nil {
				g.share *= f.class.share[comp[k]]
				continue
			}
			b := l.binned[k].bins[comp[k]]
			g.mult *= b.n
			g.share *= b.pw
		}
		if g.share > 0 {
			l.byKey[compKey(g.comp)] = int32(len(l.groups))
			l.groups = append(l.groups, g)
		}
		k := 0
		for ; k < len(comp); k++ {
			if comp[k]++; int(comp[k]) < l.width(k) {
				break
			}
			comp[k] = 0
		}
		if k == len(comp) {
			return
		}
	}
}

// width is how many bins (or classes) field k of the layout has.
func (l *layout) width(k int) int {
	if c := l.fields[k].class; c != nil {
		return len(c.share)
	}
	return len(l.binned[k].bins)
}

// compOfValue is field k's component for value val, entry vi of its law:
// its bin, or the class it renders to.
func (l *layout) compOfValue(in *Input, k, vi int, val keygen.Value) int32 {
	if c := l.fields[k].class; c != nil {
		return c.classOf(in, l.fields[k].law, val)
	}
	return l.binned[k].binOf[vi]
}

// compOf is field k's component for entry v of its law: its bin or its
// class (of the entry's value).
func (l *layout) compOf(k, v int) int32 {
	if c := l.fields[k].class; c != nil {
		return c.of[v]
	}
	return l.binned[k].binOf[v]
}

// group finds the group of the components, or -1.
func (l *layout) group(comp []int32) int32 {
	var buf [64]byte // compKey's bytes, on the stack for a few fields
	b := buf[:0]
	for _, c := range comp {
		b = binary.LittleEndian.AppendUint32(b, uint32(c))
	}
	if g, ok := l.byKey[string(b)]; ok {
		return g
	}
	return -1
}

func compKey(comp []int32) string {
	b := make([]byte, 4*len(comp))
	for k, c := range comp {
		binary.LittleEndian.PutUint32(b[4*k:], uint32(c))
	}
	return string(b)
}

// partitionsPerGroup is how many partitions a group stands for in one
// time bucket: its combinations times the hash buckets.
func (l *layout) partitionsPerGroup(g int) float64 { return l.groups[g].mult * l.hashes }

// name renders a partition of group g: its fields' first values, the
// time bucket of at, hash bucket 0.
func (l *layout) name(in *Input, g int, at time.Time) string {
	if l.unique {
		return newPartition
	}
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	for k, f := range l.fields {
		c := l.groups[g].comp[k]
		if f.class != nil {
			in.Pop.SetValue(&e, f.name, f.class.rep[c])
		} else {
			in.Pop.SetValue(&e, f.name, f.law.support.Values[l.binned[k].bins[c].rep])
		}
	}
	e.Time = at
	var b []byte
	for k, p := range l.parts {
		switch {
		case p.Kind == keygen.PartLiteral:
			b = append(b, p.Literal...)
		case l.srcs[k].kind == srcUnique && (p.Kind == keygen.PartHash || p.Kind == keygen.PartMod):
			b = p.AppendBucket(b, 0)
		default:
			b = p.Append(b, &e)
		}
	}
	if l.table != "" {
		return l.table + "/" + string(b)
	}
	return string(b)
}

// bucketRows is the rows one partition of group g holds in a full time
// bucket at size s (the whole table without time buckets).
func (l *layout) bucketRows(g int, s Size) float64 {
	d := s.Span
	if l.unit > 0 {
		d = l.unit
	}
	if l.life > 0 {
		d = min(d, l.life) // a key's partition stops growing when it retires
	}
	return s.within(d) * l.groups[g].share / l.hashes * l.rows
}

// fullRows is the rows a partition of group g holds in a full time
// bucket, which the table at size s may not yet fill (bucketRows without
// time buckets or when event time does not move).
func (l *layout) fullRows(g int, s Size) float64 {
	if l.unit <= 0 || s.Span <= 0 {
		return l.bucketRows(g, s)
	}
	u := l.unit
	if l.life > 0 {
		u = min(u, l.life)
	}
	return s.perSec() * u.Seconds() * l.groups[g].share / l.hashes * l.rows
}

// buckets is how many time buckets the table spans at size s (1 without
// them); for a layout keyed by keys with a lifetime, the live ones' and
// recent beside each generation of retired ones.
func (l *layout) buckets(s Size) float64 {
	if l.unit <= 0 && l.life > 0 {
		return recent + l.generations(s)
	}
	if l.unit <= 0 || s.Span <= l.unit {
		return 1
	}
	return math.Ceil(float64(s.Span) / float64(l.unit))
}

// The pseudo-partitions: requests spanning partitions (a run's reports
// name them "*"), and a new partition per entity.
const (
	crossPartition = "*"
	newPartition   = "(a new partition per entity)"
)
