package model

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// The account serves 20,000 requests/s; the rest are refused with Azure's
// account message. A transaction counts once, whatever its size.
func TestAccountTarget(t *testing.T) {
	tests := []struct {
		name     string
		rate     int // requests/s over 5,000 partitions
		entities int
		want     float64 // requests admitted per second
	}{
		{"25,000 point reads/s", 25000, 1, 20000},
		{"30,000 spanning queries/s", 30000, 0, 20000},
		{"150 transactions of 100/s: 15,000 entities but 150 requests", 150, 100, 150},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			cfg := testConfig()
			cfg.ServerTarget = 1e9 // only the account limits
			m := New(cfg, c.now)
			outs := run(m, c, tt.rate, 4*time.Second, func(i int) Request {
				r := Request{Table: "t", Entities: tt.entities}
				if tt.entities > 0 {
					r.Partition = fmt.Sprintf("p%04d", i%5000)
				}
				return r
			})
			for s := 1; s < 4; s++ {
				n := 0
				for _, o := range outs {
					if o.d.Allow && o.at >= time.Duration(s)*time.Second && o.at < time.Duration(s+1)*time.Second {
						n++
					}
				}
				within(t, fmt.Sprintf("requests in second %d", s), float64(n), tt.want, 1)
			}
			st := m.State()
			for _, o := range outs {
				if !o.d.Allow && o.d.Status == 503 && (o.d.Code != "ServerBusy" || o.d.Message != MsgAccount) {
					t.Fatalf("account refusal %+v, want 503 ServerBusy %q", o.d, MsgAccount)
				}
			}
			if tt.want < float64(tt.rate) && st.RefusedBy["account"] != st.Refusals || tt.want == float64(tt.rate) && st.Refusals != 0 {
				t.Errorf("refused by %v", st.RefusedBy)
			}
		})
	}
}

// A TimeoutShare s of refusals are 500 OperationTimedOut: exactly
// floor(k·s) of the first k (s in millionths), in the same order on every
// run.
func TestTimeoutShare(t *testing.T) {
	tests := []struct {
		name  string
		share float64
	}{
		{"default 10%", 0.1},
		{"none", 0},
		{"33.33%", 0.3333},
		{"a millionth", 1e-6},
		{"a quarter", 0.25},
		{"all", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sequence := func() []int {
				c := newClock()
				cfg := testConfig()
				cfg.TimeoutShare = tt.share
				m := New(cfg, c.now)
				var statuses []int
				for range 20_000 {
					d := m.Admit(Request{Table: "t", Partition: "p", Entities: 1})
					switch {
					case d.Allow:
					case d.Status == 500 && d.Code == "OperationTimedOut" && d.Message == MsgTimeout, isBusy(d):
						statuses = append(statuses, d.Status)
					default:
						t.Fatalf("refusal %+v", d)
					}
					c.add(time.Millisecond / 10)
				}
				return statuses
			}
			first, second := sequence(), sequence()
			timeouts := 0
			for i, s := range first {
				if s == 500 {
					timeouts++
				}
				if want := (i + 1) * int(math.Round(tt.share*1e6)) / 1e6; timeouts != want {
					t.Fatalf("after %d refusals %d timeouts, want %d", i+1, timeouts, want)
				}
				if second[i] != s {
					t.Fatalf("refusal %d: %d then %d: not deterministic", i, s, second[i])
				}
			}
			if len(first) < 10_000 {
				t.Errorf("only %d refusals", len(first))
			}
		})
	}
}
