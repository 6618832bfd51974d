package main

import (
	"encoding/json"
	"testing"
)

// keys and advise judge a scheme with one judge: for every scheme of the
// scenario, keys prints the busiest partition and its load that advise
// ranks it by, on the seeded table and at the horizon.
func TestKeysAndAdviseAgree(t *testing.T) {
	type figures struct {
		Busiest string  `json:"busiest_partition"`
		Load    float64 `json:"busiest_entities_per_sec"`
	}
	type judged struct {
		figures
		Seeded figures `json:"seeded"`
	}
	for _, f := range []string{"iot-skewed", "multi-tenant", "blog-posts", "azure-vs-cosmos", "partition-stress-test"} {
		path := "../../scenarios/" + f + ".yaml"
		code, out, errs := runCLI(t, "keys", path, "--json", "--ops", "500")
		if code != exitOK {
			t.Fatalf("%s: keys exit %d: %s", f, code, errs)
		}
		var ks []struct {
			Scheme  string  `json:"scheme"`
			Busiest string  `json:"busiest_partition"`
			Load    float64 `json:"busiest_entities_per_sec"`
			Judged  judged  `json:"judged"`
		}
		if err := json.Unmarshal([]byte(out), &ks); err != nil {
			t.Fatal(err)
		}
		code, out, errs = runCLI(t, "advise", path, "--json", "--no-prove")
		if code != exitOK && code != exitThreshold {
			t.Fatalf("%s: advise exit %d: %s", f, code, errs)
		}
		var a struct {
			Candidates []struct {
				Name      string `json:"name"`
				Own       bool   `json:"own"`
				Predicted judged `json:"predicted"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatal(err)
		}
		own := 0
		for _, c := range a.Candidates {
			if !c.Own {
				continue
			}
			own++
			for _, k := range ks {
				if k.Scheme != c.Name {
					continue
				}
				if k.Busiest != c.Predicted.Busiest || k.Load != c.Predicted.Load || k.Judged != c.Predicted {
					t.Errorf("%s, scheme %s: keys %q %v (seeded %+v), advise %q %v (seeded %+v)", f, c.Name, k.Busiest, k.Load, k.Judged.Seeded,
						c.Predicted.Busiest, c.Predicted.Load, c.Predicted.Seeded)
				}
				own--
			}
		}
		if own != 0 || len(ks) == 0 {
			t.Errorf("%s: %d of the scenario's schemes not in both", f, own)
		}
	}
}
