package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// num formats an integer with thousands separators: 12,345.
func num(n int64) string { return textfit.Int(n) }

// rate formats a per-second figure: 1,234 or 12.3 or 0.45.
func rate(f float64) string { return textfit.Rate(f) }

// ms formats milliseconds with three significant digits.
func ms(f float64) string {
	switch {
	case f == 0:
		return "0"
	case f >= 1000:
		return num(int64(f + 0.5))
	case f >= 100:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case f >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	case f >= 1:
		return strconv.FormatFloat(f, 'f', 2, 64)
	default:
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
}

// fixed formats f with digits decimals and thousands separators:
// 11984.33 is "11,984.33" (fixed(f, 2)).
func fixed(f float64, digits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "-"
	}
	s := strconv.FormatFloat(math.Abs(f), 'f', digits, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return strconv.FormatFloat(f, 'f', digits, 64)
	}
	out := num(n)
	if frac != "" {
		out += "." + frac
	}
	if f < 0 && strings.Trim(s, "0.") != "" {
		out = "-" + out
	}
	return out
}

// pct formats a share as a percentage.
func pct(part, whole int64) string {
	if whole == 0 {
		return "0%"
	}
	p := 100 * float64(part) / float64(whole)
	if p > 0 && p < 0.01 {
		return "<0.01%"
	}
	return strconv.FormatFloat(p, 'f', 2, 64) + "%"
}

// statusLine lists status counts, most frequent first: "200 ×9,812  503 ServerBusy ×12".
func statusLine(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s ×%s", k, num(m[k]))
	}
	return strings.Join(parts, "  ")
}

// SeedRefusals says how many of the seed phase's requests were refused or
// failed (the seed phase retries them), with their statuses, or "" when
// all succeeded.
func SeedRefusals(s SeedInfo) string {
	var all, bad int64
	failed := map[string]int64{}
	for k, v := range s.Status {
		all += v
		if !strings.HasPrefix(k, "2") {
			bad += v
			failed[k] = v
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("seed: %s of %s requests were refused or failed: %s", num(bad), num(all), statusLine(failed))
}

// displayKey shows the cross-partition pseudo partition readably.
func displayKey(pk string) string {
	if pk == "*" {
		return "(cross-partition)"
	}
	if pk == "" {
		return `""`
	}
	return pk
}
