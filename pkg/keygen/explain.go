package keygen

import (
	"fmt"
	"strconv"
	"strings"
)

// Explain says in words what a distribution does when it picks entities:
// "80% of picks go to the first 20% of the entities (the oldest), the rest
// to the others". It describes positions, which are entity indices: a
// request distribution picks entities, and each entity's partition follows
// from the key scheme.
func Explain(d Distribution) string {
	switch d := d.(type) {
	case Uniform:
		return "every existing entity equally often"
	case *Zipf:
		return fmt.Sprintf("a few popular entities take most picks (Zipf, exponent %s), scattered over the population", ftoa(d.S))
	case *Latest:
		return fmt.Sprintf("the newest entities most often (Zipf over recency, exponent %s)", ftoa(d.S))
	case Hotspot:
		return fmt.Sprintf("%s of picks go to the first %s of the entities (the oldest), the rest to the others", pctOf(d.Ops), pctOf(d.Hot))
	case *Sequential:
		return "every entity in turn, in order of index"
	case Single:
		return "entity " + strconv.FormatInt(d.At, 10) + " every time"
	}
	return d.String()
}

// pctOf formats a share as a percentage without float noise: 0.2 is "20%".
func pctOf(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 4, 64)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return strings.TrimSuffix(s, ".") + "%"
}
