package journal

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// Recovery is what Open found in the directory.
type Recovery struct {
	// Tables and Entities are what the store holds after it.
	Tables, Entities int
	// Read is the bytes of snapshot and logs read; Dropped the bytes cut
	// from the end of the logs: frames the process died writing, whose
	// requests were never answered.
	Read, Dropped int64
	// Service is the service properties' XML document last recorded, nil
	// for none.
	Service []byte
	// Took is how long opening took.
	Took time.Duration
}

// Open locks dir (creating it if need be), rebuilds the store kept there
// into st, which must be empty, and returns the journal recording st's
// changes from then on. It fails when another process has dir open, when
// dir cannot be read or written, and when a snapshot is damaged; a log
// cut short or damaged at its end is cut there, never a failure.
func Open(dir string, st *store.Store, opt Options) (*Journal, Recovery, error) {
	start := time.Now()
	if opt.CheckpointBytes <= 0 {
		opt.CheckpointBytes = 64 << 20
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, Recovery{}, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, Recovery{}, err
	}
	j := &Journal{dir: dir, opt: opt, st: st, lock: lock, group: newCommit(), wake: make(chan struct{}, 1), done: make(chan struct{})}
	rec, err := j.recover()
	if err != nil {
		unlockDir(lock)
		return nil, Recovery{}, err
	}
	rec.Took = time.Since(start)
	go j.run()
	return j, rec, nil
}

// recover loads the newest snapshot and replays the logs after it,
// cutting the first damaged frame and what follows; it leaves the last
// log open for appending.
func (j *Journal) recover() (Recovery, error) {
	os.Remove(filepath.Join(j.dir, "snapshot.tmp"))
	logs, snaps, err := listDir(j.dir)
	if err != nil {
		return Recovery{}, err
	}
	s := &state{st: j.st, tables: map[uint64]*store.Table{}}
	var rec Recovery
	base := uint64(1)
	if len(snaps) > 0 {
		base = snaps[len(snaps)-1]
		if rec.Read, err = replaySnapshot(s, snapshotPath(j.dir, base)); err != nil {
			return rec, err
		}
	}
	removeBefore(j.dir, base)
	last, err := replayLogs(s, j.dir, logs, base, &rec)
	if err != nil {
		return rec, err
	}
	if j.log, err = os.OpenFile(logPath(j.dir, last), os.O_WRONLY|os.O_APPEND, 0); errors.Is(err, os.ErrNotExist) {
		j.log, err = createLog(j.dir, last)
	}
	if err != nil {
		return rec, err
	}
	j.seq, j.service, rec.Service = last, s.service, s.service
	j.st.Observe(s.maxTS)
	for _, t := range j.st.Tables() {
		t.Lock()
		t.NewNames() // the names the files hold: an entry writes only later ones
		rec.Tables, rec.Entities = rec.Tables+1, rec.Entities+t.Len()
		t.Unlock()
	}
	return rec, nil
}

// replaySnapshot applies a snapshot, which must be whole: it is renamed
// into place only once written and synced.
func replaySnapshot(s *state, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fr := newFrameReader(f)
	for !s.ended {
		p, err := fr.next()
		if err == nil {
			err = s.apply(p)
		}
		if err != nil {
			if err == io.EOF || err == errTorn {
				err = errors.New("it ends before its end record")
			}
			return fr.good, fmt.Errorf("journal: the snapshot %s is damaged after byte %d (%v): move it aside to start from the logs beside it", path, fr.good, err)
		}
	}
	return fr.good, nil
}

// replayLogs applies the logs numbered base and after, in order, and
// returns the number of the last: the first damaged frame ends the
// replay, and it, what follows it, and any later log are deleted.
func replayLogs(s *state, dir string, logs []uint64, base uint64, rec *Recovery) (uint64, error) {
	last := base
	for i, n := range logs {
		if n < base {
			continue
		}
		last = n
		good, size, err := replayLog(s, logPath(dir, n))
		rec.Read += good
		if err != nil {
			return last, err
		}
		if good == size {
			continue
		}
		rec.Dropped += size - good
		if err := os.Truncate(logPath(dir, n), good); err != nil {
			return last, err
		}
		for _, m := range logs[i+1:] {
			if fi, err := os.Stat(logPath(dir, m)); err == nil {
				rec.Dropped += fi.Size()
			}
			os.Remove(logPath(dir, m))
		}
		return last, syncDir(dir)
	}
	return last, nil
}

// replayLog applies a log's frames up to its end or its first damaged
// one, and returns the bytes of whole frames and the file's size.
func replayLog(s *state, path string) (good, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	fr := newFrameReader(f)
	for {
		p, err := fr.next()
		switch {
		case err == io.EOF || err == errTorn:
			return fr.good, fi.Size(), nil
		case err != nil:
			return fr.good, fi.Size(), err
		}
		if err := s.apply(p); err != nil {
			return fr.good, fi.Size(), fmt.Errorf("journal: %s after byte %d: %w", path, fr.good, err)
		}
	}
}

// listDir returns the numbers of the logs and snapshots in dir, sorted.
func listDir(dir string) (logs, snaps []uint64, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		var n uint64
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "log-") && scan(name[4:], &n):
			logs = append(logs, n)
		case strings.HasPrefix(name, "snapshot-") && scan(name[9:], &n):
			snaps = append(snaps, n)
		}
	}
	sort.Slice(logs, func(a, b int) bool { return logs[a] < logs[b] })
	sort.Slice(snaps, func(a, b int) bool { return snaps[a] < snaps[b] })
	return logs, snaps, nil
}

// scan reads a file's number: 20 decimal digits.
func scan(s string, n *uint64) bool {
	if len(s) != 20 {
		return false
	}
	_, err := fmt.Sscanf(s, "%d", n)
	return err == nil
}
