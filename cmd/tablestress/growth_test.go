package main

import (
	"math"
	"strconv"
	"testing"
)

// The judge's growth law holds: the proof's predictions at 50,000 and at
// 1,000,000 entities both match what the embedded service counts (its
// own count of the rows each question visits, and the requests), for
// every scheme the proof runs: the recommendation (with a runner-up when
// one can be recommended) and the scenario's own scheme, whose newest-200
// question visits all of a
// device's rows (25 at the shallow depth, 500 at the deep one). The
// partitions are cool, so the proof lasts 3s: long enough for the
// questions' means, and the busiest partition's check is as wide as its
// sampling says.
func TestProofHoldsTheGrowthLaw(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 1,000,000 entities three times")
	}
	visited := map[int64]float64{}
	for _, depth := range []int64{50_000, 1_000_000} {
		code, doc, errs := adviseJSON(t, "testdata/advise-growth.yaml", "--proof-entities", strconv.FormatInt(depth, 10), "--proof-warmup", "1s", "--proof-duration", "3s")
		p := doc.Proof
		if code != exitOK || p == nil || !p.Run || !p.OK || p.Entities != depth || !proofRan(doc, "recommended", "own") {
			t.Fatalf("at %d: exit %d, proof %+v\n%s", depth, code, p, errs)
		}
		for _, r := range p.Schemes {
			if r.Measured == nil || len(r.Questions) != 3 {
				t.Fatalf("at %d, %s: %+v", depth, r.Scheme, r)
			}
			for _, q := range r.Questions {
				if !q.Checked || q.Asked == 0 {
					t.Errorf("at %d, %s's %s was not checked: %+v", depth, r.Scheme, q.Name, q)
					continue
				}
				for _, f := range [][2]float64{{q.Requests, q.PredictedRequests}, {q.RowsVisited, q.PredictedRowsVisited}} {
					if off := math.Abs(f[0]/f[1] - 1); off > q.Tolerance || q.Tolerance > 0.15 {
						t.Errorf("at %d, %s's %s: measured %v, predicted %v (within %v)", depth, r.Scheme, q.Name, f[0], f[1], q.Tolerance)
					}
				}
				if r.Role == "own" && q.Name == "recent" {
					visited[depth] = q.PredictedRowsVisited
				}
			}
			t.Logf("at %d, %s (%s): %+v", depth, r.Scheme, r.Role, r.Questions)
		}
	}
	if visited[1_000_000] < 15*visited[50_000] {
		t.Errorf("the own scheme's newest 200 visit %v rows at 50,000 entities and %v at 1,000,000: want the partition's growth", visited[50_000], visited[1_000_000])
	}
}

// proofRan reports whether the proof of doc ran a scheme in each of roles.
func proofRan(doc adviceDoc, roles ...string) bool {
	ran := map[string]bool{}
	for _, r := range doc.Proof.Schemes {
		ran[r.Role] = true
	}
	for _, role := range roles {
		if !ran[role] {
			return false
		}
	}
	return true
}
