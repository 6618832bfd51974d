package advise

import (
	"math"
)

// round1 rounds to one decimal.
func round1(f float64) float64 { return math.Round(f*10) / 10 }
