package report

import (
	"fmt"
	"strings"
)

// LoadShape says how the run offered its load: "closed loop, 32 workers",
// "open loop at 800 ops/s, up to 32 workers", or the stages of a ramp,
// "open loop ramping 0 to 50 ops/s in 3s, then to 100 in 10s, up to 8
// workers".
func LoadShape(r RunInfo) string {
	switch {
	case r.Mode != "open":
		return fmt.Sprintf("closed loop, %s workers", num(int64(r.Workers)))
	case len(r.Stages) == 0:
		return fmt.Sprintf("open loop at %s ops/s, up to %s workers", rate(r.Rate), num(int64(r.Workers)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "open loop ramping %s", rate(r.Rate))
	for i, st := range r.Stages {
		if i > 0 {
			b.WriteString(", then")
		}
		fmt.Fprintf(&b, " to %s ops/s in %gs", rate(st.Rate), st.DurationS)
	}
	fmt.Fprintf(&b, ", up to %s workers", num(int64(r.Workers)))
	return b.String()
}
