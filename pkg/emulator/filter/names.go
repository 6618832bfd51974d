package filter

// Names lists the properties n reads, each once, in the order they first
// appear: what a row must hold for the filter to decide on it.
func Names(n Node) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	var walk func(Node)
	walk = func(n Node) {
		switch v := n.(type) {
		case andNode:
			walk(v.l)
			walk(v.r)
		case orNode:
			walk(v.l)
			walk(v.r)
		case notNode:
			walk(v.x)
		case cmpNode:
			add(v.prop)
		case boolProp:
			add(v.prop)
		}
	}
	walk(n)
	return out
}
