package scenario

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/azure"
)

// A range query's rows are at most one page: the field's documentation,
// which a struct tag cannot compute, says the page's figure of pkg/azure.
func TestRowsDocIsOnePage(t *testing.T) {
	f, ok := reflect.TypeOf(Operation{}).FieldByName("Rows")
	if !ok {
		t.Fatal("Operation has no Rows")
	}
	if want := "1 to " + strconv.Itoa(azure.PageRows) + " (one page"; !strings.Contains(f.Tag.Get("doc"), want) {
		t.Errorf("Operation.Rows doc %q does not say %q", f.Tag.Get("doc"), want)
	}
}
