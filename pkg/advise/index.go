package advise

import (
	"slices"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// mixIndexes are the index tables the mix reads by name (an operation's
// index), as the scenario's own schemes declare them.
func (in *Input) mixIndexes() []keygen.IndexSpec {
	var out []keygen.IndexSpec
	for _, op := range in.Scenario.Workload.Mix {
		if op.Index == "" || slices.ContainsFunc(out, func(x keygen.IndexSpec) bool { return x.Name == op.Index }) {
			continue
		}
		for i := range in.Scenario.Schemes {
			k := slices.IndexFunc(in.Scenario.SchemeSpec(i).Indexes, func(x keygen.IndexSpec) bool { return x.Name == op.Index })
			if k >= 0 {
				out = append(out, in.Scenario.SchemeSpec(i).Indexes[k])
				break
			}
		}
	}
	return out
}
