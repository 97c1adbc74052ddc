package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Followed is a player an account follows, with what the account may see
// of them: whether they are online, and the games they play (a private
// table's id left out).
type Followed struct {
	Name    string    `json:"name"`
	Since   time.Time `json:"since"`
	Online  bool      `json:"online"`
	Playing []struct {
		ID   string `json:"id,omitempty"`
		Game string `json:"game"`
	} `json:"playing,omitempty"`
}

// Relation is a player an account follows or blocks, and since when.
type Relation struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
}

// FollowNews is the followed player of a followOnline or followPlaying
// line of the player stream.
type FollowNews struct {
	Name  string `json:"name"`
	Table *struct {
		ID   string `json:"id,omitempty"`
		Game string `json:"game"`
	} `json:"table,omitempty"`
}

// Follows lists whom the account follows.
func (c *Client) Follows(ctx context.Context, token string) ([]Followed, error) {
	var l followList
	err := c.do(ctx, http.MethodGet, "/api/v1/follows", token, nil, &l)
	return l.Follows, err
}

// Blocks lists whom the account blocks.
func (c *Client) Blocks(ctx context.Context, token string) ([]Relation, error) {
	var l blockList
	err := c.do(ctx, http.MethodGet, "/api/v1/blocks", token, nil, &l)
	return l.Blocks, err
}

// Follow follows, or with on false unfollows, the player called name.
func (c *Client) Follow(ctx context.Context, token, name string, on bool) error {
	if on {
		var f Relation
		return c.do(ctx, http.MethodPost, "/api/v1/follows", token, map[string]string{"name": name}, &f)
	}
	return c.do(ctx, http.MethodDelete, "/api/v1/follows/"+url.PathEscape(name), token, nil, nil)
}

// Block blocks, or with on false unblocks, the player called name.
func (c *Client) Block(ctx context.Context, token, name string, on bool) error {
	if on {
		var b Relation
		return c.do(ctx, http.MethodPost, "/api/v1/blocks", token, map[string]string{"name": name}, &b)
	}
	return c.do(ctx, http.MethodDelete, "/api/v1/blocks/"+url.PathEscape(name), token, nil, nil)
}

// ReportReasons are the reasons a report gives, as the server names
// them, with the words a player reads.
var ReportReasons = [...]struct{ Key, Words string }{
	{"cheating", "cheating"},
	{"chat", "abuse in chat"},
	{"name", "an offensive name"},
	{"other", "something else (say what)"},
}

// Report is a report made to the moderators.
type Report struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
	Status string `json:"status"`
}

// ReportLine reports the writer of line seq of a chat to the moderators,
// for reason, in the reporter's words text: the chat of table, or of
// event tournament when table is "". A guest, whose name is nobody's
// own, is reported so; name, when not "", must be the writer's.
func (c *Client) ReportLine(ctx context.Context, token, table, tournament string, seq int, name, reason, text string) (Report, error) {
	body := map[string]any{"seq": seq, "reason": reason}
	if table != "" {
		body["table"] = table
	} else {
		body["tournament"] = tournament
	}
	if name != "" {
		body["name"] = name
	}
	if text != "" {
		body["text"] = text
	}
	var r Report
	err := c.do(ctx, http.MethodPost, "/api/v1/reports", token, body, &r)
	return r, err
}

// Report reports the player called name to the moderators, for reason
// (a key of ReportReasons), in the reporter's words text, about table
// (its id, or "" for none).
func (c *Client) Report(ctx context.Context, token, name, reason, text, table string) (Report, error) {
	body := map[string]string{"name": name, "reason": reason}
	if text != "" {
		body["text"] = text
	}
	if table != "" {
		body["table"] = table
	}
	var r Report
	err := c.do(ctx, http.MethodPost, "/api/v1/reports", token, body, &r)
	return r, err
}
