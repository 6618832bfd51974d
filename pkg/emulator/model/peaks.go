package model

// Peaks are the most entities a table's partitions and end ranges were
// given (admitted or charged) in one second of the model's clock, by
// windows aligned to whole seconds since the model started. They are what
// the service actually allowed, measured where it decided, so they show a
// target held exactly whatever the clients measured: no partition's peak
// exceeds its target plus its bucket's capacity.
//
// Under Cosmos DB the peaks count request units: each logical partition's
// (Partitions) and each physical partition's (Physical).
type Peaks struct {
	// Unit is what the peaks count: "entities" or "RU".
	Unit string
	// Partitions maps each PartitionKey the model still tracks (idle ones
	// are forgotten after a while) to its peak.
	Partitions map[string]float64
	// First and Last are the peaks of the table's end ranges (prepend-only
	// and append-only inserts).
	First, Last float64
	// Physical are the peaks of the table's physical partitions (Cosmos
	// DB), in RU.
	Physical []float64
}

// Peaks returns the peaks of table's partitions and end ranges. It locks
// one shard at a time.
func (m *Model) Peaks(table string) Peaks {
	out := Peaks{Unit: m.unit(), Partitions: map[string]float64{}}
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		for k, p := range sh.parts {
			if k.table == table {
				out.Partitions[k.pk] = float64(p.m.peak)
			}
		}
		sh.mu.Unlock()
	}
	m.tables.each(func(name string, t *tableRanges) {
		if name != table {
			return
		}
		for i := range t.phys {
			t.phys[i].mu.Lock()
			out.Physical = append(out.Physical, float64(t.phys[i].served.peak))
			t.phys[i].mu.Unlock()
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		for end, e := range t.ends {
			if end == firstEnd {
				out.First = float64(e.served.peak)
			} else {
				out.Last = float64(e.served.peak)
			}
		}
	})
	return out
}
