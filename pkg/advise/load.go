package advise

import "math"

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
	// ru are the request units it is charged (Cosmos DB).
	ru float64
}

// loads accumulates a workload's predicted load.
type loads struct {
	parts map[string]*partLoad
	// newRows is the rows each new partition takes when every new entity
	// has a PartitionKey of its own (0 otherwise), and newRate how many
	// such partitions a second.
	newRows, newRate float64
	// account figures per second.
	requests, entities, ru float64
}

func newLoads() *loads { return &loads{parts: map[string]*partLoad{}} }

// add puts rate requests a second on part, each charging charged
// entities, counting counted and costing ru request units.
func (l *loads) add(part string, rate, charged, counted, ru float64) {
	if !(rate > 0) {
		return
	}
	p := l.parts[part]
	if p == nil {
		p = &partLoad{}
		l.parts[part] = p
	}
	p.charged += rate * charged
	p.counted += rate * counted
	p.sq += rate * counted * counted
	p.ru += rate * ru
}

// account adds rate requests a second, of entities entities and ru units
// each, to the account's totals.
func (l *loads) account(rate, entities, ru float64) {
	l.requests += rate
	l.entities += rate * entities
	l.ru += rate * ru
}

// busiest is the partition charged the most (ties: the first key), with
// its load; a new partition per entity counts as one taking newRows a
// second.
func (l *loads) busiest() (string, partLoad) {
	best, bl := "", partLoad{}
	for k, p := range l.parts {
		if k == crossPartition {
			continue
		}
		if p.charged > bl.charged || (p.charged == bl.charged && (best == "" || k < best)) {
			best, bl = k, *p
		}
	}
	if l.newRows > bl.charged {
		return newPartition, partLoad{charged: l.newRows, counted: l.newRows, sq: l.newRows * l.newRows}
	}
	return best, bl
}

// busiestRU is the most request units one partition is charged a second.
func (l *loads) busiestRU() (string, float64) {
	best, ru := "", 0.0
	for k, p := range l.parts {
		if k != crossPartition && (p.ru > ru || (p.ru == ru && k < best)) {
			best, ru = k, p.ru
		}
	}
	return best, ru
}

// The pseudo-partitions: requests spanning partitions (a run's reports
// name them "*"), and a new partition per entity.
const (
	crossPartition = "*"
	newPartition   = "(a new partition per entity)"
)

// pages is the pages a query returning e entities takes: one per 1,000
// entities, at least one.
func pages(e float64) float64 { return math.Max(1, math.Ceil(e/1000)) }
