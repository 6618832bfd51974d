package judge

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// served is the bytes a second the embedded service's model of cfg lets
// through its account in steady state (over the 10 s after the first
// second of a load at twice target bytes/s): requests of size bytes each,
// their bodies (ingress) or their answers (egress), over 5,000
// partitions, on a clock the test moves.
func served(t *testing.T, cfg model.Config, egress bool, target float64, size int) float64 {
	t.Helper()
	var ns int64
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := model.New(cfg, func() time.Time { return base.Add(time.Duration(ns)) })
	rate := int(math.Ceil(2 * target / float64(size)))
	step := int64(time.Second) / int64(rate)
	admitted := 0.0
	for i := range 11 * rate {
		r := model.Request{Table: "t", Partition: fmt.Sprint(i % 5000), Op: model.OpWrite, Entities: 1, Write: true, Bytes: size}
		if egress {
			r.Op, r.Write, r.Bytes = model.OpRead, false, 0
		}
		d := m.Admit(r)
		if d.Allow && egress {
			m.ChargeEgress(size)
		}
		if d.Allow && ns >= int64(time.Second) {
			admitted += float64(size)
		}
		ns += step
	}
	if st := m.State(); st.RefusedBy["ingress"]+st.RefusedBy["egress"] != st.Refusals {
		t.Fatalf("refused by %v: the load should meet the bandwidth alone", st.RefusedBy)
	}
	return admitted / 10
}

// The judge holds the account's bandwidth to the figures the embedded
// service's model enforces: what the model lets through a second is the
// finding's target, give or take two requests over the 10 s measured
// (where the window's ends fall between arrivals and between admissions:
// 0.8 MB/s of 4 MiB requests), for Azure's default
// figures and for the select regions' (a model spec).
func TestBandwidthFindingsAreWhatTheModelEnforces(t *testing.T) {
	regions, err := model.Parse("azure,ingress=60,egress=200")
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []model.Config{model.Default(), regions} {
		in := &Input{Opts: Options{Model: cfg, Horizon: time.Hour}}
		p := &Prediction{Figures: Figures{Size: "horizon", IngressBytesPerSec: 1, EgressBytesPerSec: 1}}
		for _, f := range in.Findings(p, Limits{Headroom: 1}) {
			if f.Kind != AccountIngress && f.Kind != AccountEgress {
				continue
			}
			const size = 4 << 20
			got := served(t, cfg, f.Kind == AccountEgress, f.Target, size)
			t.Logf("%s: %v: the model served %.0f bytes/s, the judge's target %.0f", cfg, f.Kind, got, f.Target)
			if math.Abs(got-f.Target) > 2*size/10 {
				t.Errorf("%s: %v: the model served %.0f bytes/s, the judge's target is %.0f", cfg, f.Kind, got, f.Target)
			}
		}
	}
}
