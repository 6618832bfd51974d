package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// selectivityScenario scans a device's partition (10 devices, 2,000 rows
// each) with a filter on fields the PartitionKey does not name.
const selectivityScenario = `
name: sel
seed: 4
population:
  entities: 20000
  interval: 2s
  payload: 16B
  fields:
    device: {kind: id, count: 10, prefix: dev-, width: 3, distribution: sequential}
    status: {kind: choice, values: [ok, warn, error], weights: [90, 8, 2]}
    amount: {kind: int, min: 0, max: 99}
schemes:
  - name: device
    partition_key: "{device}"
    row_key: "{inverted_ticks}"
workload:
  duration: 10s
  rate: 20/s
  mix:
    - {op: partition_scan, filter: "%s", max_pages: 0}
`

// jsonRow is a row as the runner writes it (keygen's AppendJSON), read
// back from its JSON with its annotations: the reference the judge's
// estimate is checked against.
type jsonRow map[string]filter.Value

func rowOf(t *testing.T, body []byte) jsonRow {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	r := jsonRow{}
	for k, v := range m {
		if strings.Contains(k, "@") {
			continue
		}
		s, _ := v.(string)
		switch m[k+"@odata.type"] {
		case "Edm.Int64":
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			r[k] = filter.Value{Kind: filter.Int64, I: i}
		case "Edm.DateTime":
			tm, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				t.Fatal(err)
			}
			r[k] = filter.Value{Kind: filter.Time, T: tm}
		default:
			switch x := v.(type) {
			case string:
				r[k] = filter.Value{Kind: filter.String, S: x}
			case float64:
				r[k] = filter.Value{Kind: filter.Int32, I: int64(x)}
			}
		}
	}
	return r
}

func (r jsonRow) Get(name string) (filter.Value, bool) { v, ok := r[name]; return v, ok }

// A filtered scan's client rows are the share of the rows it visits that
// its filter selects, read as the service reads the filter: for every
// filter, the judge's account entities/s are the scan rate times the
// rows of a device's partition times that share, within four standard
// errors of the estimate's draws of the exact share over the seeded rows
// (each row as the runner writes it); the partition is charged every row
// it visits, whatever the filter returns. An Int64 field compared with an
// Int32 literal selects nothing, as on Azure.
func TestFilteredScanReturnsItsSelectivity(t *testing.T) {
	for _, f := range []string{"status eq 'error'", "status ne 'ok'", "amount lt 10L", "amount lt 10", "status eq 'warn' or amount ge 95L", "not (status eq 'ok')"} {
		in := prepare(t, "sel", []byte(fmt.Sprintf(selectivityScenario, f)))
		n, err := filter.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		var e keygen.Entity
		var buf []byte
		hits := 0
		for i := range in.Seeded {
			in.Pop.Entity(i, &e)
			buf = in.Pop.AppendJSON(buf[:0], &e, []byte("pk"), []byte("rk"), 0)
			if n.Eval(rowOf(t, buf)) {
				hits++
			}
		}
		exact := float64(hits) / float64(in.Seeded)
		p, err := in.Judge(context.Background(), in.Own[0])
		if err != nil {
			t.Fatal(err)
		}
		got := p.Seeded.AccountEntitiesPerSec / (20 * 2000)
		se := math.Sqrt(exact * (1 - exact) / selectivityDraws)
		if math.Abs(got-exact) > 4*se+1e-9 {
			t.Errorf("%s: the judge returns %.4f of the rows it visits, the seeded rows %.4f (4 sd of the estimate: %.4f)", f, got, exact, 4*se)
		}
		if b := p.Seeded.BusiestEntitiesPerSec; math.Abs(b-2*2000) > 1 {
			t.Errorf("%s: the busiest partition is charged %.1f entities/s, want the 2 scans a second of its 2,000 rows (4,000)", f, b)
		}
	}
}

// A filter reads what an index row carries and nothing else: a
// comparison with a field the row does not carry matches nothing, as on
// Azure, so the same filter selects on an index that carries the field
// and returns nothing from one that does not.
func TestFilterOnAnIndexRowReadsWhatItCarries(t *testing.T) {
	src := strings.Replace(fmt.Sprintf(selectivityScenario, "status eq 'error'"), `    row_key: "{inverted_ticks}"
`, `    row_key: "{inverted_ticks}"
    indexes:
      - {name: Carrying, partition_key: "{device}", row_key: "{inverted_ticks}", carries: [status]}
      - {name: Bare, partition_key: "{device}", row_key: "{inverted_ticks}"}
`, 1)
	in := prepare(t, "sel", []byte(src))
	j, err := in.judging(in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	s := Size{Name: "seeded", Entities: float64(in.Seeded)}
	main, carrying, bare := j.selectivity("status eq 'error'", 0, s, false), j.selectivity("status eq 'error'", 1, s, false), j.selectivity("status eq 'error'", 2, s, false)
	if main < 0.015 || main > 0.025 || carrying != main || bare != 0 {
		t.Errorf("status eq 'error': main table %.4f, an index carrying status %.4f, one that does not %.4f; want about 0.02, the same, 0", main, carrying, bare)
	}
	if got := j.selectivity("Timestamp gt datetime'2025-01-01T00:00:00Z'", 0, s, false); got != 1 {
		t.Errorf("a filter on Timestamp, which the population does not model: %.4f, want 1 (every row)", got)
	}
}
