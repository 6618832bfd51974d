package judge

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/question"
)

// recent is how many of a table's newest time buckets the judge tells
// apart; bucket index recent stands for each older one.
const recent = 8

// pkey names a group of alike partitions: a table's layout, its group,
// and its time bucket (0 the current, recent for each older one).
type pkey struct{ lay, group, bucket int32 }

// partLoad is one partition's predicted load at the peak, per second.
type partLoad struct {
	// charged are the entities the Table service charges the partition:
	// written, read, and visited by queries whether they match or not.
	charged float64
	// counted are the entities a client counts for it: written, read,
	// and returned by queries.
	counted float64
	// sq is Σ rate·e² over the requests counting e entities each: the
	// variance of the partition's count over a second (compound Poisson).
	sq float64
	// joint and jointSq are the part of counted and sq that a block of
	// block partitions takes together: a question fanned out over hash
	// buckets reads each of them at the same moment, so their counts rise
	// and fall together and do not each add a chance to be the busiest.
	joint, jointSq, block float64
	// ru are the request units it is charged (Cosmos DB).
	ru float64
	// pass is the most rows one query visits in it at once (every page
	// of one request's pass over the partition), and passOf the question
	// or operation it is.
	pass   float64
	passOf string
	// passBy is the most rows one query visits in it at once by each
	// question or operation whose queries visit it (nil without).
	passBy map[string]float64
	// chargedBy are the entities a second of charged that each question's
	// reads charge it (nil without: questioncharges.go).
	chargedBy map[string]float64
	// reqs are its requests a second; passes the queries' passes over
	// it, by the question or operation that asks them, which run its
	// bucket into debt (debt.go).
	reqs   float64
	passes []passClass
}

// loads accumulates a workload's predicted load on the tables of a
// scheme at one size.
type loads struct {
	lays  []*layout
	size  Size
	parts map[pkey]*partLoad
	// newRows is the rows each new partition takes when every new entity
	// has a PartitionKey of its own (0 otherwise).
	newRows float64
	// account figures per second; cross is what clients count under no
	// one partition (a table scan, a PartitionKey range).
	requests, entities, ru, cross float64
	// writes are the requests/s that write new entities (of requests).
	writes float64
	// ingress and egress are the bytes a second the account receives
	// (rows written) and sends (rows read by operations other than the
	// questions, whose rows returned summarize adds).
	ingress, egress float64
	// atoms are the partitions of entities picked with a probability of
	// their own: the key of atom id has group -1-id.
	atoms []atomPart
	// target is a partition's entities a second, cap what its bucket
	// holds when full.
	target, cap float64
	// sorted are parts' keys in order, once keys sorts them, and sortedP
	// their loads.
	sorted  []pkey
	sortedP []*partLoad
	// serverPasses are the passes that read one partition at a time,
	// over all partitions (on the partition servers: servers.go).
	serverPasses []passClass
	// lastK and lastP are the key at last asked and its load.
	lastK pkey
	lastP *partLoad
}

func newLoads(lays []*layout, s Size, target, cap float64) *loads {
	return &loads{lays: lays, size: s, parts: map[pkey]*partLoad{}, target: target, cap: cap}
}

// add puts rate requests a second on each partition of k, each charging
// charged entities, counting counted and costing ru request units.
func (l *loads) add(k pkey, rate, charged, counted, ru float64) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return
	}
	p := l.part(k)
	p.charged += rate * charged
	p.counted += rate * counted
	p.sq += rate * counted * counted
	p.ru += rate * ru
	p.reqs += rate
}

// at is parts[k] (nil when k has no load), the last key asked
// remembered: one ask's reads put several figures on a key in a row.
func (l *loads) at(k pkey) *partLoad {
	if l.lastP != nil && l.lastK == k {
		return l.lastP
	}
	p := l.parts[k]
	if p != nil {
		l.lastK, l.lastP = k, p
	}
	return p
}

// part is parts[k], added empty if k has none.
func (l *loads) part(k pkey) *partLoad {
	p := l.at(k)
	if p == nil {
		p = &partLoad{}
		l.parts[k] = p
		l.lastK, l.lastP = k, p
	}
	return p
}

// addTotals adds to each partition of k the entities charged and counted
// a second, the sum of the squares of the counts (each request's, times
// its rate) and the request units.
func (l *loads) addTotals(k pkey, charged, counted, sq, ru float64) {
	if !(charged > 0 || counted > 0) {
		return
	}
	p := l.part(k)
	p.charged += charged
	p.counted += counted
	p.sq += sq
	p.ru += ru
}

