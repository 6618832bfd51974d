package judge

import (
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// leading says whether a table's PartitionKeys move one way with the
// entity index (their first piece that varies does) and what share of new
// entities lands beyond every existing key: all of them when that piece
// is unique per entity, else one per new key of each new bucket (keys
// being how many PartitionKeys the current time bucket has).
func leading(parts []keygen.Part, srcs []source, keys float64, iv time.Duration) (dir int, extends float64) {
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
		return s.dir, min(1, max(keys, 1)/perBucket)
	}
	return 0, 0
}

// keys is how many PartitionKeys of lay new entities go to at once (in
// the current time bucket).
func (l *layout) keys() float64 {
	if l.nkeys == 0 {
		for g := range l.groups {
			l.nkeys += l.partitionsPerGroup(g)
		}
	}
	return l.nkeys
}
