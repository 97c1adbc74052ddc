package client

import (
	"context"
	"net/http"
	"net/url"
)

// Rules answers the rules of game as the server words them for its rules
// page, in Markdown (GET /rules/GAME.md).
func (c *Client) Rules(ctx context.Context, game string) (string, error) {
	var text string
	err := c.do(ctx, http.MethodGet, "/rules/"+url.PathEscape(game)+".md", "", nil, &text)
	return text, err
}
