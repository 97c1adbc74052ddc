package client

import (
	"context"
	"encoding/json"
	"net/http"
)

// Replay is every seat's view of a game, move by move, as the server
// re-referees its record (POST /api/v1/tools/replay). Start holds each
// seat's view before the first move; Refused, the referee's words when
// a move of the record is refused, the steps then ending before it.
type Replay struct {
	Game    string            `json:"game"`
	Title   string            `json:"title"`
	Players []string          `json:"players"`
	Start   []json.RawMessage `json:"start"`
	Steps   []ReplayStep      `json:"steps"`
	Result  Result            `json:"result"`
	Refused string            `json:"refused,omitempty"`
}

// ReplayStep is one move of a replay: who made it, the move, the events
// it caused (to every seat: To says who learnt each) and each seat's
// view after it.
type ReplayStep struct {
	By     string            `json:"by"`
	Seat   int               `json:"seat"`
	Move   string            `json:"move"`
	Events []Event           `json:"events"`
	Views  []json.RawMessage `json:"views"`
}

// Replay asks the server to re-referee a game record (RECORDS.md, every
// setup shown, as Record answers for a finished game) and answers every
// seat's view after every move.
func (c *Client) Replay(ctx context.Context, record json.RawMessage) (Replay, error) {
	var r Replay
	err := c.doUpTo(ctx, http.MethodPost, "/api/v1/tools/replay", "", record, &r, maxReplay)
	return r, err
}
