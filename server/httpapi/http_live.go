package httpapi

import (
	"net/http"

	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/table"
)

// tv answers the featured game: the highest-rated game in play, or the
// most-watched when none is rated (table.Service.Feature); 404 when no
// public game is in play.
func (h *Handler) tv(r *http.Request, _ *auth.Principal) (table.Featured, error) {
	return h.tables.Feature(r.Context())
}

// Lexicons lists the word lists a table may check words against, and
// names the one a table takes when it names none.
type Lexicons struct {
	Lexicons []lexicon.About `json:"lexicons"`
	Default  string          `json:"default"`
}

// lexicons answers the word lists a table may take (its "lexicon"), for
// the forms that offer them.
func (h *Handler) lexicons(*http.Request, *auth.Principal) (Lexicons, error) {
	return Lexicons{Lexicons: h.tables.Lexicons(), Default: lexicon.DefaultName}, nil
}
