package judge

import (
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// maxClasses bounds the PartitionKeys shapeOf enumerates; a template with
// more (several wide fields) is measured on a sample of the stream.
const maxClasses = 1 << 20

// shapeSample is how many new entities a template too wide to enumerate
// is measured on.
const shapeSample = 200_000

// shape is how a PartitionKey template spreads new entities at the peak.
type shape struct {
	// shares maps each PartitionKey new entities take now to its share of
	// them (they sum to 1); empty when unique.
	shares map[string]float64
	// unique is set when every new entity has a PartitionKey of its own.
	unique bool
	// bucket is the share of a second's writes one time bucket holds: 1
	// when the current bucket outlasts a second of writes, less when
	// buckets turn over within a second.
	bucket float64
	// dir is +1 (-1) when PartitionKeys grow (shrink) with the entity
	// index, 0 otherwise; extends is the share of new entities whose
	// PartitionKey lies beyond every existing one: what the table's end
	// range partition serves.
	dir     int
	extends float64
	// sampled is set when the shares were measured on a sample.
	sampled bool
}

// shapeOf analyses template t for new entities from now on, with span the
// event time a second of writes at the peak covers.
func shapeOf(pop *keygen.Population, t *keygen.Template, now *keygen.Entity, span time.Duration) shape {
	parts := t.Parts()
	srcs := make([]source, len(parts))
	sh := shape{shares: map[string]float64{}, bucket: 1}
	var finite []string // the finite sources, each once
	classes := 1.0
	for k, p := range parts {
		if p.Kind == keygen.PartLiteral {
			continue
		}
		srcs[k] = sourceOf(pop, p)
		s := srcs[k]
		switch {
		case s.kind == srcBucket && span > 0:
			sh.bucket = min(sh.bucket, float64(s.res)/float64(span))
		case s.kind == srcUnique && (p.Kind == keygen.PartValue || p.Kind == keygen.PartTime):
			sh.unique = true
		case s.kind == srcUnique:
			classes *= float64(p.Buckets)
		case s.kind == srcFinite && !contains(finite, p.Source):
			finite = append(finite, p.Source)
			classes *= float64(len(s.support.Values))
		}
	}
	switch {
	case sh.unique:
		sh.shares = nil
	case classes > maxClasses:
		sh.shares, sh.sampled = sampleShares(pop, t, now.Index), true
	default:
		enumerate(pop, parts, srcs, finite, now, sh.shares)
	}
	sh.dir, sh.extends = leading(parts, srcs, sh, pop.Spec().Interval)
	return sh
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// enumerate adds every PartitionKey of the current moment with its share:
// the product of the finite sources' value probabilities (independent per
// entity) and 1/N for each hash or modulo bucket of a unique source (a
// new value per entity hashes uniformly).
func enumerate(pop *keygen.Population, parts []keygen.Part, srcs []source, finite []string, now *keygen.Entity, out map[string]float64) {
	e := *now
	e.Values = append([]keygen.Value(nil), now.Values...)
	idx := make([]int, len(finite))
	supports := make([]keygen.Support, len(finite))
	for k, f := range finite {
		supports[k], _ = pop.Support(f)
	}
	for {
		p := 1.0
		for k, f := range finite {
			pop.SetValue(&e, f, supports[k].Values[idx[k]])
			p *= supports[k].Probs[idx[k]]
		}
		if p > 0 {
			render(parts, srcs, &e, 0, nil, p, out)
		}
		k := 0
		for ; k < len(idx); k++ {
			if idx[k]++; idx[k] < len(supports[k].Values) {
				break
			}
			idx[k] = 0
		}
		if k == len(idx) {
			return
		}
	}
}

// render renders parts[k:] after prefix for entity e, expanding the
// buckets of unique sources, and adds share p to each key.
func render(parts []keygen.Part, srcs []source, e *keygen.Entity, k int, prefix []byte, p float64, out map[string]float64) {
	for ; k < len(parts); k++ {
		pt := parts[k]
		if pt.Kind != keygen.PartLiteral && srcs[k].kind == srcUnique && (pt.Kind == keygen.PartHash || pt.Kind == keygen.PartMod) {
			for b := int64(0); b < pt.Buckets; b++ {
				render(parts, srcs, e, k+1, pt.AppendBucket(append([]byte(nil), prefix...), b), p/float64(pt.Buckets), out)
			}
			return
		}
		prefix = pt.Append(prefix, e)
	}
	out[string(prefix)] += p
}

// sampleShares measures the shares on shapeSample new entities from index
// from.
func sampleShares(pop *keygen.Population, t *keygen.Template, from int64) map[string]float64 {
	out := map[string]float64{}
	var e keygen.Entity
	var buf []byte
	for i := from; i < from+shapeSample; i++ {
		pop.Entity(i, &e)
		buf = t.Append(buf[:0], &e)
		out[string(buf)] += 1.0 / shapeSample
	}
	return out
}

// leading says whether PartitionKeys move one way with the entity index
// (their first piece that varies does) and what share of new entities
// lands beyond every existing key: all of them when that piece is unique
// per entity, else one per new key of each new bucket.
func leading(parts []keygen.Part, srcs []source, sh shape, iv time.Duration) (dir int, extends float64) {
	for k, p := range parts {
		if p.Kind == keygen.PartLiteral {
			continue
		}
		s := srcs[k]
		if p.Kind == keygen.PartHash || p.Kind == keygen.PartMod || s.dir == 0 {
			return 0, 0
		}
		if s.kind == srcUnique {
			return s.dir, 1
		}
		if s.kind != srcBucket || iv <= 0 {
			return 0, 0
		}
		perBucket := float64(s.res) / float64(iv) // entities per bucket
		keys := max(float64(len(sh.shares)), 1)
		return s.dir, min(1, keys/perBucket)
	}
	return 0, 0
}
