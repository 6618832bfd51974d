package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
)

// mib is the body of the largest entity's answer or request, about.
const mib = 1 << 20

// bandwidthRun offers rate requests/s for 4 s over 5,000 partitions (2/s
// each: no partition, server or request target is near), each a point
// read answered with out bytes (billed with ChargeEgress once admitted,
// as the service does once it has written the answer) or an insert of
// in bytes, and returns the decisions and the model's state.
func bandwidthRun(t *testing.T, rate, in, out int) ([]outcome, State) {
	t.Helper()
	c := newClock()
	cfg := testConfig()
	cfg.ServerTarget = 1e9
	m := New(cfg, c.now)
	outs := make([]outcome, 0, 4*rate)
	step := time.Second / time.Duration(rate)
	for i := range 4 * rate {
		r := Request{Table: "t", Partition: fmt.Sprintf("p%04d", i%5000), Op: OpRead, Entities: 1, Bytes: in}
		if in > 0 {
			r.Op, r.Write = OpWrite, true
		}
		d := m.Admit(r)
		if d.Allow {
			m.ChargeEgress(out)
		}
		outs = append(outs, outcome{at: c.since(), d: d, n: in + out})
		c.add(step)
	}
	return outs, m.State()
}

// checkBandwidth holds outs to the target (bytes/s): each whole second
// after the first admits the target's bytes, give or take one request's
// (the requests' spacing), and the first at most the bucket's burst more;
// every refusal is by cause, 503 ServerBusy with msg or, for the
// timeout share, 500 OperationTimedOut.
func checkBandwidth(t *testing.T, outs []outcome, st State, target float64, cause, msg string) {
	t.Helper()
	per := perSecond(outs, 0, 4)
	t.Logf("bytes admitted each second: %v, of %.0f/s", per, target)
	one := float64(outs[0].n)
	burst := target * testConfig().Burst.Seconds()
	if got := float64(per[0]); got < target-one || got > target+burst+one {
		t.Errorf("first second: %.0f bytes admitted, want %.0f to %.0f (the target and its burst)", got, target, target+burst)
	}
	for s := 1; s < 4; s++ {
		within(t, fmt.Sprintf("bytes admitted in second %d", s), float64(per[s]), target, one)
	}
	busy := 0
	for _, o := range outs {
		switch {
		case o.d.Allow, o.d.Status == 500 && o.d.Code == CodeTimeout:
		case o.d.Status == 503 && o.d.Code == "ServerBusy" && o.d.Message == msg:
			busy++
		default:
			t.Fatalf("refusal %+v, want 503 ServerBusy %q", o.d, msg)
		}
	}
	if busy == 0 || st.RefusedBy[cause] != st.Refusals {
		t.Errorf("%d answered %q; refused by %v, want every refusal by %s", busy, msg, st.RefusedBy, cause)
	}
}

// Point reads answered with 1 MiB each, 10,000 a second (10.5 GB/s), are
// held to the account's 50 Gbps egress (6.25 GB/s, about 5,960 answers a
// second) and refused with Azure's egress message.
func TestEgressOverTheAccountLimit(t *testing.T) {
	outs, st := bandwidthRun(t, 10000, 0, mib)
	checkBandwidth(t, outs, st, azure.BytesPerSec(azure.AccountEgressGbps), "egress", "Egress is over the account limit.")
}

// Inserts of 1 MiB, 5,000 a second (5.2 GB/s), are held to the account's
// 25 Gbps ingress (3.125 GB/s, about 2,980 a second) and refused with
// Azure's ingress message.
func TestIngressOverTheAccountLimit(t *testing.T) {
	outs, st := bandwidthRun(t, 5000, mib, 0)
	checkBandwidth(t, outs, st, azure.BytesPerSec(azure.AccountIngressGbps), "ingress", "Ingress is over the account limit.")
}

// A load under both targets is never refused: 2,900 inserts of 1 MiB a
// second (3.04 GB/s of 3.125) each answered with 2 MiB (6.08 GB/s of
// 6.25).
func TestBandwidthUnderTheTargets(t *testing.T) {
	outs, st := bandwidthRun(t, 2900, mib, 2*mib)
	for _, o := range outs {
		if !o.d.Allow {
			t.Fatalf("refused at %v: %+v (refused by %v)", o.at, o.d, st.RefusedBy)
		}
	}
}

// The bandwidth is the account's under Azure only: Cosmos DB's model,
// one that is off or paused, bills no egress and refuses no ingress.
func TestBandwidthOnlyUnderAzure(t *testing.T) {
	for _, cfg := range []Config{cosmosConfig(1e9), Off(), Default()} {
		c := newClock()
		cfg.Cosmos.LogicalRU, cfg.Cosmos.PartitionRU = 1e9, 1e9
		m := New(cfg, c.now)
		m.SetPaused(cfg.Enabled && cfg.Kind == Azure)
		for i := range 10000 {
			m.ChargeEgress(1 << 30)
			if d := m.Admit(Request{Table: "t", Partition: fmt.Sprint(i), Op: OpWrite, Entities: 1, Bytes: mib}); !d.Allow {
				t.Fatalf("%s, paused %v: request %d refused: %+v", cfg, m.State().Paused, i, d)
			}
		}
	}
}
