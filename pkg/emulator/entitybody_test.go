package emulator

import "testing"

// TestEntityNeedsKeys holds R5: an entity body without a PartitionKey or
// a RowKey, or with a null one, is 400 PropertiesNeedValue.
func TestEntityNeedsKeys(t *testing.T) {
	tests := []struct {
		body string
		code string // "" when the entity is accepted
	}{
		{`{"PartitionKey":"p","RowKey":"r"}`, ""},
		{`{"PartitionKey":"p","RowKey":""}`, ""}, // empty keys are keys
		{`{"PartitionKey":"p"}`, "PropertiesNeedValue"},
		{`{"RowKey":"r","V":1}`, "PropertiesNeedValue"},
		{`{"PartitionKey":"p","RowKey":null}`, "PropertiesNeedValue"},
		{`{"PartitionKey":null,"RowKey":"r"}`, "PropertiesNeedValue"},
		{`{"PartitionKey":"p","RowKey":7}`, "InvalidInput"}, // not a string
	}
	for _, tt := range tests {
		_, _, _, err := parseEntity([]byte(tt.body))
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.body, err)
		case tt.code != "" && (err == nil || err.code != tt.code || err.status != 400):
			t.Errorf("%s: %v, want 400 %s", tt.body, err, tt.code)
		}
	}
}
