package textfit

import "strings"

// Closest returns the candidate nearest to word (case-insensitively, by
// edit distance) when it is near enough to be a typing mistake: at most a
// third of word's length (and at least 1, at most 3) edits away. It
// returns "" otherwise.
func Closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	limit := min(max(1, len(w)/3), 3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := editDistance(w, strings.ToLower(c)); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (in bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
