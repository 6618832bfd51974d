package model

import (
	"errors"
	"strconv"
	"strings"
)

// ListForm is an example of the list ParseList reads, for messages.
const ListForm = "azure,cosmos(ru=10000)"

// ParseList reads a list of model specs, as compare runs a scenario under
// several: models separated by commas, each a model's name with its
// overrides in one pair of parentheses, like
// "azure,cosmos(ru=10000),azure(latency=off)". It returns each spec as
// Parse reads it ("cosmos,ru=10000"), every one checked by Parse. Errors
// are *SpecError values naming the item at fault (or the whole list, for a
// parenthesis without its pair) and what would be right.
func ParseList(v string) ([]string, error) {
	var specs []string
	depth, start := 0, 0
	for i := 0; i <= len(v); i++ {
		switch {
		case i < len(v) && v[i] == '(':
			depth++
		case i < len(v) && v[i] == ')':
			if depth--; depth < 0 {
				return nil, &SpecError{Item: v[:i+1], Reason: "a ')' without its '('; write models like " + ListForm}
			}
		case i == len(v) || v[i] == ',' && depth == 0:
			spec, err := listItem(strings.TrimSpace(v[start:i]), v)
			if err != nil {
				return nil, err
			}
			specs, start = append(specs, spec), i+1
		}
	}
	if depth != 0 {
		return nil, &SpecError{Item: v, Reason: "a '(' without its ')'; write models like " + ListForm}
	}
	return specs, nil
}

// listItem turns one item of a list ("cosmos(ru=10000)") into the spec
// Parse reads ("cosmos,ru=10000"), checked.
func listItem(item, list string) (string, error) {
	if item == "" {
		return "", &SpecError{Item: list, Reason: "an empty model; write models like " + ListForm}
	}
	name, args, paren := strings.Cut(item, "(")
	spec := strings.TrimSpace(name)
	if paren {
		inner, ok := strings.CutSuffix(args, ")")
		if !ok || strings.ContainsAny(inner, "()") {
			return "", &SpecError{Item: item, Reason: "write a model's overrides in one pair of parentheses after its name, like cosmos(ru=10000,physical=4)"}
		}
		spec += "," + inner
	}
	if _, err := Parse(spec); err != nil {
		var se *SpecError
		if errors.As(err, &se) && se.Item != item {
			return "", &SpecError{Item: item, Reason: strconv.Quote(se.Item) + ": " + se.Reason}
		}
		return "", err
	}
	return spec, nil
}
