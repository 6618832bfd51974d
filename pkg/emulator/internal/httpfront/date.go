package httpfront

import (
	"net/http"
	"sync/atomic"
	"time"
)

// DateCache holds the Date header of the current second: formatting it
// is a tenth of what the rest of an answer's headers cost, and it changes
// once a second. The front writes one on the system clock when the
// handler wrote no Date (a ninth header in the handler's map would make
// an insert's answer grow the map past its first eight slots); a service
// on a clock of its own writes its own from one. Safe for concurrent use.
type DateCache struct{ cur atomic.Pointer[dateLine] }

type dateLine struct {
	sec int64
	val []string // the header value, shared by the answers of that second
}

// Of is the Date header value for an answer at now.
func (c *DateCache) Of(now time.Time) []string {
	sec := now.Unix()
	if d := c.cur.Load(); d != nil && d.sec == sec {
		return d.val
	}
	d := &dateLine{sec: sec, val: []string{now.UTC().Format(http.TimeFormat)}}
	c.cur.Store(d)
	return d.val
}
