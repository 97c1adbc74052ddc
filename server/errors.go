package server

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a refusal the service explains to the person or program that
// asked: Status is the HTTP status that fits, Msg says what is wrong in a
// player's words. Nothing changed when an Error is returned.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

func refuse(status int, format string, args ...any) error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return refuse(http.StatusBadRequest, format, args...)
}

// StatusOf returns the HTTP status for err: an Error's own, 500 otherwise.
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return http.StatusInternalServerError
}
