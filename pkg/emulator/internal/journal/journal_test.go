package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// clock hands out distinct times, so every write has its own ETag.
func clock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

// open opens dir into a new store, failing the test on an error.
func open(t *testing.T, dir string, opt Options) (*Journal, *store.Store, Recovery) {
	t.Helper()
	st := store.New(clock(), false)
	j, rec, err := Open(dir, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	return j, st, rec
}

// create creates a table and records it.
func create(t *testing.T, j *Journal, st *store.Store, name string) *store.Table {
	t.Helper()
	var c *Commit
	if !st.CreateThen(name, func(tb *store.Table) { c = j.Created(tb) }) {
		t.Fatalf("table %s exists", name)
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	return st.Table(name)
}

// put stores and records one entity with a property named after i (so
// the dictionary grows) and returns its ETag.
func put(t *testing.T, j *Journal, st *store.Store, tb *store.Table, pk, rk string, i int) string {
	t.Helper()
	props := []store.Prop{{Name: fmt.Sprintf("P%d", i%7), Raw: []byte(fmt.Sprint(i))}, {Name: "S", Raw: []byte(`"x"`)}}
	e := store.NewEntity(pk, rk, props, st.Timestamp(), tb.Names())
	tb.Lock()
	tb.Put(e)
	en := j.Begin(tb)
	en.Put(e)
	c := en.Commit()
	tb.Unlock()
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	return e.ETag()
}

// contents is a table's entities as "pk/rk etag {json}" lines.
func contents(tb *store.Table) []string {
	var out []string
	tb.RLock()
	defer tb.RUnlock()
	tb.Ascend("", "", func(e *store.Entity) bool {
		out = append(out, e.PK()+"/"+e.RK()+" "+e.ETag()+" {"+string(e.AppendFragment(nil))+"}")
		return true
	})
	return out
}

// Everything the journal records comes back on opening the directory
// again: tables, entities with their ETags and properties, deletions,
// stored access policies and the service properties; a table dropped and
// created again under its name holds only what was written after.
func TestReopenRestores(t *testing.T) {
	dir := t.TempDir()
	j, st, _ := open(t, dir, Options{})
	a := create(t, j, st, "Alpha")
	for i := range 50 {
		put(t, j, st, a, fmt.Sprintf("p%d", i%3), fmt.Sprintf("r%02d", i), i)
	}
	a.Lock()
	a.Delete("p0", "r03")
	en := j.Begin(a)
	en.Remove("p0", "r03")
	c := en.Commit()
	a.SetPolicies([]store.Policy{{ID: "read", Perms: "r", Expiry: "2030-01-01T00:00:00.0000000Z"}})
	c2 := j.Policies(a, a.Policies())
	a.Unlock()
	if c.Wait() != nil || c2.Wait() != nil || j.Service([]byte("<StorageServiceProperties/>")).Wait() != nil {
		t.Fatal("a commit failed")
	}
	b := create(t, j, st, "Beta")
	put(t, j, st, b, "old", "1", 1)
	var cd *Commit
	st.DropThen("Beta", func(tb *store.Table) { cd = j.Dropped(tb) })
	if cd.Wait() != nil {
		t.Fatal("drop")
	}
	b = create(t, j, st, "beta")
	put(t, j, st, b, "new", "1", 2)
	want := map[string][]string{"Alpha": contents(a), "beta": contents(b)}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	j2, st2, rec := open(t, dir, Options{})
	defer j2.Close()
	if got := st2.Names(); !slices.Equal(got, []string{"Alpha", "beta"}) {
		t.Fatalf("tables %v", got)
	}
	for name, w := range want {
		if got := contents(st2.Table(name)); !slices.Equal(got, w) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, w)
		}
	}
	if p := st2.Table("Alpha").Policy("read"); p == nil || p.Perms != "r" {
		t.Errorf("policy %+v", p)
	}
	if string(rec.Service) != "<StorageServiceProperties/>" || rec.Entities != 50 || rec.Tables != 2 || rec.Dropped != 0 {
		t.Errorf("recovery %+v", rec)
	}
	// A write after the restart gets a later ETag than any before it.
	if ts := st2.Timestamp(); !ts.After(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("timestamp after restart %v", ts)
	}
}

