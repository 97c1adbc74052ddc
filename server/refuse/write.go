package refuse

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// Write answers err over HTTP as every door answers a refusal: a JSON
// object {"error": "..."} with err's status (Status), never cached. An
// error that is not a refusal is logged with log and its text withheld,
// since it may say more of the server than a player should read; a 401
// names the scheme that signs in.
func Write(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if ClientGone(r, err) {
		// Nobody reads the answer, and nothing went wrong on the server:
		// no error in the log, nor among the server's failures in its
		// metrics, for a page closed while it loaded.
		log.Debug("the client went away", "method", r.Method, "path", r.URL.Path)
		w.WriteHeader(StatusClientGone)
		return
	}
	status := Status(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		msg = Said(log.With("method", r.Method, "path", r.URL.Path), err)
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="parlour"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.Encode(map[string]string{"error": msg})
}

// StatusClientGone is the status a request is logged and counted under
// when its client went away before the answer (nginx's 499, "client
// closed request"): a 4xx, the client's doing, and never sent.
const StatusClientGone = 499

// ClientGone reports whether err is r's own cancellation: its client hung up
// (or the server is closing the connection), so the request stopped.
func ClientGone(r *http.Request, err error) bool {
	return r.Context().Err() != nil && errors.Is(err, context.Canceled)
}

// Withheld is what a player reads of an error that is not a refusal.
const Withheld = "something went wrong on the server"

// Said returns what a player may read of err: a refusal's own words. Any
// other error is a fault of the server's, whose text may say more of the
// server than a player should read (a store's address, a file's path), so
// it is logged with log and answered as Withheld. Every door says an
// error through it: an answer, a socket's error or close reason, the last
// line of a stream.
func Said(log *slog.Logger, err error) string {
	if Status(err) != http.StatusInternalServerError {
		return err.Error()
	}
	log.Error("internal error", "err", err)
	return Withheld
}
