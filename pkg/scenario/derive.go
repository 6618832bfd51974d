package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// SchemeFrom is one scheme of a derived scenario: the scenario's own
// scheme number Own, as its file wrote it (Own >= 0), or Scheme, made in
// memory (Own < 0).
type SchemeFrom struct {
	Own    int
	Scheme Scheme
}

// Derive is a copy of s made in memory, whose schemes are schemes and
// which asks none of the questions named in drop (their entries of the
// mix gone too). What the file gave follows the lists Derive changes: an
// own scheme, a kept question or mix entry keeps what the file gave of it
// at its new place (and its line and column), and a scheme made in memory
// gives every field it sets, located at the file's schemes list. Validate
// and plan.Build then read the copy as they would read the file with the
// same edits. Every other part is s's, for the caller to change on the
// copy; s is not modified.
func (s *Scenario) Derive(schemes []SchemeFrom, drop []string) *Scenario {
	c := *s
	c.pos, c.quoted = positions{}, map[string]bool{}
	lists := []string{"schemes", "questions", "workload.mix"}
	for k, at := range s.pos {
		if !inList(k, lists) {
			c.pos[k] = at
		}
	}
	for k, q := range s.quoted {
		if !inList(k, lists) {
			c.quoted[k] = q
		}
	}
	c.Schemes = nil
	for i, f := range schemes {
		to := fmt.Sprintf("schemes[%d]", i)
		if f.Own >= 0 {
			c.Schemes = append(c.Schemes, s.Schemes[f.Own])
			c.move(s, fmt.Sprintf("schemes[%d]", f.Own), to)
			continue
		}
		c.Schemes = append(c.Schemes, f.Scheme)
		c.give(to, f.Scheme, s.pos.lookup("schemes"))
	}
	c.Questions, c.Workload.Mix = nil, nil
	for i, q := range s.Questions {
		if !slices.Contains(drop, q.Name) {
			c.move(s, fmt.Sprintf("questions[%d]", i), fmt.Sprintf("questions[%d]", len(c.Questions)))
			c.Questions = append(c.Questions, q)
		}
	}
	for i, op := range s.Workload.Mix {
		if op.Question == "" || !slices.Contains(drop, op.Question) {
			c.move(s, fmt.Sprintf("workload.mix[%d]", i), fmt.Sprintf("workload.mix[%d]", len(c.Workload.Mix)))
			c.Workload.Mix = append(c.Workload.Mix, op)
		}
	}
	c.warnings = nil
	return &c
}

// inList says whether path is an item of one of lists (or under one).
func inList(path string, lists []string) bool {
	for _, l := range lists {
		if strings.HasPrefix(path, l+"[") {
			return true
		}
	}
	return false
}

// move records what s's file gave of the item at from as given of c's
// item at to.
func (c *Scenario) move(s *Scenario, from, to string) {
	under := func(k string) bool {
		return k == from || strings.HasPrefix(k, from+".") || strings.HasPrefix(k, from+"[")
	}
	for k, at := range s.pos {
		if under(k) {
			c.pos[to+k[len(from):]] = at
		}
	}
	for k, q := range s.quoted {
		if under(k) {
			c.quoted[to+k[len(from):]] = q
		}
	}
}

// give records every field sc sets as given at path, located at at.
func (c *Scenario) give(path string, sc Scheme, at pos) {
	c.pos[path] = at
	set := func(field string, ok bool) {
		if ok {
			c.pos[path+"."+field] = at
		}
	}
	set("name", sc.Name != "")
	set("builtin", sc.Builtin != "")
	set("description", sc.Description != "")
	set("partition_key", sc.PartitionKey != "")
	set("row_key", sc.RowKey != "")
	set("rows", len(sc.Rows) > 0)
	set("indexes", len(sc.Indexes) > 0)
	for k, ix := range sc.Indexes {
		base := fmt.Sprintf("%s.indexes[%d]", path, k)
		c.pos[base] = at
		for field, ok := range map[string]bool{"name": ix.Name != "", "partition_key": ix.PartitionKey != "", "row_key": ix.RowKey != "", "carries": ix.Carries.Given()} {
			if ok {
				c.pos[base+"."+field] = at
			}
		}
	}
}
