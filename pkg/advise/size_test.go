package advise

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// The time bucket is the coarsest that keeps the busiest partition within
// the size bound over the horizon: the IoT devices (3,036 new readings a
// second at the peak, one device in 20) fill a day's partition past
// 1,000,000 rows and an hour's under it; after the horizon an unbucketed
// device holds the horizon's share. The table at the horizon grows at the
// workload's write rate, not at the population's interval (333 µs, 3,003
// a second), which only spaces the seeded entities.
func TestTimeBucketBoundsSize(t *testing.T) {
	a := adviseOn(t, "iot-telemetry")
	in := a.Input
	share := in.topShare("device")
	if u := in.granularity(share, 0, in.itemBytes()); u != keygen.Hour {
		t.Fatalf("granularity %v, want hour", u)
	}
	perEntity := float64(time.Second) / in.InsertRate()
	hour, day := share*float64(time.Hour)/perEntity, share*float64(24*time.Hour)/perEntity
	if hour > 1e6 || day <= 1e6 {
		t.Fatalf("a device's hour holds %v rows, its day %v: the bound does not fall between", hour, day)
	}
	r := a.Recommended
	if r.Candidate.Unit != keygen.Hour || !strings.Contains(r.PartitionKey, "{time:yyyy-MM-dd-HH}") {
		t.Errorf("recommended %s: want an hour bucket", r.PartitionKey)
	}
	if got := r.Predicted.RowsAfterHorizon; math.Abs(got-hour) > 1e-6*hour {
		t.Errorf("rows after the horizon %v, want a device's hour, %v", got, hour)
	}
	if got, want := candidate(t, a, "device").Prediction.RowsAfterHorizon, share*float64(in.Opts.Horizon)/perEntity; math.Abs(got-want) > 1e-6*want {
		t.Errorf("device: rows after the horizon %v, want %v", got, want)
	}
}

// Under Cosmos DB a write costs the published request units of its body,
// and the 20 GB logical partition bounds the time bucket too: devices
// writing 64 KiB readings need minute partitions where 1,000,000 rows
// would allow hours, and a device's partition left to grow is refused.
func TestCosmosUnitsAndLogicalPartitionLimit(t *testing.T) {
	sc, _ := load(t, "iot-telemetry")
	sc.Population.Payload = 64 << 10
	opts := Defaults()
	var err error
	if opts.Model, err = model.Parse("cosmos,ru=1000000"); err != nil {
		t.Fatal(err)
	}
	a := adviseParsed(t, sc, opts)
	in := a.Input
	r := a.Recommended
	if r == nil || r.Candidate.Unit != keygen.Minute || r.Predicted.BytesAfterHorizon > opts.Headroom*float64(opts.Model.Cosmos.LogicalBytes) {
		t.Fatalf("recommended %+v: want minute partitions within the headroom of 20 GB", r)
	}
	dev := candidate(t, a, "device")
	if !hasProblem(in, dev, "over Cosmos DB's 20 GB") {
		t.Errorf("device: problems %v, want the 20 GB limit", dev.Problems)
	}
	var e keygen.Entity
	in.Pop.Entity(in.Seeded, &e)
	var k keygen.Keys
	r.Candidate.Scheme.Keys(&e, &k)
	body := in.Pop.AppendJSON(nil, &e, k.PK, k.RK, 0)
	if got, want := r.Predicted.Cosmos.WriteUnits, model.WriteUnits(len(body), propertiesOf(t, body)); math.Abs(got-want) > 1e-9 || want < 20 {
		t.Errorf("request units per write %v, want %v for a body of %d bytes", got, want, len(body))
	}
	// Per question: a point read of the reading; the newest 50 of a device
	// in one page, each row returned a read.
	for _, q := range r.Predicted.Questions {
		want := model.ReadUnits(len(body))
		if q.Name == "newest-by-device" {
			want = model.QueryUnits(int(q.RequestsPerQuestion), 50, 50, len(body))
		}
		if math.Abs(q.RequestUnitsPerQuestion-want) > 0.01*want {
			t.Errorf("%s (%s): %v RU a question, want %v", q.Name, q.Label, q.RequestUnitsPerQuestion, want)
		}
	}
}

// hasProblem reports whether one of c's problems, in the judge's words,
// says text.
func hasProblem(in *Input, c *Candidate, text string) bool {
	for _, p := range in.words(c.Problems) {
		if strings.Contains(p, text) {
			return true
		}
	}
	return false
}

// propertiesOf counts a JSON entity's properties, its keys and type
// annotations left out (as the Cosmos DB model charges a write).
func propertiesOf(t *testing.T, body []byte) int {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name := range m {
		if name != "PartitionKey" && name != "RowKey" && !strings.Contains(name, "@odata") {
			n++
		}
	}
	return n
}
