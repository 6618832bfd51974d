package textfit

import "testing"

// Round2 is the one rounding of shown percentages (find's steps, advise's
// proof): each row a value and what is shown.
func TestRound2(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0},
		{0.125, 0.13},   // a half rounds up
		{99.994, 99.99}, // down
		{99.995, 100},   // up to the whole
		{1.5, 1.5},      // already two decimals
		{0.004, 0},      // under half a hundredth
		{-0.125, -0.13}, // away from zero
		{12345.678, 12345.68},
	} {
		if got := Round2(tc.in); got != tc.want {
			t.Errorf("Round2(%v) = %v; want %v", tc.in, got, tc.want)
		}
	}
}
