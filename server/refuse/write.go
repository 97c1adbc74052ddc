package refuse

import (
	"encoding/json"
	"log/slog"
	"net/http"
)

// Write answers err over HTTP as every door answers a refusal: a JSON
// object {"error": "..."} with err's status (Status), never cached. An
// error that is not a refusal is logged with log and its text withheld,
// since it may say more of the server than a player should read; a 401
// names the scheme that signs in.
func Write(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := Status(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		msg = "something went wrong on the server"
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
