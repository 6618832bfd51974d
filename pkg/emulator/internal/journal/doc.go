// Package journal keeps the embedded service's store (package store) in a
// directory, so that tables, entities (their ETags and timestamps), stored
// access policies and the service's properties outlive the process:
// tablestress emulator --location DIR.
//
// The store stays the engine: every read is served from memory as before.
// What changes it is also written down, in the order the store applied it,
// as records in a write-ahead log (record.go), one frame per request,
// checksummed (frame.go); one goroutine writes the frames waiting and
// syncs them to the disk at once (group commit), and a request is
// answered only once its frame is on the disk (Commit.Wait), so a write
// the service acknowledged survives the process being killed. When the
// log has grown past a size, the journal starts a new log and writes a
// snapshot of the store beside it (checkpoint.go), table by table, without
// stopping writes, and then deletes the logs the snapshot holds. Opening a
// directory (recover.go) loads the newest snapshot, replays the logs after
// it, and cuts a log's torn tail (a frame the process died writing, which
// no request was answered for) instead of refusing to start.
//
// It imports the store and the standard library only: nothing of HTTP,
// the model or the REST service. Its methods are safe for concurrent use;
// the methods that record a table's entities are called under the table's
// write lock, so that records of one table are in the order of its writes.
package journal
