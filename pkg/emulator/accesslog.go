package emulator

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// accessLog writes a line per request (Config.Log): the time it came, its
// method and path, the status answered and how long it took. The query
// is left out: a shared access signature's is a secret.
type accessLog struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// write logs a request that came at start and was answered status.
func (l *accessLog) write(r *http.Request, status int, start, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := start.UTC().AppendFormat(l.buf[:0], "2006-01-02T15:04:05.000Z ")
	b = append(append(append(b, r.Method...), ' '), escapedPath(r)...)
	b = append(strconv.AppendInt(append(b, ' '), int64(status), 10), ' ')
	b = append(strconv.AppendFloat(b, float64(now.Sub(start).Microseconds())/1000, 'f', 3, 64), "ms\n"...)
	l.buf = b
	l.w.Write(b)
}
