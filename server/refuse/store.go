package refuse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"parlour/store"
)

// SaveFailed logs a write the store refused and answers it as 503: the
// request changed nothing (every request's writes are one transaction)
// and may be made again.
func SaveFailed(log *slog.Logger, what string, err error) error {
	log.Error("storing "+what, "err", err)
	if errors.Is(err, store.ErrNoSpace) {
		return Unavailable("%s could not be saved: the server has run out of room to store it; nothing changed, try again later", what)
	}
	return Unavailable("%s could not be saved; nothing changed, try again", what)
}

// ReadFailed logs a read the store failed (it is unreachable, say:
// PostgreSQL went away) and answers it as 503: nothing changed, and the
// request may be made again.
func ReadFailed(log *slog.Logger, what string, err error) error {
	refusal := Unavailable("%s could not be read just now; nothing changed, try again", what)
	if errors.Is(err, context.Canceled) {
		// The read was given up, most often because its client went
		// away (Write then answers nobody): the store did not fail.
		return gaveUp{refusal: refusal, cause: fmt.Errorf("reading %s: %w", what, err)}
	}
	log.Error("reading "+what, "err", err)
	return refusal
}

// gaveUp is a read given up: it says the refusal's words under its
// status, and is the cancellation too (errors.Is), for the door to tell
// a client that went away from one still there.
type gaveUp struct{ refusal, cause error }

func (g gaveUp) Error() string   { return g.refusal.Error() }
func (g gaveUp) Unwrap() []error { return []error{g.refusal, g.cause} }

// Reading turns *err, the failure of a read about what, into what a
// player should hear: a refusal stays as it is, a request its client gave
// up stays cancelled, and anything else (the store cannot be reached:
// PostgreSQL went away) becomes ReadFailed's 503, which the next request
// after the store is back no longer meets. Every read a player makes
// defers it, so that none answers 500 for a lost store.
func Reading(log *slog.Logger, what string, err *error) {
	var e *Error
	if *err == nil || errors.As(*err, &e) {
		return
	}
	*err = ReadFailed(log, what, *err)
}

// Clip shortens what a client sent, to quote it in a refusal.
func Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
