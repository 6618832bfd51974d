package jsontext

import (
	"fmt"
	"testing"
)

// TestMembers: the iterator yields every member in order, duplicates and
// nested containers included, and ends with Bad on broken framing only.
func TestMembers(t *testing.T) {
	tests := []struct {
		text string
		want string // the members as name=value, then "bad" when Bad
	}{
		{`{}`, ""},
		{` { "a" : 1 , "b":"x}" } `, `a=1 b="x}" `},
		{`{"a":{"b":[1,{"c":"]"}]},"a":null}`, `a={"b":[1,{"c":"]"}]} a=null `},
		{`{"a\"b":"\\"}`, `a\"b="\\" `},
		{`{"a":tru}`, "a=tru "}, // a value is not validated
		{`{"a":1`, "a=1 bad"},
		{`{"a":1,}`, "a=1 bad"},
		{`{"a" 1}`, "bad"},
		{`[1]`, "bad"},
		{``, "bad"},
		{`{"a":"x`, "bad"},
		{`{"a":{"b":1}`, `a={"b":1} bad`},
		{`{"a":{"b":1`, "bad"},
	}
	for _, tt := range tests {
		var got string
		m := Members([]byte(tt.text))
		for {
			n, v, ok := m.Next()
			if !ok {
				break
			}
			got += fmt.Sprintf("%s=%s ", n, v)
		}
		if m.Bad() {
			got += "bad"
		}
		if got != tt.want {
			t.Errorf("Members(%s): %q, want %q", tt.text, got, tt.want)
		}
	}
}
