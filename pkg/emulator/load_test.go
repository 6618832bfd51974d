package emulator

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// loadBodies is n entity bodies of partition pk, RowKeys from0, from0+1...
func loadBodies(pk string, from0, n int, v string) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":"%03d","V":%q,"N":"%d","N@odata.type":"Edm.Int64"}`, pk, from0+i, v, i))
	}
	return out
}

// TestLoadIsABatchOfUpserts loads entities in process and checks that the
// table holds what a $batch of Insert Or Replace operations would have
// stored, that a second load replaces them, and that the statistics count
// each load as one successful transaction of its entities.
func TestLoadIsABatchOfUpserts(t *testing.T) {
	s := newServer(t)
	do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"load"}`)), http.StatusNoContent)
	s.ResetStats()
	ctx := context.Background()
	for _, v := range []string{"first", "second"} {
		if o, msg := s.Load(ctx, "load", loadBodies("p", 0, 100, v)); o.Class != outcome.OK || o.Status != http.StatusAccepted {
			t.Fatalf("load %s: %+v %s", v, o, msg)
		}
	}
	if n, _ := s.Rows("load"); n != 100 {
		t.Errorf("%d rows, want 100", n)
	}
	p := s.Stats().Tables["load"].Partitions["p"]
	if p.Requests["202"] != 2 || p.Entities != 200 {
		t.Errorf("counted %v and %d entities, want 2 answers 202 and 200 entities", p.Requests, p.Entities)
	}
	w := do(t, s, signed(s, http.MethodGet, "/load(PartitionKey='p',RowKey='042')", "", nil), http.StatusOK)
	if b := w.Body.String(); !strings.Contains(b, `"N@odata.type":"Edm.Int64","N":"42","V":"second"`) {
		t.Errorf("the row reads %s, want the second load's", b)
	}
}

// TestLoadFailures checks that a transaction Load refuses is answered as a
// client reads the failed $batch, stores none of its entities, and is
// counted under the failing operation's status.
func TestLoadFailures(t *testing.T) {
	s := newServer(t)
	do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"load"}`)), http.StatusNoContent)
	dup := loadBodies("p", 0, 3, "x")
	dup[2] = dup[0]
	mixed := append(loadBodies("p", 0, 2, "x"), loadBodies("q", 5, 1, "x")...)
	tests := []struct {
		table    string
		entities [][]byte
		status   int
		code     string
	}{
		{"missing", loadBodies("p", 0, 2, "x"), 404, "TableNotFound"},
		{"load", dup, 400, "InvalidDuplicateRow"},
		{"load", mixed, 400, "CommandsInBatchActOnDifferentPartitions"},
		{"load", append(loadBodies("p", 0, 1, "x"), []byte(`{"PartitionKey":"p"}`)), 400, "PropertiesNeedValue"},
		{"load", append(loadBodies("p", 0, 1, "x"), []byte(`not json`)), 400, "InvalidInput"},
		{"load", loadBodies("p", 0, 101, "x"), 400, "InvalidInput"},
		{"load", [][]byte{[]byte(`{"PartitionKey":"p/","RowKey":"r"}`)}, 400, "InvalidInput"},
	}
	for i, tt := range tests {
		s.ResetStats()
		o, msg := s.Load(context.Background(), tt.table, tt.entities)
		if o.Status != tt.status || o.Code != tt.code || o.Class != outcome.ClientError || msg == "" {
			t.Errorf("row %d: %+v %q, want %d %s", i, o, msg, tt.status, tt.code)
		}
		if n, _ := s.Rows("load"); n != 0 {
			t.Fatalf("row %d: a failed load stored %d rows", i, n)
		}
		counted := map[string]int64{}
		for _, keys := range requests(s, tt.table) {
			for k, n := range keys {
				counted[k] += n
			}
		}
		if len(counted) != 1 || counted[o.Key()] != 1 {
			t.Errorf("row %d: counted %v, want one %s", i, counted, o.Key())
		}
	}
}

// TestLoadUnderFaults checks that a load meets the fault injection as a
// request does while the service measures, and passes while it does not
// (a seed phase).
func TestLoadUnderFaults(t *testing.T) {
	for _, tt := range []struct {
		faults faults.Config
		want   outcome.Class
	}{
		{faults.Config{Status: map[int]float64{503: 1}}, outcome.Throttled},
		{faults.Config{Drop: 1}, outcome.Transport},
	} {
		s, err := New(Config{Model: model.Off(), Faults: tt.faults})
		if err != nil {
			t.Fatal(err)
		}
		s.store.Create("load")
		if o, _ := s.Load(context.Background(), "load", loadBodies("p", 0, 5, "x")); o.Class != tt.want {
			t.Errorf("measured, %+v: %+v, want %s", tt.faults, o, tt.want)
		}
		s.SetMeasured(false)
		if o, msg := s.Load(context.Background(), "load", loadBodies("p", 0, 5, "x")); o.Class != outcome.OK {
			t.Errorf("not measured, %+v: %+v %s, want OK", tt.faults, o, msg)
		}
	}
}