// addJoint notes that counted entities a second of each partition of k
// (already added by addTotals), with the sum sq of their squares, are
// read by questions that read block of its partitions at once. Blocks
// of different sizes on one key are taken as the smallest (the least
// shared, the larger expected maximum).
func (l *loads) addJoint(k pkey, counted, sq, block float64) {
	p := l.parts[k]
	if p == nil || !(counted > 0) || block <= 1 {
		return
	}
	p.joint += counted
	p.jointSq += sq
	if p.block == 0 || block < p.block {
		p.block = block
	}
}

// pass notes queries visiting rows of each partition of k at once, rate
// a second, for what (a question's or an operation's name), each alone
// on its partition server: the largest pass, and the pass on the
// partition's bucket and its server's (cap entities, refilled at target
// a second).
func (l *loads) pass(k pkey, rows, rate float64, what string) {
	l.passes(k, rows, rows, rate*math.Max(rows-l.cap, 0), rate, what, true)
}

// passes notes queries of different sizes visiting rows of each partition
// of k at once, rate a second (as a question asked at different moments
// of a time bucket reads more or fewer of its rows): most is the most
// rows one visits, mean their mean, overRate the rows a second its passes
// visit beyond what the partition's bucket holds (each pass's rate times
// its rows over cap). alone says a pass is the only one of its question
// on its partition server at that moment (it reads one partition), so it
// is a pass on the server's bucket too (servers.go puts a question's
// passes over many partitions on the servers itself).
func (l *loads) passes(k pkey, most, mean, overRate, rate float64, what string, alone bool) {
	if !(most > 0) || !(rate > 0) {
		return // a question the mix does not ask visits nothing
	}
	p := l.part(k)
	if most > p.pass {
		p.pass, p.passOf = most, what
	}
	if p.passBy == nil {
		p.passBy = map[string]float64{}
	}
	p.passBy[what] = math.Max(p.passBy[what], most)
	c := passClass{what: what, rate: rate, over: overRate, rows: rate * mean}
	p.passes = addClass(p.passes, c)
	if m := l.mult(k); alone && m > 0 {
		// On the server, a pass weighs the rows it weighs on the
		// partition (size), over the server's own bucket.
		l.serverPasses = addClass(l.serverPasses, passClass{what: what, rate: m * rate, rows: m * rate * c.size(l.cap)})
	}
}

// reads adds rate requests a second on each partition of k.
func (l *loads) reads(k pkey, rate float64) {
	if !(rate > 0) {
		return
	}
	if p := l.at(k); p != nil {
		p.reqs += rate
	}
}

// refused are the requests a second that the partitions refuse while
// in debt after passes (each partition's other requests times the share
// of the time its bucket owes more than they may find, its passes' pages
// times the share it owes more than a page may: debtShares), the
// partition refusing the most, and those requests by the question or
// operation whose passes left the debt (each its share of the rows the
// partition's passes visit).
func (l *loads) refused() (float64, pkey, map[string]float64, bool) {
	total, most := 0.0, 0.0
	var worst pkey
	by := map[string]float64{}
	ok := false
	ks, ps := l.ordered()
	for i, k := range ks {
		p := l.loadOf(k, ps[i])
		if len(p.passes) == 0 {
			continue
		}
		r, rows := refusedOf(p.passes, p.charged, p.reqs, l.cap, l.target)
		if !(r > 0) {
			continue
		}
		total += l.mult(k) * r
		for _, c := range p.passes {
			by[c.what] += l.mult(k) * r * c.rows / rows
		}
		if !ok || r > most {
			worst, most, ok = k, r, true
		}
	}
	return total, worst, by, ok
}

// refusedOf is the requests a second a bucket (cap, target) refuses
// while passes cs run it into debt, charged entities and reqs requests a
// second in all (the passes' among them), and the rows a second the
// passes visit.
func refusedOf(cs []passClass, charged, reqs, cap, target float64) (refused, rows float64) {
	first := 0.0 // the passes' first pages
	for _, c := range cs {
		rows += c.rows
		first += c.rate
	}
	small, query := debtShares(cs, (charged-rows)/target, cap, target)
	first = math.Min(first, reqs)
	return small*(reqs-first) + query*first, rows
}

// account adds rate requests a second, of entities entities and ru units
// each, to the account's totals.
func (l *loads) account(rate, entities, ru float64) {
	if !(rate > 0) {
		return
	}
	l.requests += rate
	l.entities += rate * entities
	l.ru += rate * ru
}

