package scenario

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Numbers take no thousands separators. Written with commas, a number is
// refused with the number as it should be written: "200,000" gives
// "write 200000 or 200_000" (and 200k where a count takes a suffix). In a
// flow mapping ({count: 200,000}) YAML has already cut it at the comma,
// into count: 200 and a key "000"; the decoder puts it back together and
// says the same, rather than reporting an unknown field "000".

var (
	groupedRE = regexp.MustCompile(`^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$`)
	digitsRE  = regexp.MustCompile(`^\d{3}(\.\d+)?$`)
	numberRE  = regexp.MustCompile(`^[+-]?\d{1,3}$`)
)

// separatorFix says how to write text, a number with thousands
// separators, without them; "" when text is not one. suffixes adds the
// k or M form, for a count.
func separatorFix(text string, suffixes bool) string {
	t := strings.TrimSpace(text)
	if !groupedRE.MatchString(t) {
		return ""
	}
	plain := strings.ReplaceAll(t, ",", "")
	whole, frac, _ := strings.Cut(plain, ".")
	forms := []string{plain, underscored(whole) + dotted(frac)}
	if n, err := strconv.ParseInt(whole, 10, 64); err == nil && suffixes && frac == "" && n > 0 {
		switch { // the shortest form Count reads back: 200k, 1.5M
		case n >= 1_000_000 && n%100_000 == 0:
			forms = append(forms, strconv.FormatFloat(float64(n)/1e6, 'f', -1, 64)+"M")
		case n >= 1000 && n%100 == 0:
			forms = append(forms, strconv.FormatFloat(float64(n)/1e3, 'f', -1, 64)+"k")
		}
	}
	last := len(forms) - 1
	return fmt.Sprintf("%q: numbers take no thousands separators; write %s or %s", t, strings.Join(forms[:last], ", "), forms[last])
}

func underscored(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") || strings.HasPrefix(digits, "+") {
		sign, digits = digits[:1], digits[1:]
	}
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte('_')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

func dotted(frac string) string {
	if frac == "" {
		return ""
	}
	return "." + frac
}

// cutNumbers finds the numbers of a flow mapping that commas cut into a
// value and keys of three digits (count: 200,000 read as count: 200 and a
// key "000"), reports each once at its value with how to write it, and
// marks the value and the keys not to decode.
func (d *decoder) cutNumbers(n *yaml.Node, path string, skip map[int]bool, counts map[string]bool) {
	for i := 0; i+3 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if skip[i] || skip[i+2] || val.Kind != yaml.ScalarNode || val.Style != 0 || !numberRE.MatchString(val.Value) || !cutKey(n, i+2) {
			continue
		}
		whole := val.Value
		j := i + 2
		for ; j+1 < len(n.Content) && cutKey(n, j); j += 2 {
			whole += "," + n.Content[j].Value
			skip[j] = true
		}
		skip[i] = true
		d.errorf(val, join(path, k.Value), "%s (inside {...} a comma ends a value, so YAML read %s: %s and a field %q)",
			separatorFix(whole, counts[k.Value]), k.Value, val.Value, n.Content[i+2].Value)
		i = j - 2
	}
}

// cutKey reports whether key j of mapping n is the rest of a number a
// comma cut: three digits (and decimals), plain, with no value.
func cutKey(n *yaml.Node, j int) bool {
	k, v := n.Content[j], n.Content[j+1]
	return k.Kind == yaml.ScalarNode && k.Style == 0 && digitsRE.MatchString(k.Value) && v.Tag == "!!null"
}

// countFields names the fields of struct type t that are a Count (which
// take a k or M suffix).
func countFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for name, i := range yamlFields(t) {
		out[name] = t.Field(i).Type == reflect.TypeOf(Count(0))
	}
	return out
}
