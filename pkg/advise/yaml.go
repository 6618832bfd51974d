package advise

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// schemeDoc is a scheme as a scenario file spells it (pkg/scenario's
// Scheme), members in the order docs/scenarios.md shows them.
type schemeDoc struct {
	Name         string     `yaml:"name"`
	Description  string     `yaml:"description,omitempty"`
	PartitionKey string     `yaml:"partition_key"`
	RowKey       string     `yaml:"row_key"`
	Rows         []string   `yaml:"rows,omitempty"`
	Indexes      []indexDoc `yaml:"indexes,omitempty"`
}

type indexDoc struct {
	Name         string `yaml:"name"`
	PartitionKey string `yaml:"partition_key"`
	RowKey       string `yaml:"row_key"`
	Carries      any    `yaml:"carries,omitempty"`
}

func docOf(spec keygen.SchemeSpec) schemeDoc {
	d := schemeDoc{Name: spec.Name, Description: spec.Description, PartitionKey: spec.PartitionKey, RowKey: spec.RowKey, Rows: spec.Rows}
	for _, ix := range spec.Indexes {
		x := indexDoc{Name: ix.Name, PartitionKey: ix.PartitionKey, RowKey: ix.RowKey}
		switch {
		case ix.CarriesAll:
			x.Carries = "all"
		case len(ix.Carries) > 0:
			x.Carries = ix.Carries
		}
		d.Indexes = append(d.Indexes, x)
	}
	return d
}

// SchemeYAML renders a scheme as an item of a scenario's schemes list,
// indented two spaces, ready to paste under `schemes:`.
func SchemeYAML(spec keygen.SchemeSpec) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode([]schemeDoc{docOf(spec)}); err != nil {
		return fmt.Sprintf("# %v\n", err) // a struct of strings always encodes
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			out.WriteString("  " + line)
		}
	}
	return out.String()
}

// schemeNode is a scheme as a YAML node, for a scenario's schemes list.
func schemeNode(spec keygen.SchemeSpec) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(docOf(spec)); err != nil {
		return nil, err
	}
	return &n, nil
}

// ProofScenario is the scenario the proof runs: the scenario's own file
// with its schemes replaced by the proof's (each of the scenario's own
// kept as it was written), its workload at the proof's rate (stages
// and target partitions dropped), duration and warm-up, under the
// advised model, seeded as deep as the proof predicts (p.Entities). For
// one account's share of a split load, its population grows k times
// slower. The result passes validate like the file it came from.
func ProofScenario(src []byte, a *Advice, p *Proof) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: the scenario is not a YAML mapping", ErrInput)
	}
	root := doc.Content[0]
	own := lookup(root, "schemes")
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, r := range p.Schemes {
		if r.cand.Own && own != nil {
			if i := ownIndex(a, r.cand); i >= 0 && i < len(own.Content) {
				seq.Content = append(seq.Content, resolved(own.Content[i]))
				continue
			}
		}
		n, err := schemeNode(r.cand.Spec)
		if err != nil {
			return nil, err
		}
		seq.Content = append(seq.Content, n)
	}
	set(root, "schemes", seq)
	w := mapping(root, "workload")
	set(w, "rate", scalar(fmt.Sprintf("%g/s", p.Rate)))
	del(w, "stages")
	del(w, "max_operations")
	del(w, "target_partitions") // the application's load, as judged
	set(w, "duration", scalar(fmt.Sprintf("%gs", p.DurationS)))
	set(w, "warmup", scalar(fmt.Sprintf("%gs", p.WarmupS)))
	emb := mapping(root, "embedded")
	set(emb, "model", scalar(a.ProofModel()))
	del(emb, "models")
	pop := mapping(root, "population")
	if a.Split != nil {
		sp := a.Split.Input.Scenario.Population
		set(pop, "interval", scalar(sp.Interval.D().String()))
	}
	set(pop, "entities", scalar(fmt.Sprint(p.Entities))) // the depth the proof predicts at
	if a.WithExceptions() {
		dropQuestions(root, w, a.Infeasible.Exceptions)
	}
	return yaml.Marshal(&doc)
}

// dropQuestions removes the exceptions' questions from the scenario root
// and their entries from workload w's mix: the proof runs the load the
// recommendation is for, the rest.
func dropQuestions(root, w *yaml.Node, ex []Exception) {
	drop := func(seq *yaml.Node, key string) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		var kept []*yaml.Node
		for _, n := range seq.Content {
			v := lookup(resolved(n), key)
			if v == nil || !slices.ContainsFunc(ex, func(e Exception) bool { return e.Question == v.Value }) {
				kept = append(kept, n)
			}
		}
		seq.Content = kept
	}
	drop(lookup(root, "questions"), "name")
	drop(lookup(w, "mix"), "question")
}

// resolved is a copy of n with every alias replaced by what it names and
// no anchors, so it reads the same wherever it is put.
func resolved(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return resolved(n.Alias)
	}
	c := *n
	c.Anchor = ""
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, resolved(k))
	}
	return &c
}

// ownIndex is the position of an own candidate among the scenario's
// schemes.
func ownIndex(a *Advice, c *Candidate) int {
	for i, s := range a.Input.Scenario.Schemes {
		if s.Name == c.Spec.Name {
			return i
		}
	}
	return -1
}

// lookup is the value of key in mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			return m.Content[k+1]
		}
	}
	return nil
}

// mapping is the mapping under key in m, made when missing.
func mapping(m *yaml.Node, key string) *yaml.Node {
	if n := lookup(m, key); n != nil && n.Kind == yaml.MappingNode {
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	set(m, key, n)
	return n
}

// set puts value under key in mapping m.
func set(m *yaml.Node, key string, value *yaml.Node) {
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			m.Content[k+1] = value
			return
		}
	}
	m.Content = append(m.Content, scalar(key), value)
}

// del removes key from mapping m.
func del(m *yaml.Node, key string) {
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			m.Content = append(m.Content[:k], m.Content[k+2:]...)
			return
		}
	}
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
