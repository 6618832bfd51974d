package emulator

import "testing"

func TestParseRouteKeys(t *testing.T) {
	tests := []struct {
		path   string
		pk, rk string
		ok     bool
	}{
		{"/t(PartitionKey='p',RowKey='r')", "p", "r", true},
		{"/t(PartitionKey='',RowKey='')", "", "", true},
		{"/t(PartitionKey='it''s',RowKey='r''1''')", "it's", "r'1'", true},
		{"/t(PartitionKey='''',RowKey='a''''b')", "'", "a''b", true},
		{"/t(PartitionKey='p%27q',RowKey='%20')", "p", "", false}, // %27 is a quote: it ends the key
		{"/t(PartitionKey='p%27%27q',RowKey='%20')", "p'q", " ", true},
		{"/t(PartitionKey='p',RowKey='r'", "", "", false},
		{"/t(PartitionKey='p,RowKey='r')", "", "", false},
		{"/t(PartitionKey='p'RowKey='r')", "", "", false},
		{"/t(PartitionKey='p',RowKey='r')x", "", "", false},
		{"/t(PartitionKey='p',RowKey='r',X='y')", "", "", false},
		{"/t(PartitionKey=p,RowKey='r')", "", "", false},
		{"/t(Partition='p',RowKey='r')", "", "", false},
	}
	for _, tt := range tests {
		rt, err := parseRoute(tt.path)
		if ok := err == nil && rt.kind == routeEntity; ok != tt.ok || ok && (rt.pk != tt.pk || rt.rk != tt.rk || rt.table != "t") {
			t.Errorf("%s: %+v %v, want %q %q %v", tt.path, rt, err, tt.pk, tt.rk, tt.ok)
		}
	}
}
