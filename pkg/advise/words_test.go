package advise

import (
	"strings"
	"testing"
)

// Why never says inserts escape one range partition when a time bucket
// leads the PartitionKey: blog-posts' hour takes every insert of its
// hour (the busiest load counts them); iot-telemetry's device-first
// key spreads new keys among the existing ones.
func TestWhyOfALeadingTimeBucket(t *testing.T) {
	for _, c := range []struct{ file, want, not string }{
		{"blog-posts", "a new PartitionKey each hour lands beyond the existing ones and takes every insert until the next", "not funnelled"},
		{"iot-telemetry", "new PartitionKeys do not all land beyond the existing ones", "lands beyond"},
	} {
		a := adviseOn(t, c.file)
		why := strings.Join(a.Recommended.Why, "\n")
		if !strings.Contains(why, c.want) || strings.Contains(why, c.not) {
			t.Errorf("%s (%s): why\n%s\nwant %q, not %q", c.file, a.Recommended.PartitionKey, why, c.want, c.not)
		}
	}
}
