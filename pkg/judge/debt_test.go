package judge

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// stream is requests of one kind arriving at random moments (a Poisson
// stream, as a mix draws them), rate a second: req makes each, and a
// query visits visits rows of its partition (charged after it passes).
type stream struct {
	rate   float64
	visits int
	req    func(r *rand.Rand) model.Request
}

// refusedShare offers streams to the service model on a fake clock for
// d and returns the share of the requests it refused.
func refusedShare(cfg model.Config, d time.Duration, streams []stream) float64 {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	m := model.New(cfg, func() time.Time { return now })
	r := rand.New(rand.NewPCG(7, 11))
	next := make([]time.Duration, len(streams))
	draw := func(k int) time.Duration { return time.Duration(r.ExpFloat64() / streams[k].rate * 1e9) }
	for k := range next {
		next[k] = draw(k)
	}
	offered, refused := 0, 0
	for {
		k := 0
		for i := range next {
			if next[i] < next[k] {
				k = i
			}
		}
		if next[k] > d {
			break
		}
		now = start.Add(next[k])
		next[k] += draw(k)
		q := streams[k].req(r)
		offered++
		if !m.Admit(q).Allow {
			refused++
		} else if v := streams[k].visits; v > 0 {
			m.ChargePage(q.Table, []model.Visit{{Partition: q.Partition, Visited: v}})
		}
	}
	return float64(refused) / float64(offered)
}

// judgeTolerance is how far (relative) the judge's refused share may be
// from what the model refuses over the streams: the model's own share
// varies with the moments the streams draw (a few thousand passes).
const judgeTolerance = 0.10

func nearModel(pred, exact float64) bool { return math.Abs(pred-exact) <= judgeTolerance*exact }

// A partition taking steady writes and scans that visit a little more
// than its bucket holds refuses its writes while the scans' debt is paid:
// the judge's refused share (refusedOf) is the model's. (A law of the
// debt over what the target leaves of the load refused every request.)
func TestPartitionDebtRefusalsAreTheModels(t *testing.T) {
	cfg := model.Default()
	cfg.ServerTarget = 1e9 // the partition's bucket alone
	writes, scans, rows := 1000.0, 3.0, 300
	write := func(*rand.Rand) model.Request {
		return model.Request{Table: "t", Partition: "p", Entities: 1, Write: true}
	}
	scan := func(*rand.Rand) model.Request { return model.Request{Table: "t", Partition: "p", Op: model.OpQuery} }
	got := refusedShare(cfg, 10*time.Minute, []stream{{rate: writes, req: write}, {rate: scans, visits: rows, req: scan}})
	cs := []passClass{{what: "scan", rate: scans, over: scans * (float64(rows) - 200), rows: scans * float64(rows)}}
	r, _ := refusedOf(cs, writes+scans*float64(rows), writes+scans, 200, cfg.PartitionTarget)
	want := r / (writes + scans)
	t.Logf("judged %.2f%%, the model refused %.2f%%", 100*want, 100*got)
	if !nearModel(want, got) {
		t.Errorf("the judge predicts %.2f%% of the requests refused, the model refused %.2f%%", 100*want, 100*got)
	}
}

// The help desk's scans, each a minute of 8 hash buckets (3,000 rows) of
// a partition picked among a year's, come 30 a second to the 16 partition
// servers, each running its server a fifth of a second into debt; the
// server refuses the writes and reads reaching it meanwhile. The judge's
// throttled share of the scheme at the horizon is what the model refuses
// of the same streams (its partitions each scanned at most once).
func TestServerDebtRefusalsAreTheModels(t *testing.T) {
	src, err := os.ReadFile("testdata/tickets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := prepare(t, "tickets", src)
	sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "hash8-minute", PartitionKey: "{hash(guid) % 8:01}_{time:yyyy-MM-dd-HH-mm}", RowKey: "{inverted_ticks}"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := in.JudgeAt(context.Background(), sch, in.HorizonSize())
	if err != nil {
		t.Fatal(err)
	}
	old := func(r *rand.Rand) string { return fmt.Sprintf("%d_%d", r.IntN(8), r.IntN(525600)) }
	streams := []stream{
		{rate: 400, req: func(r *rand.Rand) model.Request {
			return model.Request{Table: "t", Partition: fmt.Sprintf("%d_new", r.IntN(8)), Entities: 1, Write: true}
		}},
		{rate: 200, req: func(r *rand.Rand) model.Request { return model.Request{Table: "t", Partition: old(r), Entities: 1} }},
		{rate: 30, visits: 3000, req: func(r *rand.Rand) model.Request {
			return model.Request{Table: "t", Partition: old(r), Op: model.OpQuery}
		}},
	}
	got := refusedShare(in.Opts.Model, 5*time.Minute, streams)
	t.Logf("judged %.2f%% (%.2f%% by servers), the model refused %.2f%%", 100*f.ThrottledShare, 100*f.ServerThrottledShare, 100*got)
	if !nearModel(f.ThrottledShare, got) {
		t.Errorf("the judge predicts %.2f%% of the requests refused (%.2f%% by servers), the model refused %.2f%%", 100*f.ThrottledShare, 100*f.ServerThrottledShare, 100*got)
	}
}

// negligible skips a bucket only when the level-crossing grid finds it in
// debt less than debtNegligible of the time, over passes of one and two
// sizes from a hundredth of the bucket to twice it, at rates up to 60% of
// the target, with the other requests taking up to 30%; and it skips the
// passes far smaller than their bucket, which are most of a table's.
func TestNegligibleDebtIsNegligible(t *testing.T) {
	const c = 0.1 // a bucket of 200 at 2,000 a second
	skipped, cases := 0, 0
	for _, a := range []float64{0.001, 0.005, 0.02, 0.05, 0.09, 0.15, 0.2} {
		for _, rho := range []float64{0.001, 0.01, 0.1, 0.3, 0.6} {
			for _, load := range []float64{0, 0.1, 0.3} {
				for _, two := range []bool{false, true} {
					lam, size := []float64{rho / a}, []float64{a}
					if two {
						lam, size = append(lam, rho/(4*a)), append(size, 2*a)
					}
					cases++
					over, _ := levelCrossing(lam, size, 1-load, c, c+queryAhead, size[len(size)-1])
					if negligible(lam, size, 1-load, c) {
						skipped++
						if over > debtNegligible {
							t.Errorf("passes %v at %v a second, other load %v: skipped, but in debt %v of the time", size, lam, load, over)
						}
					}
				}
			}
		}
	}
	if skipped < cases/4 {
		t.Errorf("only %d of %d cases skipped: the bound skips nothing small", skipped, cases)
	}
	t.Logf("%d of %d cases skipped", skipped, cases)
}
