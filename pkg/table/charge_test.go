package table

import (
	"net/http"
	"testing"
	"time"
)

// Every request's answer carries its x-ms-request-charge into the Result,
// refusals included: each kind of request on a target that charges (here
// a 429 costing 0.5), and a successful write costing 4.95.
func TestRequestChargeRecorded(t *testing.T) {
	refused := serve(t, &canned{status: http.StatusTooManyRequests, code: "TooManyRequests",
		header: map[string]string{ChargeHeader: "0.5"}}, time.Second)
	for _, op := range operations() {
		res := op.do(refused, refused.Table("tbl1"))
		if !res.Charged || res.Charge != 0.5 {
			t.Errorf("%s: charged %v %v, want 0.5", op.name, res.Charged, res.Charge)
		}
	}
	ok := serve(t, &canned{status: http.StatusNoContent, header: map[string]string{ChargeHeader: "4.95"}}, time.Second)
	if res := ok.Table("tbl1").Upsert(t.Context(), entity("p", "r", 1), UpdateModeMerge); res.Err != nil || !res.Charged || res.Charge != 4.95 {
		t.Errorf("upsert: %+v", res)
	}
}

// No header, or one that is not a number of request units, is no charge;
// the same for rows visited, which are a count.
func TestRequestChargeAbsentOrBad(t *testing.T) {
	for _, v := range []string{"", "abc", "-1", "NaN", "+Inf"} {
		h := map[string]string{}
		if v != "" {
			h[ChargeHeader], h[VisitedHeader] = v, v
		}
		svc := serve(t, &canned{status: http.StatusNoContent, header: h}, time.Second)
		if res := svc.Table("tbl1").Delete(t.Context(), "p", "r", ""); res.Err != nil || res.Charged || res.Charge != 0 || res.VisitedSent {
			t.Errorf("header %q: %+v", v, res)
		}
	}
}
