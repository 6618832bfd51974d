package judge

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// CosmosUnits are a scheme's request units under the Cosmos DB model.
type CosmosUnits struct {
	// WriteUnits is one new entity's (its rows and index rows).
	WriteUnits float64 `json:"write_request_units"`
	// TotalPerSec is the whole workload's at the peak: the throughput to
	// provision, before headroom.
	TotalPerSec float64 `json:"request_units_per_sec"`
	// BusiestPartition and BusiestPerSec: the logical partition charged
	// the most, against its 10,000 RU/s.
	BusiestPartition string  `json:"busiest_partition"`
	BusiestPerSec    float64 `json:"busiest_request_units_per_sec"`
}

// summarize turns the accumulated loads into the figures.
func (j *judging) summarize(f *Figures, s Size) {
	l := f.loads
	f.BusiestPartition = newPartition
	if k, bl, ok := l.busiest(); ok && bl.charged >= l.newRows {
		f.BusiestPartition, f.BusiestEntitiesPerSec = j.partName(l, k, s), bl.charged
	} else {
		f.BusiestEntitiesPerSec = l.newRows
	}
	if k, bl, ok := l.burstiest(); ok {
		f.BurstPartition, f.BurstOf, f.BurstRows, f.BurstEntities = j.partName(l, k, s), bl.passOf, bl.pass, bl.pass+bl.charged
	}
	for x, q := range f.Questions {
		if k, rows, ok := l.burstiestOf(q.Name); ok {
			f.Questions[x].BurstRows, f.Questions[x].BurstPartition = rows, j.partName(l, k, s)
		}
		if k, e, ok := l.hottestOf(q.Name); ok {
			f.Questions[x].ChargedEntitiesPerSec, f.Questions[x].ChargedPartition = e, j.partName(l, k, s)
		}
	}
	f.AccountEntitiesPerSec, f.AccountRequestsPerSec, f.WriteRequestsPerSec = l.entities, l.requests, l.writes
	f.IngressBytesPerSec, f.EgressBytesPerSec = l.ingress, l.egress
	for _, q := range f.Questions {
		f.EgressBytesPerSec += q.PerSec * q.RowsPerQuestion * float64(j.item.bytes)
	}
	if r, k, by, ok := l.refused(); ok && l.requests > 0 && !j.in.Cosmos() {
		f.ThrottledShare, f.ThrottledPartition = math.Min(r/l.requests, 1), j.partName(l, k, s)
		for x, q := range f.Questions {
			if q.PerSec > 0 {
				f.Questions[x].RefusedPerQuestion = by[q.Name] / q.PerSec
			}
		}
	}
	j.servers(f)
	f.BusiestWriteEntitiesPerSec = j.topWrite(s)
	for x, lay := range j.lays {
		if lay.unique {
			if lay.rows > f.LargestPartitionRows {
				f.LargestPartitionRows, f.LargestPartition = lay.rows, tableLabel(j.lays[x].table, newPartition)
				f.largestTable, f.largestBucket = lay.table, lay.unit
			}
			continue
		}
		for g := range lay.groups {
			if rows := lay.bucketRows(g, s); rows > f.LargestPartitionRows {
				f.LargestPartitionRows, f.LargestPartition = rows, lay.name(j.in, g, s.Last)
				f.largestTable, f.largestBucket = lay.table, lay.unit
			}
		}
	}
	if j.in.Cosmos() {
		c := &CosmosUnits{TotalPerSec: l.ru, WriteUnits: float64(j.scheme.RowsPerEntity()) * model.WriteUnits(j.item.bytes, j.item.props)}
		for _, b := range j.item.indexBytes {
			c.WriteUnits += model.WriteUnits(b, 2)
		}
		if k, ru, ok := l.busiestRU(); ok {
			c.BusiestPartition, c.BusiestPerSec = j.partName(l, k, s), ru
		}
		f.Cosmos = c
	}
}

// topWrite is the new entities' rows a second the main table's partition
// taking the largest share of them gets.
func (j *judging) topWrite(s Size) float64 {
	main := j.lays[0]
	w := j.newEntities()
	if main.unique {
		return main.rows
	}
	top := 0.0
	for _, g := range main.groups {
		top = math.Max(top, g.share/main.hashes)
	}
	return w * top * j.turnover(main, s, w) * main.rows
}

// partName renders the partition k names at size s.
func (j *judging) partName(l *loads, k pkey, s Size) string {
	if k.group < 0 {
		return l.atoms[-1-k.group].name
	}
	lay := j.lays[k.lay]
	at := s.Last
	if lay.unit > 0 && k.bucket > 0 { // the middle of the bucket
		at = at.Add(-time.Duration(k.bucket)*lay.unit + lay.unit/2)
	}
	return lay.name(j.in, int(k.group), at)
}

func tableLabel(table, pk string) string {
	if table == "" {
		return pk
	}
	return table + "/" + pk
}

// sizes fills the size figures of the main table at the horizon: its
// largest partition's rows and bytes.
func (j *judging) sizes() {
	main := j.lays[0]
	s := j.in.HorizonSize()
	rows := main.rows
	if !main.unique {
		rows = 0
		for g := range main.groups {
			rows = math.Max(rows, main.bucketRows(g, s))
		}
	}
	j.p.RowsAfterHorizon = rows
	j.p.BytesAfterHorizon = rows * float64(j.item.bytes)
}
