// The editors' helpers: what a setup editor, Word Fight's placement
// preview and the replay viewer ask of a game without a table, served
// under /api/v1/tools/. The answers are package games' (games/edit.go,
// games/replay.go); this file only reads the body, counts the asker and
// writes the answer or the refusal.

package httpapi

import (
	"context"
	"errors"
	"net/http"
	"runtime"

	"parlour/game"
	"parlour/games"
	"parlour/server/limit"
	"parlour/server/protocol"
	"parlour/server/refuse"
)

// ToolsPerAddr caps the helper requests one address makes per second,
// across every helper, with bursts of ToolsPerAddrBurst: an editor asks
// the referee a moment after each change, a few times a second while a
// player is busy, and a household or a classroom shares an address.
// FillsPerAddr and FillsPerAddrBurst cap the grids filled around a
// password besides (one each five seconds, five at once): the computer's
// grid maker may think for up to games.FillTimeout, and a player asks for
// a grid with a button, not as they type.
const (
	ToolsPerAddr      = 20
	ToolsPerAddrBurst = 100
	FillsPerAddr      = 1.0 / 5
	FillsPerAddrBurst = 5
)

// tools serves the helpers of one Handler.
type tools struct {
	h *Handler
	// help answers with the server's games and word lists.
	help games.Helpers
	// byAddr counts each address's helper requests, fills each
	// address's grids.
	byAddr, fills *limit.Keyed
	// makers holds a place for each grid being filled, so that the
	// grid makers together use no more than the machine's processors
	// and the rest of the server keeps its share.
	makers chan struct{}
}

// tool is one helper: its name (the last element of its path), the cap
// on its body, what a player reads when the body is over it, whether it
// fills a grid (and so counts against FillsPerAddr), and its answer.
type tool struct {
	name   string
	max    int64
	tooBig string // a format of the cap in KiB
	fills  bool
	answer func(ctx context.Context, body []byte) (any, error)
}

// mountTools registers the helpers on h's mux: POST /api/v1/tools/NAME,
// and POST /NAME, where the browser client asked for them before they
// joined the API (deprecated; kept for a release, so that a page loaded
// before an upgrade and older terminal clients keep working).
func (h *Handler) mountTools() {
	t := &tools{
		h: h, help: games.Helpers{Reg: h.games, House: h.tables.HouseLexicons()},
		byAddr: limit.NewKeyed(ToolsPerAddr, ToolsPerAddrBurst),
		fills:  limit.NewKeyed(FillsPerAddr, FillsPerAddrBurst),
		makers: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))),
	}
	for _, tl := range []tool{
		{"check-setup", games.MaxSetupRequest, "a setup to check is at most %d KiB", false,
			func(_ context.Context, b []byte) (any, error) { return t.help.CheckSetup(b) }},
		{"random-setup", games.MaxSetupRequest, "a request for a random setup is at most %d KiB", false,
			func(_ context.Context, b []byte) (any, error) { return t.help.RandomSetup(b) }},
		{"fill-setup", games.MaxSetupRequest, "a request to fill a grid is at most %d KiB", true, t.fill},
		{"preview", games.MaxPreviewRequest, "a placement preview is at most %d KiB", false,
			func(_ context.Context, b []byte) (any, error) { return t.help.Preview(b) }},
		{"replay", games.MaxReplayRecord, "the record is larger than %d KiB", false,
			func(_ context.Context, b []byte) (any, error) { return t.help.Replay(b) }},
	} {
		serve := func(w http.ResponseWriter, r *http.Request) { t.serve(w, r, tl) }
		h.mux.HandleFunc("POST /api/v1/tools/"+tl.name, serve)
		h.mux.HandleFunc("POST /"+tl.name, serve)
	}
}

// serve answers one helper request: 200 with the answer, 400 for a body
// that is not the helper's request at all (a preview or a record that
// cannot be read), 413 for one over the helper's cap, 422 for one the
// referee refuses, 429 when the address asks too often.
func (t *tools) serve(w http.ResponseWriter, r *http.Request, tl tool) {
	addr := t.h.clientAddr(r)
	if !t.byAddr.Allow(addr) || tl.fills && !t.fills.Allow(addr) {
		t.h.tables.RateLimited()
		t.h.fail(w, r, refuse.TooMany("too many requests to the editors' helpers from your address: slow down"))
		return
	}
	body, err := protocol.ReadBody(r.Body, tl.max)
	if err != nil {
		if refuse.Status(err) == http.StatusRequestEntityTooLarge {
			err = refuse.With(http.StatusRequestEntityTooLarge, tl.tooBig, tl.max>>10)
		}
		t.h.fail(w, r, err)
		return
	}
	ans, err := tl.answer(r.Context(), body)
	if err != nil {
		t.h.fail(w, r, toolRefusal(err))
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// toolRefusal gives a helper's refusal its status: 400 for a body that
// is not the helper's request at all, 422 for one the referee refuses.
// The helpers' errors are all in a player's words, so none is withheld
// as an internal error.
func toolRefusal(err error) error {
	if _, ok := errors.AsType[*refuse.Error](err); ok {
		return err
	}
	status := http.StatusUnprocessableEntity
	if errors.Is(err, games.ErrNotPreview) || errors.Is(err, game.ErrNotRecord) {
		status = http.StatusBadRequest
	}
	return &refuse.Error{Status: status, Msg: err.Error()}
}

// fill fills a grid once one of the makers' places is free, or gives up
// when the asker does.
func (t *tools) fill(ctx context.Context, b []byte) (any, error) {
	select {
	case t.makers <- struct{}{}:
		defer func() { <-t.makers }()
	case <-ctx.Done():
		return nil, refuse.Unavailable("the computer's grid makers are all busy: try again in a moment")
	}
	return t.help.FillSetup(ctx, b)
}
