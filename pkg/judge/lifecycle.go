package judge

import (
	"math"
	"time"
)

// Deletion is what deleting data older than the retention costs a
// scheme at the horizon, at the steady state where as many entities
// expire a second as are written (Azure Storage "Table design patterns",
// "High volume delete pattern").
type Deletion struct {
	// Retention is the age data is deleted at.
	Retention string `json:"retention"`
	// Tables says per table how its old rows go: by partition (a range
	// read of each expired time bucket's partition and entity group
	// transactions of 100 deletes; or a table per period, deleted at
	// once) or by sweep (a filter on the event time visiting every row,
	// then each entity deleted on its own).
	Tables []TableDeletion `json:"tables"`
	// AccountRequestsPerSec is every table's deletion requests a second.
	AccountRequestsPerSec float64 `json:"account_requests_per_sec"`
	// BusiestPartition is the partition the deletion charges the most,
	// BusiestEntitiesPerSec what it charges it (rows read and deleted).
	BusiestPartition      string  `json:"busiest_partition"`
	BusiestEntitiesPerSec float64 `json:"busiest_entities_per_sec"`
}

// live is the partition deleting old data charges the most among those
// that keep taking the load while it does (a sweep's, or an index row's
// deleted with its entity), and what it charges. A partition deleted
// whole (an expired time bucket's, a retired key's) takes no other load:
// the pace of deleting it is the operator's to choose, spread over as
// long as the data may outlive the retention, so it charges no partition
// a share of its target, only the account its requests.
func (d *Deletion) live() (string, float64) {
	part, most := "", 0.0
	for _, t := range d.Tables {
		if t.How != "partitions" && t.How != "retired" && t.BusiestEntitiesPerSec > most {
			part, most = t.BusiestPartition, t.BusiestEntitiesPerSec
		}
	}
	return part, most
}

// TableDeletion is one table's deletion.
type TableDeletion struct {
	Table string `json:"table"`
	// How is "partitions" (a time bucket's partitions expire together),
	// "retired" (each key's partition once its key retired and its rows
	// are older than the retention, a key with a lifetime), "sweep" or
	// "with each entity".
	How string `json:"how"`
	// Period is how often a partition expires (its time bucket), the
	// life of a retiring key, or how often the sweep runs.
	Period string `json:"period"`
	// PartitionsPerSec is how many partitions a second are deleted whole
	// ("partitions" and "retired").
	PartitionsPerSec      float64 `json:"partitions_per_sec,omitempty"`
	RequestsPerSec        float64 `json:"requests_per_sec"`
	RowsVisitedPerSec     float64 `json:"rows_visited_per_sec"`
	BusiestPartition      string  `json:"busiest_partition"`
	BusiestEntitiesPerSec float64 `json:"busiest_entities_per_sec"`
}

// sweepPeriod is how often a sweep for old entities runs: daily, or as
// often as the retention when it is shorter.
func sweepPeriod(retention time.Duration) time.Duration {
	return min(24*time.Hour, retention)
}

// deletion is the cost of deleting what the retention expires, at size s
// (the horizon).
func (j *judging) deletion(s Size) *Deletion {
	r := j.in.Opts.Retention
	d := &Deletion{Retention: spanText(r)}
	w := j.in.insertRate()
	for x, lay := range j.lays {
		var t TableDeletion
		if (lay.unit > 0 && lay.unit <= r || lay.unit <= 0 && lay.life > 0 && lay.life <= r) && !lay.unique {
			t = j.byPartition(lay, s)
		} else {
			t = j.bySweep(x, lay, s, w, r)
		}
		d.Tables = append(d.Tables, t)
		d.AccountRequestsPerSec += t.RequestsPerSec
		if t.BusiestEntitiesPerSec > d.BusiestEntitiesPerSec {
			d.BusiestEntitiesPerSec, d.BusiestPartition = t.BusiestEntitiesPerSec, t.BusiestPartition
		}
	}
	return d
}

// byPartition deletes a time-bucketed table's expired partitions: each
// bucket's partitions expire together, every unit of event time; each
// is read (pages of 1,000) and its rows deleted in transactions of 100,
// the work spread over the unit. A table keyed by keys with a lifetime
// no longer than the retention loses its retired keys' partitions
// likewise, as many a life as are live at once.
func (j *judging) byPartition(lay *layout, s Size) TableDeletion {
	u := lay.unit
	if u <= 0 {
		u = lay.life
	}
	t := TableDeletion{Table: tableName(lay.table), How: "partitions", Period: spanText(u)}
	if lay.unit <= 0 {
		t.How = "retired"
	}
	l := u.Seconds()
	for g := range lay.groups {
		rows := lay.bucketRows(g, s)
		n := lay.partitionsPerGroup(g)
		reqs := pages(rows, rows) + math.Ceil(rows/100)
		t.RequestsPerSec += n * reqs / l
		t.PartitionsPerSec += n / l
		t.RowsVisitedPerSec += n * rows / l
		if charged := 2 * rows / l; charged > t.BusiestEntitiesPerSec {
			t.BusiestEntitiesPerSec, t.BusiestPartition = charged, lay.name(j.in, g, s.Last.Add(-j.in.Opts.Retention))
		}
	}
	return t
}

// bySweep deletes a table without time buckets: every period a filter
// on the event time visits every row of the main table to find the old
// ones, which are deleted one by one (an entity's secondary rows with it
// in one transaction); an index table's rows are deleted with their
// entity, each a request, found from the entity.
func (j *judging) bySweep(x int, lay *layout, s Size, w float64, r time.Duration) TableDeletion {
	p := sweepPeriod(r)
	t := TableDeletion{Table: tableName(lay.table), How: "sweep", Period: spanText(p), RequestsPerSec: w}
	if x > 0 {
		t.How = "with each entity"
	}
	rows := s.Entities * lay.rows
	if x == 0 {
		expired := w * p.Seconds() * lay.rows
		t.RequestsPerSec += pages(expired, rows) / p.Seconds()
		t.RowsVisitedPerSec = rows / p.Seconds()
	}
	if lay.unique {
		t.BusiestPartition, t.BusiestEntitiesPerSec = tableLabel(lay.table, newPartition), lay.rows
		return t
	}
	for g := range lay.groups {
		part := lay.bucketRows(g, s)
		share := lay.groups[g].share / lay.hashes
		charged := w * share * lay.rows // its deletes
		if x == 0 {
			charged += part / p.Seconds() // the sweep's visits
		}
		if charged > t.BusiestEntitiesPerSec {
			t.BusiestEntitiesPerSec, t.BusiestPartition = charged, lay.name(j.in, g, s.Last)
		}
	}
	return t
}

func tableName(table string) string {
	if table == "" {
		return "main"
	}
	return table
}
