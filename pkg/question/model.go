package question

import (
	"context"
	"slices"
	"sync"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// PageVisits is how many entities a query visits before its page ends: a
// page ends at azure.PageRows entities, where the query crosses a
// partition boundary, and after azure.PageExecution of execution, which
// the embedded service's Azure model spends visiting 100,000 entities
// (50 µs each, model.Model's PageVisits at its defaults).
const PageVisits = 100_000

// Model is an in-memory model of a scheme's table (and its index tables)
// holding entities [0, n) of a population and nothing else: a Source that
// answers a plan as the Table service would and counts, per question, the
// requests (pages), partitions and rows it visits. It needs no server;
// building it renders every entity's keys once (O(n) memory). A Model is
// safe for concurrent use.
type Model struct {
	pop     *keygen.Population
	n       int64
	main    *modelTable
	indexes map[string]*modelTable
	mu      sync.Mutex
	values  map[string][]keygen.Value // a field's value of every entity, drawn on first use
}

type modelTable struct {
	pks   []string // in the service's key order (keyorder), as each partition's rows
	parts map[string][]modelRow
}

type modelRow struct {
	rk             string
	seq            int64
	ticks          int64
	mainPK, mainRK string
}

// NewModel builds the model of scheme's tables holding entities [0, n).
func NewModel(pop *keygen.Population, scheme *keygen.Scheme, n int64) *Model {
	m := &Model{pop: pop, n: n, main: &modelTable{parts: map[string][]modelRow{}}, indexes: map[string]*modelTable{}, values: map[string][]keygen.Value{}}
	for _, ix := range scheme.Indexes {
		m.indexes[ix.Name] = &modelTable{parts: map[string][]modelRow{}}
	}
	var e keygen.Entity
	var k keygen.Keys
	for i := int64(0); i < n; i++ {
		pop.Entity(i, &e)
		scheme.Keys(&e, &k)
		t := keygen.Ticks(e.Time)
		pk := string(k.PK)
		m.main.add(pk, modelRow{rk: string(k.RK), seq: i, ticks: t})
		for _, r := range k.Rows {
			m.main.add(pk, modelRow{rk: string(r), seq: i, ticks: t})
		}
		for x := range scheme.Indexes {
			ix := &scheme.Indexes[x]
			seq := int64(-1)
			if ix.Projects() {
				seq = i // a projection carries the entity's Seq and fields
			}
			m.indexes[ix.Name].add(string(k.Index[x].PK), modelRow{rk: string(k.Index[x].RK), seq: seq, ticks: t, mainPK: pk, mainRK: string(k.RK)})
		}
	}
	for _, t := range append([]*modelTable{m.main}, mapValues(m.indexes)...) {
		t.order()
	}
	return m
}

// order sorts the table's rows and PartitionKeys as the Table service
// keeps keys (keyorder: by UTF-16 code units), and lists its
// PartitionKeys.
func (t *modelTable) order() {
	t.pks = t.pks[:0]
	for pk, rows := range t.parts {
		slices.SortFunc(rows, func(a, b modelRow) int { return keyorder.Compare(a.rk, b.rk) })
		t.pks = append(t.pks, pk)
	}
	slices.SortFunc(t.pks, keyorder.Compare)
}

func mapValues(m map[string]*modelTable) []*modelTable {
	out := make([]*modelTable, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func (t *modelTable) add(pk string, r modelRow) { t.parts[pk] = append(t.parts[pk], r) }

// Cost is what answering one question took.
type Cost struct {
	Requests, Partitions, Visited, Returned int
	// Gets are the requests that were point reads (the rest are query
	// pages).
	Gets int
	// Rounds are the requests one after another, as the question waits
	// for them: requests sent at once (Parallel) count as the longest of
	// them.
	Rounds int
}

// Ask answers the plan for the picked entity on the model and returns the
// answer and its cost.
func (m *Model) Ask(ctx context.Context, p *Plan, picked *keygen.Entity, b Bounds) ([]Row, Cost, error) {
	c := &counting{m: m, parts: map[string]bool{}, upTo: keygen.Ticks(b.Last)}
	rows, err := p.Execute(ctx, c, picked, b)
	c.cost.Partitions = len(c.parts)
	c.cost.Returned = len(rows)
	return rows, c.cost, err
}

// PartLoad is what answering questions asked of one partition: the rows
// its requests visited (what the Table service charges the partition) and
// returned (what a client counts).
type PartLoad struct{ Visited, Returned int }

// AskLoad is Ask that also says, per partition, the rows visited and
// returned. Partitions are named as a run's report names them: a main
// table's PartitionKey, "Index/PartitionKey" for an index table's; a
// table scan's rows are under each partition they were visited in.
func (m *Model) AskLoad(ctx context.Context, p *Plan, picked *keygen.Entity, b Bounds) (map[string]PartLoad, Cost, error) {
	c := &counting{m: m, parts: map[string]bool{}, load: map[string]PartLoad{}, upTo: keygen.Ticks(b.Last)}
	rows, err := p.Execute(ctx, c, picked, b)
	c.cost.Partitions = len(c.parts)
	c.cost.Returned = len(rows)
	return c.load, c.cost, err
}

// counting is a Source over a Model that counts one question's cost (and,
// when load is set, its rows per partition). Rows of entities after the
// bounds' last (event time past upTo, in ticks) are not written yet: a
// question neither finds nor visits them.
type counting struct {
	m     *Model
	cost  Cost
	parts map[string]bool
	load  map[string]PartLoad
	upTo  int64
}

// row counts one row visited in a partition, and returned when matched.
func (c *counting) row(part string, matched bool) {
	if c.load == nil {
		return
	}
	l := c.load[part]
	l.Visited++
	if matched {
		l.Returned++
	}
	c.load[part] = l
}

// label names a partition of table as a run's report does.
func label(table, pk string) string {
	if table == "" {
		return pk
	}
	return table + "/" + pk
}

// Get implements Source.
func (c *counting) Get(_ context.Context, pk, rk string) (Row, bool, error) {
	c.cost.Requests++
	c.cost.Gets++
	c.cost.Rounds++
	c.parts["\x00"+pk] = true
	rows := c.m.main.parts[pk]
	k, ok := slices.BinarySearchFunc(rows, rk, func(r modelRow, rk string) int { return keyorder.Compare(r.rk, rk) })
	if !ok || rows[k].ticks > c.upTo {
		return Row{}, false, nil
	}
	c.cost.Visited++
	c.row(pk, true)
	return rows[k].row(), true, nil
}

func (r modelRow) row() Row {
	return Row{Seq: r.seq, Ticks: r.ticks, MainPK: r.mainPK, MainRK: r.mainRK, RK: r.rk}
}

// Query implements Source: pages as the Table service cuts them.
func (c *counting) Query(_ context.Context, q Query) ([]Row, error) {
	t := c.m.main
	if q.Table != "" {
		t = c.m.indexes[q.Table]
	}
	pks := []string{q.PK}
	if q.AnyPK {
		pks = t.pks
	}
	var out []Row
	cols := make([][]keygen.Value, len(q.Equal))
	for k, eq := range q.Equal {
		cols[k] = c.m.column(eq.Field)
	}
	reqs, page, visits := 0, 0, 0
	flush := func() { reqs++; page, visits = 0, 0 }
	defer func() { c.cost.Requests += reqs; c.cost.Rounds += reqs }()
	for _, pk := range pks {
		rows := t.parts[pk]
		lo := q.first(rows)
		if !q.AnyPK || len(rows) > 0 {
			c.parts[q.Table+"\x00"+pk] = true // asked, even if it holds nothing
		}
		lab := label(q.Table, pk)
		for _, r := range rows[lo:] {
			if q.RKTo != "" && !keyorder.Less(r.rk, q.RKTo) {
				break
			}
			if r.ticks > c.upTo {
				continue
			}
			visits++
			c.cost.Visited++
			matched := c.m.matches(q, r, cols)
			c.row(lab, matched)
			if matched {
				out = append(out, r.row())
				page++
			}
			if q.Top > 0 && len(out) >= q.Top {
				flush()
				return out, nil
			}
			if page == azure.PageRows || visits == PageVisits {
				flush()
			}
		}
		if q.AnyPK && (page > 0 || visits > 0) {
			flush() // a page ends where the query crosses a partition boundary
		}
	}
	if page > 0 || visits > 0 || reqs == 0 {
		flush()
	}
	return out, nil
}

// first is the index of the first of a partition's rows (in key order)
// the query's RowKey bounds let in: at or after RKFrom, after RKAfter.
func (q Query) first(rows []modelRow) int {
	at := func(rk string) (int, bool) {
		return slices.BinarySearchFunc(rows, rk, func(r modelRow, rk string) int { return keyorder.Compare(r.rk, rk) })
	}
	lo := 0
	if q.RKFrom != "" {
		lo, _ = at(q.RKFrom)
	}
	if q.RKAfter != "" {
		after, found := at(q.RKAfter)
		if found {
			after++
		}
		lo = max(lo, after)
	}
	return lo
}

// matches evaluates a query's property filters on a row; cols are the
// columns of q.Equal's fields.
func (m *Model) matches(q Query, r modelRow, cols [][]keygen.Value) bool {
	if q.Time != nil && !q.Time.Contains(r.ticks) {
		return false
	}
	for k, eq := range q.Equal {
		if cols[k][r.seq] != eq.Raw {
			return false
		}
	}
	return true
}

// column is field's value of every entity of the model.
func (m *Model) column(field string) []keygen.Value {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.values[field]; ok {
		return v
	}
	v := make([]keygen.Value, m.n)
	for i := range v {
		v[i], _ = m.pop.FieldValue(field, int64(i))
	}
	m.values[field] = v
	return v
}
