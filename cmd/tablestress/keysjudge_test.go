package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// keys reports what the judge decides and nothing else: each verdict is a
// finding of the judge over its limit, in the judge's words, and a scheme
// the judge finds nothing over (multi-tenant's tenant-bucket, natural's
// natural-bucketed, whose loads are skewed but under the target,
// hot-partition's hash-buckets) has no
// verdict at all.
func TestKeysVerdictsAreTheJudges(t *testing.T) {
	clean := map[string]bool{"tenant-bucket": true, "natural-bucketed": true, "hash-buckets": true}
	for _, f := range []string{"multi-tenant", "natural-grouping", "hot-partition"} {
		code, out, errs := runCLI(t, "keys", "../../scenarios/"+f+".yaml", "--json", "--ops", "500")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		var ks []struct {
			Scheme   string   `json:"scheme"`
			Verdicts []string `json:"verdicts"`
			Findings []struct {
				Kind      string  `json:"kind"`
				Partition string  `json:"partition"`
				Value     float64 `json:"value"`
				Limit     float64 `json:"limit"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &ks); err != nil {
			t.Fatal(err)
		}
		for _, k := range ks {
			if len(k.Verdicts) != len(k.Findings) {
				t.Errorf("%s %s: %d verdicts for %d findings: %q", f, k.Scheme, len(k.Verdicts), len(k.Findings), k.Verdicts)
				continue
			}
			for i, fd := range k.Findings {
				if fd.Kind == "hot_partition" && (!(fd.Value > fd.Limit) || !strings.Contains(k.Verdicts[i], `hot: partition "`+fd.Partition+`"`)) {
					t.Errorf("%s %s: finding %+v in words %q", f, k.Scheme, fd, k.Verdicts[i])
				}
			}
			if clean[k.Scheme] != (len(k.Verdicts) == 0) {
				t.Errorf("%s %s: verdicts %q", f, k.Scheme, k.Verdicts)
			}
		}
	}
}
