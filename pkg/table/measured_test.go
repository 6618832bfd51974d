package table

import (
	"context"
	"testing"
	"time"
)

// A query page carries the service's rows visited and request charge when
// the service sends them, and says so when it does not; a point read
// carries the entity it read.
func TestResultCarriesChargeAndVisited(t *testing.T) {
	ctx := context.Background()
	page := `{"value":[{"PartitionKey":"p","RowKey":"a","V":1}]}`
	h := &canned{status: 200, body: page, header: map[string]string{ChargeHeader: "2.86", VisitedHeader: "340"}}
	tb := serve(t, h, 5*time.Second).Table("tbl1")
	_, r, _ := tb.Query(ctx, Query{Filter: FilterPK("p")}).Next(ctx)
	if !r.Charged || r.Charge != 2.86 || !r.VisitedSent || r.Visited != 340 || r.Entities != 1 {
		t.Errorf("query page with headers: %+v", r)
	}
	plain := serve(t, &canned{status: 200, body: page}, 5*time.Second).Table("tbl1")
	if _, r, _ := plain.Query(ctx, Query{Filter: FilterPK("p")}).Next(ctx); r.Charged || r.VisitedSent || r.Visited != 0 {
		t.Errorf("query page without headers: %+v", r)
	}
	one := serve(t, &canned{status: 200, body: `{"PartitionKey":"p","RowKey":"a","Seq":"7"}`, header: map[string]string{ChargeHeader: "1"}}, 5*time.Second).Table("tbl1")
	if r := one.Get(ctx, "p", "a", nil); string(r.Entity) == "" || !r.Charged || r.Charge != 1 {
		t.Errorf("point read: %+v (entity %s)", r, r.Entity)
	}
}
