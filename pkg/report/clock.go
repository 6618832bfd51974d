package report

import "fmt"

// clockNote says, after the model, that a run lived on a virtual clock
// and how fast it went on this machine ("" on the wall clock).
func clockNote(r RunInfo) string {
	if r.Clock != "virtual" {
		return ""
	}
	if !(r.VirtualPerWall > 0) {
		return ", on a virtual clock"
	}
	return fmt.Sprintf(", on a virtual clock (%s× the wall clock's speed here)", ratio(r.VirtualPerWall))
}

// ratio is a speed ratio with three significant digits.
func ratio(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}
