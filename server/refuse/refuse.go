// Package refuse says no in a player's words. A refusal carries the HTTP
// status that fits it and a message fit to show the person or program
// that asked; whoever returns one has changed nothing. Every door maps a
// refusal the same way (Status), so a move refused over the WebSocket
// and over HTTP reads the same.
package refuse

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a refusal: Status is the HTTP status that fits, Msg says what
// is wrong in a player's words.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// With returns a refusal with status and a message formatted as by
// fmt.Sprintf. The named constructors below cover the common statuses.
func With(status int, format string, args ...any) error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// Bad refuses a request that is malformed or asks for something the rules
// of the API forbid (400).
func Bad(format string, args ...any) error {
	return With(http.StatusBadRequest, format, args...)
}

// NotFound refuses a request for something that does not exist, or that
// the asker may not know exists (404).
func NotFound(format string, args ...any) error {
	return With(http.StatusNotFound, format, args...)
}

// Conflict refuses a request that the current state does not allow: not
// your turn, the table is full, a stale version (409).
func Conflict(format string, args ...any) error {
	return With(http.StatusConflict, format, args...)
}

// Forbidden refuses a known asker something that is not theirs to do
// (403).
func Forbidden(format string, args ...any) error {
	return With(http.StatusForbidden, format, args...)
}

// Unauthorized refuses an asker who is not signed in or whose credential
// is no good (401).
func Unauthorized(format string, args ...any) error {
	return With(http.StatusUnauthorized, format, args...)
}

// TooMany refuses an asker who went over a rate or a cap (429).
func TooMany(format string, args ...any) error {
	return With(http.StatusTooManyRequests, format, args...)
}

// Unavailable refuses for now what may work later: the store is down, the
// server is busy or shutting down (503).
func Unavailable(format string, args ...any) error {
	return With(http.StatusServiceUnavailable, format, args...)
}

// Gone refuses a request for something that existed and is over (410).
func Gone(format string, args ...any) error {
	return With(http.StatusGone, format, args...)
}

// Unprocessable refuses a well-formed request the game's rules reject: an
// illegal move or setup (422).
func Unprocessable(format string, args ...any) error {
	return With(http.StatusUnprocessableEntity, format, args...)
}

// Status returns the HTTP status for err: a refusal's own, 500 for any
// other error (a fault of the server's, not of the asker's).
func Status(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return http.StatusInternalServerError
}
