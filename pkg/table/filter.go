package table

import "strings"

// The Filter helpers build OData filters over the keys. Values are quoted
// as OData string literals: single quotes doubled, nothing else changed.

// quote makes an OData string literal, doubling single quotes.
func quote(s string) string {
	if strings.IndexByte(s, '\'') < 0 {
		return "'" + s + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// FilterPK selects one partition: PartitionKey eq 'pk'.
func FilterPK(pk string) string { return "PartitionKey eq " + quote(pk) }

// FilterPoint selects one entity: PartitionKey eq 'pk' and RowKey eq 'rk'.
func FilterPoint(pk, rk string) string { return FilterPK(pk) + " and RowKey eq " + quote(rk) }

// FilterRowRange selects the RowKeys from fromRK (inclusive) to toRK
// (exclusive) in one partition; an empty bound is open.
func FilterRowRange(pk, fromRK, toRK string) string {
	f := FilterPK(pk)
	if fromRK != "" {
		f += " and RowKey ge " + quote(fromRK)
	}
	if toRK != "" {
		f += " and RowKey lt " + quote(toRK)
	}
	return f
}

// FilterPKRange selects the partitions from lo to hi, both inclusive; an
// empty bound is open (both empty: no filter, the whole table).
func FilterPKRange(lo, hi string) string {
	switch {
	case lo == "" && hi == "":
		return ""
	case lo == "":
		return "PartitionKey le " + quote(hi)
	case hi == "":
		return "PartitionKey ge " + quote(lo)
	}
	return "PartitionKey ge " + quote(lo) + " and PartitionKey le " + quote(hi)
}
