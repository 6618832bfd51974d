package report

import (
	"html"
	"sort"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeUnitsHTML writes a charged run's request units: in all and per
// operation, and the busiest partitions by RU/s against the share.
func writeUnitsHTML(ew *textfit.Printer, r *Report) {
	if !r.Charged() {
		return
	}
	e := html.EscapeString
	ew.Printf("<p>request units: %s</p>\n", e(unitsVerdict(r)))
	ew.Printf("<table><tr><th>operation</th><th>RU</th><th>RU per operation</th><th>RU/s</th></tr>\n")
	for _, op := range append(OperationOrder(r.Operations), "total") {
		s, ok := r.Operations[op]
		if op == "total" {
			s, ok = r.Totals, true
		}
		if ok && s.Charged > 0 {
			ew.Printf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(op), rate(s.RequestUnits), rate(unitsPerOp(s)), rate(rateOf(s.RequestUnitsPerSec)))
		}
	}
	ew.Printf("</table>\n")
	parts := append([]Partition(nil), r.Partitions...)
	sort.SliceStable(parts, func(a, b int) bool { return peakUnits(parts[a]) > peakUnits(parts[b]) })
	ew.Printf("<h3>Busiest partitions by request units</h3><table><tr><th>partition</th><th>RU</th><th>RU/s</th><th>peak RU/s</th><th>share RU/s</th><th>verdict</th></tr>\n")
	for _, p := range parts[:min(len(parts), 20)] {
		if p.PeakRequestUnitsPerSec == nil {
			continue
		}
		v := partitionVerdictOf(r, p)
		cls := "ok"
		if v != "ok" {
			cls = "bad"
		}
		ew.Printf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n", e(displayKey(p.PartitionKey)),
			rate(p.RequestUnits), rate(rateOf(p.RequestUnitsPerSec)), rate(peakUnits(p)), rate(r.Run.PartitionUnits), cls, e(v))
	}
	ew.Printf("</table>\n")
}