// charged are the entities a second charged to every partition.
func (l *loads) charged() float64 {
	total := 0.0
	ks, ps := l.ordered()
	for i, k := range ks {
		total += l.mult(k) * ps[i].charged
	}
	return total
}

// mult is how many partitions k stands for.
func (l *loads) mult(k pkey) float64 {
	if k.group < 0 {
		return 1
	}
	lay := l.lays[k.lay]
	m := lay.partitionsPerGroup(int(k.group))
	if k.bucket == recent {
		m *= math.Max(lay.buckets(l.size)-recent, 0)
	}
	return m
}

// keys are the loaded partitions' keys in a fixed order, so that every
// sum over them is the same from run to run. They are sorted once while
// no partition is added (parts only grows); callers must not change them.
func (l *loads) keys() []pkey {
	ks, _ := l.ordered()
	return ks
}

// ordered are keys() and each one's partition load (parts[k]).
func (l *loads) ordered() ([]pkey, []*partLoad) {
	if len(l.sorted) != len(l.parts) {
		l.sorted = l.sortedKeys()
		l.sortedP = make([]*partLoad, len(l.sorted))
		for i, k := range l.sorted {
			l.sortedP[i] = l.parts[k]
		}
	}
	return l.sorted, l.sortedP
}

func (l *loads) sortedKeys() []pkey {
	return slices.SortedFunc(maps.Keys(l.parts), func(a, b pkey) int {
		if c := cmp.Compare(a.lay, b.lay); c != 0 {
			return c
		}
		if c := cmp.Compare(a.group, b.group); c != 0 {
			return c
		}
		return cmp.Compare(a.bucket, b.bucket)
	})
}

// load is one partition of k's load: an atom's own on top of its
// group's.
func (l *loads) load(k pkey) partLoad { return l.loadOf(k, l.parts[k]) }

// loadOf is load(k), given parts[k].
func (l *loads) loadOf(k pkey, own *partLoad) partLoad {
	p := *own
	if k.group < 0 {
		if b := l.parts[l.atoms[-1-k.group].base]; b != nil {
			p.charged, p.counted, p.sq, p.ru = p.charged+b.charged, p.counted+b.counted, p.sq+b.sq, p.ru+b.ru
			// An atom is one partition: what it shares with its group's
			// others is taken as its own (joint is the atom's alone).
			p.reqs = p.reqs + b.reqs
			if len(b.passes) > 0 {
				cs := slices.Clone(b.passes)
				for _, c := range p.passes {
					cs = addClass(cs, c)
				}
				p.passes = cs
			}
			if b.pass > p.pass {
				p.pass, p.passOf = b.pass, b.passOf
			}
			p.passBy = mergeBy(b.passBy, p.passBy, math.Max)
			p.chargedBy = mergeBy(b.chargedBy, p.chargedBy, plus)
		}
	}
	return p
}

// busiest is the partition charged the most (ties: the first key), with
// its load, or none (ok false).
func (l *loads) busiest() (pkey, partLoad, bool) {
	var best pkey
	var bl partLoad
	ok := false
	ks, ps := l.ordered()
	for i, k := range ks {
		p := l.loadOf(k, ps[i])
		if l.mult(k) > 0 && (!ok || p.charged > bl.charged) {
			best, bl, ok = k, p, true
		}
	}
	return best, bl, ok
}

// burstiest is the partition one query visits the most rows of at
// once, with its load, or none.
func (l *loads) burstiest() (pkey, partLoad, bool) {
	var best pkey
	var bl partLoad
	ok := false
	ks, ps := l.ordered()
	for i, k := range ks {
		p := l.loadOf(k, ps[i])
		if l.mult(k) > 0 && p.pass > 0 && (!ok || p.pass > bl.pass) {
			best, bl, ok = k, p, true
		}
	}
	return best, bl, ok
}

// busiestRU is the partition charged the most request units a second.
func (l *loads) busiestRU() (pkey, float64, bool) {
	var best pkey
	ru, ok := 0.0, false
	ks, ps := l.ordered()
	for i, k := range ks {
		if p := l.loadOf(k, ps[i]); l.mult(k) > 0 && (!ok || p.ru > ru) {
			best, ru, ok = k, p.ru, true
		}
	}
	return best, ru, ok
}

// pages is the requests a query returning e entities and visiting v
// rows takes: a page ends at azure.PageRows entities or after
// question.PageVisits rows visited, each page is azure.PageRequests
// requests, and there is at least one page.
func pages(e, v float64) float64 {
	return azure.PageRequests * math.Max(1, math.Ceil(math.Max(e/azure.PageRows, v/question.PageVisits)-1e-9))
}
