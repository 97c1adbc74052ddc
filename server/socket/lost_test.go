package socket

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"

	"parlour/server/refuse"
)

// TestLostConnectionIsNoError: a socket whose connection did not take a
// message (its client went away, and the reader closed it under the
// pusher) ends without a reason and logs nothing above debug, while any
// other failure is logged as the server's and said as a reason in a
// player's words.
func TestLostConnectionIsNoError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		err    error
		reason string
		logged bool
	}{
		{"a write to a closed connection", lost(fmt.Errorf("failed to write msg: %w", net.ErrClosed)), "", false},
		{"a refusal", refuse.Conflict("the table is gone"), "the table is gone", false},
		{"a fault", errors.New("replaying table t1: the store is gone"), refuse.Withheld, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var logged bytes.Buffer
			s := &socket{d: &Door{log: slog.New(slog.NewTextHandler(&logged, nil))}}
			if got := s.reason(c.err); got != c.reason {
				t.Errorf("reason = %q, want %q", got, c.reason)
			}
			if c.logged != strings.Contains(logged.String(), "level=ERROR") {
				t.Errorf("logged %q; want an error logged: %v", logged.String(), c.logged)
			}
		})
	}
	if lost(nil) != nil {
		t.Error("a write that went through is marked lost")
	}
}
