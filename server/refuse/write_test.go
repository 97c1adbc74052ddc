package refuse_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parlour/server/refuse"
)

// TestSaid: a refusal is said in its own words, wrapped or not, and
// nothing is logged; any other error is logged and said as Withheld, so
// that what it says of the server (an address, a path) stays in the log.
func TestSaid(t *testing.T) {
	t.Parallel()
	secret := errors.New("postgres: dial tcp 10.0.0.7:5432: connection refused")
	for _, c := range []struct {
		name   string
		err    error
		want   string
		logged bool
	}{
		{"a refusal", refuse.Conflict("it is not your turn"), "it is not your turn", false},
		{"a wrapped refusal", fmt.Errorf("moving: %w", refuse.Bad("no such square")), "moving: no such square", false},
		{"a store's failure", fmt.Errorf("reading table t1: %w", secret), refuse.Withheld, true},
		{"a 503", refuse.ReadFailed(slog.New(slog.DiscardHandler), "the table", secret), "the table could not be read just now; nothing changed, try again", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, nil))
			if got := refuse.Said(log, c.err); got != c.want {
				t.Errorf("Said = %q, want %q", got, c.want)
			}
			if c.logged != strings.Contains(logged.String(), c.err.Error()) {
				t.Errorf("logged %q; want the error logged: %v", logged.String(), c.logged)
			}
			// Write answers the same words, under the error's status.
			logged.Reset()
			w := httptest.NewRecorder()
			refuse.Write(w, httptest.NewRequest("GET", "/api/v1/x", nil), log, c.err)
			if w.Code != refuse.Status(c.err) || !strings.Contains(w.Body.String(), `"error":"`+c.want+`"`) || strings.Contains(w.Body.String(), "10.0.0.7") {
				t.Errorf("Write answered %d %s", w.Code, w.Body)
			}
			if c.logged && (!strings.Contains(logged.String(), "path=/api/v1/x") || w.Code != http.StatusInternalServerError) {
				t.Errorf("Write logged %q for a %d", logged.String(), w.Code)
			}
		})
	}
}

// TestClientGone: a request whose client hung up, so that what it waited
// for was cancelled, is no failure of the server's: nothing is logged
// above debug, and it is answered (to nobody) and counted as 499, not 500.
// A cancellation while the client is still there (the server's own
// doing) stays a failure, and a store's read given up then is a 503:
// nothing changed, try again.
func TestClientGone(t *testing.T) {
	t.Parallel()
	cancelled := func() *http.Request {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return httptest.NewRequest("GET", "/api/v1/x", nil).WithContext(ctx)
	}
	read := refuse.ReadFailed(slog.New(slog.DiscardHandler), "the table", fmt.Errorf("sqlite: reading table: %w", context.Canceled))
	for _, c := range []struct {
		name   string
		r      *http.Request
		err    error
		status int
		logged bool
	}{
		{"gone", cancelled(), context.Canceled, refuse.StatusClientGone, false},
		{"gone while reading", cancelled(), read, refuse.StatusClientGone, false},
		{"gone, and a refusal", cancelled(), refuse.Conflict("it is not your turn"), http.StatusConflict, false},
		{"gone, and a fault", cancelled(), errors.New("disk on fire"), http.StatusInternalServerError, true},
		{"cancelled, the client still there", httptest.NewRequest("GET", "/api/v1/x", nil), context.Canceled, http.StatusInternalServerError, true},
		{"a read given up, the client still there", httptest.NewRequest("GET", "/api/v1/x", nil), read, http.StatusServiceUnavailable, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, nil))
			w := httptest.NewRecorder()
			refuse.Write(w, c.r, log, c.err)
			if w.Code != c.status {
				t.Errorf("Write answered %d, want %d", w.Code, c.status)
			}
			if c.logged != strings.Contains(logged.String(), "level=ERROR") {
				t.Errorf("logged %q; want an error logged: %v", logged.String(), c.logged)
			}
		})
	}
	var logged bytes.Buffer
	if err := refuse.ReadFailed(slog.New(slog.NewTextHandler(&logged, nil)), "the table", context.Canceled); !errors.Is(err, context.Canceled) || logged.Len() > 0 ||
		refuse.Status(err) != http.StatusServiceUnavailable || refuse.Said(slog.New(slog.DiscardHandler), err) != "the table could not be read just now; nothing changed, try again" {
		t.Errorf("a read given up: %v (%d), logged %q; want the cancellation, said as a 503, nothing logged", err, refuse.Status(err), logged.String())
	}
	// Reading treats a read given up as ReadFailed does.
	err := error(fmt.Errorf("sqlite: %w", context.Canceled))
	refuse.Reading(slog.New(slog.NewTextHandler(&logged, nil)), "the table", &err)
	if !errors.Is(err, context.Canceled) || refuse.Status(err) != http.StatusServiceUnavailable || logged.Len() > 0 {
		t.Errorf("Reading a read given up: %v (%d), logged %q", err, refuse.Status(err), logged.String())
	}
}