// A log whose last frame was cut short (the process killed while writing
// it) or ends in garbage opens: the whole frames are replayed, the rest is
// cut, and the journal writes on after them.
func TestTornTailRecovered(t *testing.T) {
	for _, tc := range []struct {
		name string
		tear func(path string, size int64) error
	}{
		{"cut", func(p string, size int64) error { return os.Truncate(p, size-5) }},
		{"garbage", func(p string, size int64) error {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.Write([]byte{200, 0, 0, 0, 1, 2, 3, 4, 5, 6})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			j, st, _ := open(t, dir, Options{})
			tb := create(t, j, st, "T1")
			for i := range 10 {
				put(t, j, st, tb, "p", fmt.Sprintf("r%d", i), i)
			}
			want := contents(tb)
			j.Close()
			p := logPath(dir, 1)
			fi, _ := os.Stat(p)
			if err := tc.tear(p, fi.Size()); err != nil {
				t.Fatal(err)
			}
			j2, st2, rec := open(t, dir, Options{})
			got := contents(st2.Table("T1"))
			if tc.name == "cut" {
				want = want[:9] // the last put's frame was cut
			}
			if !slices.Equal(got, want) || rec.Dropped == 0 {
				t.Fatalf("after a %s tail: dropped %d\n got %q\nwant %q", tc.name, rec.Dropped, got, want)
			}
			put(t, j2, st2, st2.Table("T1"), "p", "after", 11)
			want = contents(st2.Table("T1"))
			j2.Close()
			j3, st3, rec3 := open(t, dir, Options{})
			defer j3.Close()
			if got := contents(st3.Table("T1")); !slices.Equal(got, want) || rec3.Dropped != 0 {
				t.Errorf("written after the cut: dropped %d\n got %q\nwant %q", rec3.Dropped, got, want)
			}
		})
	}
}

// With a small checkpoint size, snapshots replace the logs as writes go
// on, and opening the directory gives the same store as replaying every
// write would.
func TestCheckpoints(t *testing.T) {
	dir := t.TempDir()
	j, st, _ := open(t, dir, Options{CheckpointBytes: 4 << 10})
	tb := create(t, j, st, "T1")
	for i := range 3000 {
		put(t, j, st, tb, fmt.Sprintf("p%d", i%5), fmt.Sprintf("r%d", i%1200), i)
	}
	want := contents(tb)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if s := j.Stats(); s.Checkpoints == 0 || s.CheckpointErr != "" {
		t.Fatalf("stats %+v", s)
	}
	logs, snaps, _ := listDir(dir)
	if len(snaps) != 1 || len(logs) > 2 || logs[0] < snaps[0] {
		t.Errorf("logs %v snapshots %v: the logs a snapshot holds are deleted", logs, snaps)
	}
	j2, st2, _ := open(t, dir, Options{})
	defer j2.Close()
	if got := contents(st2.Table("T1")); !slices.Equal(got, want) {
		t.Errorf("after checkpoints: %d entities, want %d", len(got), len(want))
	}
}

// A second process cannot open a directory in use, and a damaged
// snapshot is refused with its name, never half loaded.
func TestOpenRefusals(t *testing.T) {
	dir := t.TempDir()
	j, _, _ := open(t, dir, Options{})
	if _, _, err := Open(dir, store.New(clock(), false), Options{}); err == nil {
		t.Error("a directory in use opened twice")
	}
	j.Close()
	snap := snapshotPath(dir, 1)
	os.WriteFile(snap, appendFrame(nil, []byte{recService, 0}), 0o644)
	_, _, err := Open(dir, store.New(clock(), false), Options{})
	if err == nil || !strings.Contains(err.Error(), filepath.Base(snap)) {
		t.Errorf("a snapshot without its end: %v", err)
	}
}
