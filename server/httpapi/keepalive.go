package httpapi

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"parlour/server/refuse"
)

// quietLines writes an empty line to a stream whenever it has said
// nothing for a while, so that the client can tell a quiet stream from a
// connection that died without a word (which otherwise looks the same
// until TCP gives up, many minutes later), and proxies do not close it
// for idleness. The stream's own lines go through send, which keeps an
// empty line from landing inside one and puts the next a whole quiet
// period after it: a stream that talks sends no empty lines at all. Its
// timer runs only while the stream is quiet, one a stream.
type quietLines struct {
	mu    sync.Mutex
	w     http.ResponseWriter
	rc    *http.ResponseController
	every time.Duration
	timer *time.Timer // nil when off
	done  bool
}

// errStreamDone is send's answer once the stream has stopped.
var errStreamDone = errors.New("the stream has stopped")

// newQuietLines starts the empty lines on w every quiet period; every <=
// 0 sends none.
func newQuietLines(w http.ResponseWriter, rc *http.ResponseController, every time.Duration) *quietLines {
	q := &quietLines{w: w, rc: rc, every: every}
	if every > 0 {
		q.timer = time.AfterFunc(every, q.beat)
	}
	return q
}

// beat writes one empty line, then waits for the next quiet period; a
// failed write stops the lines (the stream's own next write fails too).
func (q *quietLines) beat() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.done {
		return
	}
	if _, err := q.w.Write([]byte("\n")); err != nil || q.rc.Flush() != nil {
		q.done = true
		return
	}
	q.timer.Reset(q.every)
}

// send runs write, which writes and flushes lines of the stream, with no
// empty line among them, and starts the quiet period again.
func (q *quietLines) send(write func() error) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.done {
		return errStreamDone
	}
	err := write()
	if q.timer != nil {
		q.timer.Reset(q.every)
	}
	return err
}

// stop ends the empty lines: the handler is about to return, after which
// the ResponseWriter must not be touched.
func (q *quietLines) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done = true
	if q.timer != nil {
		q.timer.Stop()
	}
}

// parseKeepAlive reads the keepalive parameter of a table's event
// stream: 1 (or true) asks for an empty line after each quiet period, 0
// (or false, or none) does not; no other spelling is taken, as the
// documentation says. Off by default, so that clients written before
// it, which take every line for an update, go on working.
func parseKeepAlive(r *http.Request) (bool, error) {
	switch s := r.URL.Query().Get("keepalive"); s {
	case "1", "true":
		return true, nil
	case "", "0", "false":
		return false, nil
	default:
		return false, refuse.Bad("keepalive must be 1 (send an empty line when the stream is quiet) or 0, not %q", refuse.Clip(s))
	}
}
