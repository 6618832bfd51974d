package journal

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// A checkpoint bounds the logs: once the log holds CheckpointBytes, the
// writer starts log n+1 between two groups and a goroutine writes
// snapshot n, the store as it is from then on, table by table; once the
// snapshot is on the disk, the logs before n are deleted. Writes go on
// meanwhile: the snapshot takes each table's read lock for a thousand
// entities at a time, so it may hold a write made after log n began,
// which log n holds too; replaying log n over the snapshot applies it
// again, to the same end (a record says what an entity is, not how it
// changed).

// snapshotFrame is how many bytes of entities a snapshot frame holds at
// most (and snapshotEntities how many), so that a table's read lock is
// held briefly and a frame stays small.
const (
	snapshotFrame    = 1 << 20
	snapshotEntities = 1000
)

// maybeCheckpoint starts a checkpoint when the log has grown past its
// size and none runs. A log that cannot be started leaves the current
// one growing; the next group tries again.
func (j *Journal) maybeCheckpoint() {
	if j.ckpt != nil || j.logBytes < j.opt.CheckpointBytes {
		return
	}
	f, err := createLog(j.dir, j.seq+1)
	if err != nil {
		j.noteCheckpoint(err)
		return
	}
	old := j.log
	j.log, j.seq, j.logBytes = f, j.seq+1, 0
	old.Close() // synced with its last group
	j.ckpt = make(chan error, 1)
	go func(n uint64) { j.ckpt <- j.checkpoint(n) }(j.seq)
}

// finishCheckpoint notes the running checkpoint's end, waiting for it
// when wait is set.
func (j *Journal) finishCheckpoint(wait bool) {
	if j.ckpt == nil {
		return
	}
	if wait {
		j.noteCheckpoint(<-j.ckpt)
		j.ckpt = nil
		return
	}
	select {
	case err := <-j.ckpt:
		j.noteCheckpoint(err)
		j.ckpt = nil
	default:
	}
}

func (j *Journal) noteCheckpoint(err error) {
	j.statsMu.Lock()
	defer j.statsMu.Unlock()
	if err != nil {
		j.stats.CheckpointErr = err.Error()
		return
	}
	j.stats.Checkpoints++
	j.stats.CheckpointErr = ""
}

// checkpoint writes snapshot n and deletes what it replaces.
func (j *Journal) checkpoint(n uint64) error {
	tmp := filepath.Join(j.dir, "snapshot.tmp")
	if err := j.writeSnapshot(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, snapshotPath(j.dir, n)); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := syncDir(j.dir); err != nil {
		return err
	}
	removeBefore(j.dir, n)
	return nil
}

// writeSnapshot writes the store's tables, the service properties and
// the end record to path, and syncs it.
func (j *Journal) writeSnapshot(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var frame []byte
	for _, t := range j.st.Tables() {
		if frame, err = writeTable(w, t, frame); err != nil {
			return err
		}
	}
	j.mu.Lock()
	frame = appendString(append(frame[:0], recService), string(j.service))
	j.mu.Unlock()
	if err := writeFrame(w, append(frame, recEnd)); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// writeTable writes a table's records: its creation, its entities a
// frame at a time (each frame after the names its dictionary gained), and
// its stored access policies. frame is a buffer to reuse, returned grown.
func writeTable(w *bufio.Writer, t *store.Table, frame []byte) ([]byte, error) {
	id := t.ID()
	frame = appendString(binary64(frame[:0], recCreate, id), t.Name())
	told, more, resume := 0, true, false
	var pk, rk string
	for more {
		t.RLock()
		names := t.Names().All()
		frame = appendNames(frame, id, told, names[told:])
		told = len(names)
		n := 0
		more = false
		t.Ascend(pk, rk, func(e *store.Entity) bool {
			if resume && e.PK() == pk && e.RK() == rk {
				return true // written by the last frame
			}
			if n == snapshotEntities || len(frame) >= snapshotFrame {
				more = true
				return false
			}
			frame = appendPut(frame, id, e)
			pk, rk, n = e.PK(), e.RK(), n+1
			return true
		})
		pk, rk, resume = string([]byte(pk)), string([]byte(rk)), true // copies: the view is valid under the lock only
		t.RUnlock()
		if err := writeFrame(w, frame); err != nil {
			return frame, err
		}
		frame = frame[:0]
	}
	frame = appendPolicies(frame, id, t.Policies())
	return frame[:0], writeFrame(w, frame)
}

// writeFrame writes a frame of payload.
func writeFrame(w *bufio.Writer, payload []byte) error {
	h := appendFrame(make([]byte, 0, headerLen), nil)
	binary.LittleEndian.PutUint32(h, uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	if _, err := w.Write(h); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// removeBefore deletes the logs and snapshots before number n, and what
// a checkpoint left half written.
func removeBefore(dir string, n uint64) {
	logs, snaps, _ := listDir(dir)
	for _, l := range logs {
		if l < n {
			os.Remove(logPath(dir, l))
		}
	}
	for _, s := range snaps {
		if s < n {
			os.Remove(snapshotPath(dir, s))
		}
	}
	syncDir(dir)
}
