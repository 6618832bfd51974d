package journal

import (
	"fmt"
	"os"
	"path/filepath"
)

// Stats are what the journal has written since it was opened.
type Stats struct {
	// Commits is how many groups of frames were written and synced, and
	// Frames how many frames (requests' writes) they held.
	Commits, Frames int64
	// Bytes is the bytes written to the logs.
	Bytes int64
	// Checkpoints is how many snapshots were written; CheckpointErr the
	// last failure to write one ("" for none: the logs are kept until one
	// is written).
	Checkpoints   int64
	CheckpointErr string
}

// Stats returns what the journal has written.
func (j *Journal) Stats() Stats {
	j.statsMu.Lock()
	defer j.statsMu.Unlock()
	return j.stats
}

// run is the writer: it takes the frames appended while it wrote the
// last group, writes and syncs them as one group, tells their writers,
// and starts a checkpoint when the log has grown past its size. It
// returns once Close asked and every frame appended is written.
func (j *Journal) run() {
	defer close(j.done)
	var spare []byte
	for {
		<-j.wake
		for {
			j.mu.Lock()
			buf, c, closing := j.buf, j.group, j.closing
			j.buf, j.group = spare[:0], newCommit()
			j.mu.Unlock()
			spare = buf
			if len(buf) == 0 {
				c.finish(nil) // nobody joined it
				if closing {
					j.finishCheckpoint(true)
					return
				}
				break
			}
			c.finish(j.write(buf))
			j.finishCheckpoint(false)
			j.maybeCheckpoint()
		}
	}
}

// write appends a group of frames to the log and syncs it.
func (j *Journal) write(buf []byte) error {
	if err := j.Err(); err != nil {
		return err
	}
	_, err := j.log.Write(buf)
	if err == nil {
		err = datasync(j.log)
	}
	if err != nil {
		return j.fail(err)
	}
	j.logBytes += int64(len(buf))
	j.statsMu.Lock()
	j.stats.Commits++
	j.stats.Bytes += int64(len(buf))
	j.statsMu.Unlock()
	return nil
}

// Close writes what was appended, waits for a running checkpoint, and
// closes the log; changes recorded after fail with ErrClosed.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closing {
		j.mu.Unlock()
		<-j.done
		return nil
	}
	j.closing = true
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
	<-j.done
	err := j.log.Close()
	unlockDir(j.lock)
	if werr := j.Err(); werr != nil {
		return werr
	}
	return err
}

// logPath and snapshotPath name the files of a log and a snapshot by
// number: a snapshot n holds the store as of the start of log n.
func logPath(dir string, n uint64) string {
	return filepath.Join(dir, fmt.Sprintf("log-%020d", n))
}

func snapshotPath(dir string, n uint64) string {
	return filepath.Join(dir, fmt.Sprintf("snapshot-%020d", n))
}

// createLog creates log n, empty, and makes its name durable.
func createLog(dir string, n uint64) (*os.File, error) {
	f, err := os.OpenFile(logPath(dir, n), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// syncDir makes the directory's entries (a file created, renamed or
// removed) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
