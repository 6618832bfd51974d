package table

import "testing"

func TestFilters(t *testing.T) {
	tests := []struct{ got, want string }{
		{FilterPK("tenant-1"), "PartitionKey eq 'tenant-1'"},
		// Single quotes are doubled, every one of them.
		{FilterPK("O'Brien's"), "PartitionKey eq 'O''Brien''s'"},
		{FilterPK(""), "PartitionKey eq ''"},
		{FilterPoint("a'", "'b"), "PartitionKey eq 'a''' and RowKey eq '''b'"},
		// Row ranges: from inclusive, to exclusive, empty bounds open.
		{FilterRowRange("a", "0100", ""), "PartitionKey eq 'a' and RowKey ge '0100'"},
		{FilterRowRange("a", "", "0200"), "PartitionKey eq 'a' and RowKey lt '0200'"},
		{FilterRowRange("a", "0100", "0200"), "PartitionKey eq 'a' and RowKey ge '0100' and RowKey lt '0200'"},
		{FilterRowRange("a", "", ""), "PartitionKey eq 'a'"},
		// Partition ranges: both bounds inclusive, empty bounds open.
		{FilterPKRange("2025-01", "2025-03"), "PartitionKey ge '2025-01' and PartitionKey le '2025-03'"},
		{FilterPKRange("x'", ""), "PartitionKey ge 'x'''"},
		{FilterPKRange("", "y"), "PartitionKey le 'y'"},
		{FilterPKRange("", ""), ""},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}
