package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// manyParcels is a scenario of n parcels scanned 1,000 times a second,
// whose tracking page asks a parcel's newest 5 scans.
func manyParcels(t *testing.T, n string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "parcels.yaml")
	src := fmt.Sprintf(`name: parcels
population:
  entities: 50k
  interval: 1ms
  fields:
    parcel: {kind: id, count: %s, prefix: P, width: 9}
questions:
  - {name: tracked, known: [parcel], want: newest, limit: 5}
schemes:
  - {name: by-parcel, partition_key: "{parcel}", row_key: "{inverted_ticks}"}
workload:
  rate: 1010/s
  mix:
    - {op: insert, weight: 1000}
    - {question: tracked, weight: 10}
`, n)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// keys and advise judge a field of 2,000,000 or 100,000,000 values by
// its law: a parcel's partition holds entities ÷ keys rows at the horizon
// (31,536,000,000 scans over a year), and advise keys the table by the
// parcel.
func TestKeysAndAdviseOnManyValues(t *testing.T) {
	for _, n := range []string{"2M", "100M"} {
		keys := map[string]float64{"2M": 2e6, "100M": 1e8}[n]
		lambda := 1000 * 365 * 86400 / keys
		path := manyParcels(t, n)
		code, out, errs := runCLI(t, "keys", path, "--json", "--ops", "500")
		if code != exitOK {
			t.Fatalf("%s: keys exit %d: %s", n, code, errs)
		}
		var ks []struct {
			Verdicts []string `json:"verdicts"`
			Judged   struct {
				Rows float64 `json:"largest_partition_rows"`
			} `json:"judged"`
		}
		if err := json.Unmarshal([]byte(out), &ks); err != nil || len(ks) != 1 {
			t.Fatalf("%s: %v: %s", n, err, out)
		}
		if r := ks[0].Judged.Rows; math.Abs(r-lambda) > 1e-6*lambda {
			t.Errorf("%s: keys says a parcel's partition holds %v rows at the horizon; want %v", n, r, lambda)
		}
		code, out, errs = runCLI(t, "advise", path, "--json", "--no-prove")
		if code != exitOK {
			t.Fatalf("%s: advise exit %d: %s", n, code, errs)
		}
		var a struct {
			Recommended struct {
				PK        string `json:"partition_key"`
				Predicted struct {
					Rows float64 `json:"largest_partition_rows"`
				} `json:"predicted"`
			} `json:"recommended"`
		}
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatal(err)
		}
		if r := a.Recommended; r.PK != "{parcel}" || math.Abs(r.Predicted.Rows-lambda) > 1e-6*lambda {
			t.Errorf("%s: advise recommends %q, its largest partition %v rows; want {parcel}, %v", n, r.PK, r.Predicted.Rows, lambda)
		}
	}
}
