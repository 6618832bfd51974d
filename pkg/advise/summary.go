package advise

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
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
	// Needed is what the table must be provisioned so the workload uses
	// at most the headroom share of it, rounded up to 100 RU/s.
	Needed float64 `json:"needed_request_units_per_sec"`
}

// summarize turns the accumulated loads into the prediction's figures.
func (j *judging) summarize() {
	p, l := j.p, j.l
	p.loads = l
	p.BusiestPartition, _ = l.busiest()
	b := partLoad{}
	if p.BusiestPartition == newPartition {
		b.charged = l.newRows
	} else if bl := l.parts[p.BusiestPartition]; bl != nil {
		b = *bl
	}
	p.BusiestEntitiesPerSec = b.charged
	p.AccountEntitiesPerSec, p.AccountRequestsPerSec = l.entities, l.requests
	w := p.write
	top := 0.0
	for _, s := range w.shares {
		top = math.Max(top, s)
	}
	switch {
	case w.unique:
		p.PartitionsWritten = int(math.Min(j.newEntities(), math.MaxInt32))
		p.BusiestWriteEntitiesPerSec = j.rows
		p.RowsAfterHorizon = j.rows
	default:
		p.PartitionsWritten = len(w.shares)
		p.BusiestWriteEntitiesPerSec = j.newEntities() * top * w.bucket * j.rows
		p.RowsAfterHorizon = top * j.rows * j.in.entitiesOver(j.in.bucketLen(j.scheme.PK))
	}
	p.BytesAfterHorizon = p.RowsAfterHorizon * float64(j.item.bytes)
	if j.in.Cosmos() {
		part, ru := l.busiestRU()
		need := math.Ceil(l.ru/j.in.Opts.Headroom/100) * 100
		p.Cosmos = &CosmosUnits{WriteUnits: j.rows*model.WriteUnits(j.item.bytes, j.item.props) + float64(len(j.scheme.Indexes))*model.WriteUnits(j.item.indexBytes, 2),
			TotalPerSec: l.ru, BusiestPartition: part, BusiestPerSec: ru, Needed: need}
	}
}

// bucketLen is the event time one partition of template t spans: its
// finest time bucket within the horizon, or the horizon.
func (in *Input) bucketLen(t *keygen.Template) time.Duration {
	life := in.Opts.Horizon
	for _, p := range t.Parts() {
		if p.Kind != keygen.PartLiteral {
			if s := sourceOf(in.Pop, p); s.kind == srcBucket {
				life = min(life, s.res)
			}
		}
	}
	return life
}

// entitiesOver is how many entities the population writes over d of
// event time: d / interval (event time moves by the interval per entity,
// which is how the scenario says how fast the data grows). Without an
// interval, the peak write rate stands for it.
func (in *Input) entitiesOver(d time.Duration) float64 {
	if iv := in.Pop.Spec().Interval; iv > 0 {
		return float64(d) / float64(iv)
	}
	return d.Seconds() * in.Peak
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
