package plan

import "github.com/tablestress/tablestress/pkg/scenario"

// SelectSchemes returns the indexes in s.Schemes of the schemes name
// chooses, in the scenario's order: every scheme when name is empty, else
// the one scheme called name. A name the scenario does not have is a
// *scenario.UnknownScheme (which matches scenario.ErrInvalid) naming the
// closest scheme and listing those it has; the message names no flag, for
// a command to say where the name came from.
//
// It is the one rule by which compare, find and keys choose schemes; run
// and seed, which take one scheme, use Spec.Scheme (empty: the first).
func SelectSchemes(s *scenario.Scenario, name string) ([]int, error) {
	if name == "" {
		all := make([]int, len(s.Schemes))
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	i, err := s.Scheme(name)
	if err != nil {
		return nil, err
	}
	return []int{i}, nil
}
