package report

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// checkShards checks that the reports are distinct shards of one run and
// returns their shard count.
func checkShards(shards []Shard) (int, error) {
	first := shards[0]
	seen := map[int]string{}
	n := 0
	for _, sh := range shards {
		r := sh.Report
		if r == nil {
			return 0, fmt.Errorf("%w: %s holds no report", ErrMerge, sh.Name)
		}
		if r.Run.Shard == "" {
			return 0, fmt.Errorf("%w: %s is not a shard (it was run without --shard); merge takes the reports of the shards of one run", ErrMerge, sh.Name)
		}
		i, count, err := ParseShard(r.Run.Shard)
		if err != nil {
			return 0, fmt.Errorf("%w: %s: shard %v", ErrMerge, sh.Name, err)
		}
		if n == 0 {
			n = count
		}
		if count != n {
			return 0, fmt.Errorf("%w: %s is shard %s but %s is shard %s: not the same number of shards", ErrMerge, sh.Name, r.Run.Shard, first.Name, first.Report.Run.Shard)
		}
		if other, dup := seen[i]; dup {
			return 0, fmt.Errorf("%w: %s and %s are both shard %s", ErrMerge, other, sh.Name, r.Run.Shard)
		}
		seen[i] = sh.Name
		if why := sameRun(first.Report, r); why != "" {
			return 0, fmt.Errorf("%w: %s and %s are not shards of one run: %s", ErrMerge, first.Name, sh.Name, why)
		}
	}
	for _, a := range shards {
		for _, b := range shards {
			if !overlap(a.Report, b.Report) {
				return 0, fmt.Errorf("%w: %s and %s are not shards of one run: they measured %s and %s, which do not overlap",
					ErrMerge, a.Name, b.Name, window(a.Report), window(b.Report))
			}
		}
	}
	return n, nil
}

// sameRun says how two shards' reports differ in what the shards of one run
// share, or "" when they do not.
func sameRun(a, b *Report) string {
	switch {
	case a.Scenario != b.Scenario:
		return fmt.Sprintf("scenario %q and %q", a.Scenario, b.Scenario)
	case a.Scheme != b.Scheme:
		return fmt.Sprintf("scheme %q and %q", a.Scheme, b.Scheme)
	case a.Table != b.Table:
		return fmt.Sprintf("table %q and %q", a.Table, b.Table)
	case a.Target != b.Target:
		return fmt.Sprintf("target %s %s and %s %s", a.Target.Kind, a.Target.Endpoint, b.Target.Kind, b.Target.Endpoint)
	case a.Run.ID != b.Run.ID:
		return fmt.Sprintf("run id %q and %q", a.Run.ID, b.Run.ID)
	case a.Run.ScenarioSHA256 != b.Run.ScenarioSHA256 || a.ScenarioSource != b.ScenarioSource:
		return "the scenario files differ"
	}
	ra, rb := a.Run, b.Run
	ra.Shard, rb.Shard = "", ""
	if !reflect.DeepEqual(ra, rb) {
		return fmt.Sprintf("run settings differ (%s versus %s)", runLine(a.Run), runLine(b.Run))
	}
	return ""
}

// runLine is a short description of run settings, for errors.
func runLine(r RunInfo) string {
	return fmt.Sprintf("%s loop, %d workers, rate %g, %d stages, warm-up %gs, seed %d, retry %s", r.Mode, r.Workers, r.Rate, len(r.Stages), r.WarmupS, r.Seed, r.Retry)
}

// overlap reports whether two reports' measured windows overlap (a report
// that measured nothing overlaps everything).
func overlap(a, b *Report) bool {
	if a.StartedAt.IsZero() || b.StartedAt.IsZero() {
		return true
	}
	aEnd := a.StartedAt.Add(time.Duration(a.DurationS * float64(time.Second)))
	bEnd := b.StartedAt.Add(time.Duration(b.DurationS * float64(time.Second)))
	return !a.StartedAt.After(bEnd) && !b.StartedAt.After(aEnd)
}

func window(r *Report) string {
	end := r.StartedAt.Add(time.Duration(r.DurationS * float64(time.Second)))
	return r.StartedAt.UTC().Format(time.RFC3339) + " to " + end.UTC().Format("15:04:05")
}

// ParseShard reads "I/N" with 0 <= I < N.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q: write it as I/N with 0 <= I < N, like 0/3", s)
	}
	return i, n, nil
}
