package client

import (
	"context"
	"net/http"
)

// Lexicon is a word list a table of a word game may check words against.
type Lexicon struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Words int    `json:"words"`
}

// Lexicons lists the server's word lists, and names the one a table
// takes when it names none.
func (c *Client) Lexicons(ctx context.Context) (lists []Lexicon, def string, err error) {
	var l lexiconList
	err = c.do(ctx, http.MethodGet, "/api/v1/lexicons", "", nil, &l)
	return l.Lexicons, l.Default, err
}
