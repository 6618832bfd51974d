package journal

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// Journal records a store's changes in a directory (see the package
// comment). Its methods are safe for concurrent use.
type Journal struct {
	dir  string
	opt  Options
	st   *store.Store
	lock *os.File // the directory's lock (lock_unix.go)

	mu      sync.Mutex
	buf     []byte  // frames appended since the writer last took them
	group   *Commit // what the writers of those frames wait on
	service []byte  // the service properties last recorded
	err     error   // the first failure to write: every later commit fails with it
	closing bool
	wake    chan struct{}
	done    chan struct{}

	// The writer goroutine's own (writer.go).
	log      *os.File
	seq      uint64 // the log's number
	logBytes int64
	ckpt     chan error // the running checkpoint's result, nil when none runs
	stats    Stats
	statsMu  sync.Mutex
}

// Options are a journal's settings; the zero Options are the defaults.
type Options struct {
	// CheckpointBytes is the size of the log past which a snapshot is
	// taken and the log started anew (default 64 MiB).
	CheckpointBytes int64
}

// ErrClosed is the error of a change recorded after Close.
var ErrClosed = errors.New("journal: closed")

// Commit is one group of frames written and synced together: the frames
// appended while the previous group was being written.
type Commit struct {
	done chan struct{}
	err  error
}

func newCommit() *Commit { return &Commit{done: make(chan struct{})} }

// failed is a commit that has already failed with err.
func failed(err error) *Commit {
	c := newCommit()
	c.finish(err)
	return c
}

func (c *Commit) finish(err error) {
	c.err = err
	close(c.done)
}

// Wait waits until the commit's frames are on the disk and returns nil,
// or the error that kept them from it. A nil Commit (nothing recorded) is
// done.
func (c *Commit) Wait() error {
	if c == nil {
		return nil
	}
	<-c.done
	return c.err
}

// append adds a frame of payload to the next group and returns the group.
func (j *Journal) append(payload []byte) *Commit {
	j.mu.Lock()
	if j.err != nil || j.closing {
		err := j.err
		j.mu.Unlock()
		if err == nil {
			err = ErrClosed
		}
		return failed(err)
	}
	j.buf = appendFrame(j.buf, payload)
	c := j.group
	j.mu.Unlock()
	j.statsMu.Lock()
	j.stats.Frames++
	j.statsMu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
	return c
}

// Created records a table created. Called under the store's lock
// (store.CreateThen).
func (j *Journal) Created(t *store.Table) *Commit {
	p := binary64(nil, recCreate, t.ID())
	return j.append(appendString(p, t.Name()))
}

// Dropped records a table dropped. Called under the store's lock
// (store.DropThen).
func (j *Journal) Dropped(t *store.Table) *Commit {
	return j.append(binary64(nil, recDrop, t.ID()))
}

// Policies records the table's stored access policies as set. Called
// under the table's write lock.
func (j *Journal) Policies(t *store.Table, ps []store.Policy) *Commit {
	return j.append(appendPolicies(nil, t.ID(), ps))
}

// Service records the service properties as set (their XML document).
// Callers record one change at a time, in the order they make them.
func (j *Journal) Service(doc []byte) *Commit {
	j.mu.Lock()
	j.service = append([]byte(nil), doc...)
	j.mu.Unlock()
	return j.append(appendString([]byte{recService}, string(doc)))
}

// Entry is the records of one request's writes to one table, appended as
// one frame by Commit. Begin, Put, Remove and Commit are called under the
// table's write lock.
type Entry struct {
	j   *Journal
	id  uint64
	buf []byte
}

var entryPool = sync.Pool{New: func() any { return &Entry{buf: make([]byte, 0, 4<<10)} }}

// Begin starts an entry of writes to t, with the names t's dictionary
// gained since its last entry.
func (j *Journal) Begin(t *store.Table) *Entry {
	e := entryPool.Get().(*Entry)
	e.j, e.id = j, t.ID()
	first, names := t.NewNames()
	e.buf = appendNames(e.buf[:0], e.id, first, names)
	return e
}

// Put records an entity stored (replacing any with its keys).
func (e *Entry) Put(ent *store.Entity) { e.buf = appendPut(e.buf, e.id, ent) }

// Remove records an entity deleted.
func (e *Entry) Remove(pk, rk string) {
	e.buf = appendString(appendString(binary64(e.buf, recRemove, e.id), pk), rk)
}

// Commit appends the entry's frame and returns its group; the entry must
// not be used after.
func (e *Entry) Commit() *Commit {
	c := e.j.append(e.buf)
	if cap(e.buf) <= 1<<20 {
		e.j = nil
		entryPool.Put(e)
	}
	return c
}

// binary64 appends a record's type and a table's id.
func binary64(dst []byte, typ byte, id uint64) []byte {
	return appendUvarint(append(dst, typ), id)
}

func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// Err is the failure that stopped the journal from writing, nil while it
// writes.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// fail records the journal's first failure: every later change fails.
func (j *Journal) fail(err error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = fmt.Errorf("journal: writing %s: %w", j.dir, err)
	}
	return j.err
}
