package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Me is the account a session signs in, as GET /api/v1/account answers
// it: its name, and whether it holds the moderator role.
type Me struct {
	Name      string `json:"name"`
	Moderator bool   `json:"moderator"`
}

// Me reads the account of token.
func (c *Client) Me(ctx context.Context, token string) (Me, error) {
	var m Me
	err := c.do(ctx, http.MethodGet, "/api/v1/account", token, nil, &m)
	return m, err
}

// QueuedReport is a report as the moderators' queue holds it: the player
// reported and who reported them (as they are called now), the reason
// (a key of ReportReasons) and the reporter's words, the table if any,
// "open" or "closed", and who closed it when. A report of a chat line
// names it by Seq, of Table's chat or of Tournament's, and Line is the
// line as stored (nil once the chat is gone): its writer, guest or
// account, is muted by it.
type QueuedReport struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Reporter   string     `json:"reporter"`
	Reason     string     `json:"reason"`
	Text       string     `json:"text"`
	Table      string     `json:"table,omitempty"`
	Tournament string     `json:"tournament,omitempty"`
	Seq        int        `json:"seq,omitempty"`
	Line       *ChatLine  `json:"line,omitempty"`
	Status     string     `json:"status"`
	Created    time.Time  `json:"created"`
	Closed     *time.Time `json:"closed,omitempty"`
	ClosedBy   string     `json:"closed_by,omitempty"`
}

// ModLine is one line of the moderators' log: who did what to whom, with
// the detail the server keeps (a mute's length, a rename's names) and
// the reason given.
type ModLine struct {
	Seq       int64     `json:"seq"`
	Moderator string    `json:"moderator"`
	Action    string    `json:"action"`
	Name      string    `json:"name"`
	Detail    string    `json:"detail,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	At        time.Time `json:"at"`
}

// Muted answers a chat mute: the player's name, and when the mute ends
// (nil: a mute lifted). Player says, of a mute by a chat line, whether
// its writer has an account ("account") or is a guest ("guest").
type Muted struct {
	Name   string     `json:"name"`
	Player string     `json:"player,omitempty"`
	Until  *time.Time `json:"until,omitempty"`
}

// Renamed answers a rename: the old name, the new one, and how many
// finished games' records now carry it.
type Renamed struct {
	Name    string `json:"name"`
	OldName string `json:"old_name"`
	Games   int    `json:"games"`
}

// Closed answers an account's closing: its name and the sessions ended.
type Closed struct {
	Name     string `json:"name"`
	Sessions int    `json:"sessions"`
	// Refunds is what a refund gave back, by player and pool (nil when
	// none was asked).
	Refunds []Refund `json:"refunds"`
}

// Reopened is what a reopening did: Password says the account's
// password came back with it (one closed before closings kept it comes
// back without one).
type Reopened struct {
	Name     string `json:"name"`
	Password bool   `json:"password"`
}

// Refund is the rating points a refund gave one player in one pool.
type Refund struct {
	Name   string  `json:"name"`
	Pool   string  `json:"pool"`
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// Reports reads the moderators' queue of reports, open ones first; the
// server refuses anyone but a moderator.
func (c *Client) Reports(ctx context.Context, token string) ([]QueuedReport, error) {
	var rs []QueuedReport
	err := c.do(ctx, http.MethodGet, "/api/v1/moderation/reports", token, nil, &rs)
	return rs, err
}

// ModLog reads the newest lines of the moderators' log, newest first.
func (c *Client) ModLog(ctx context.Context, token string) ([]ModLine, error) {
	var ls []ModLine
	err := c.do(ctx, http.MethodGet, "/api/v1/moderation/log", token, nil, &ls)
	return ls, err
}

// CloseReport closes open report id, with a reason for the log (may be
// empty).
func (c *Client) CloseReport(ctx context.Context, token, id, reason string) (QueuedReport, error) {
	var r QueuedReport
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/reports/"+url.PathEscape(id)+"/close", token, map[string]string{"reason": reason}, &r)
	return r, err
}

// MutePlayer keeps the player called name out of every chat for minutes (0
// lifts a mute), for reason.
func (c *Client) MutePlayer(ctx context.Context, token, name string, minutes int, reason string) (Muted, error) {
	var m Muted
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/mutes", token, map[string]any{"name": name, "minutes": minutes, "reason": reason}, &m)
	return m, err
}

// MuteLine keeps the writer of line seq of a chat out of every chat for
// minutes (0 lifts a mute), for reason: the chat of table, or of event
// tournament when table is "". A guest, whose name is nobody's own, is
// muted so.
func (c *Client) MuteLine(ctx context.Context, token, table, tournament string, seq, minutes int, reason string) (Muted, error) {
	body := map[string]any{"seq": seq, "minutes": minutes, "reason": reason}
	if table != "" {
		body["table"] = table
	} else {
		body["tournament"] = tournament
	}
	var m Muted
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/mutes", token, body, &m)
	return m, err
}

// Rename gives the account called name the name newName, for reason.
func (c *Client) Rename(ctx context.Context, token, name, newName, reason string) (Renamed, error) {
	var r Renamed
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/rename", token, map[string]string{"name": name, "new_name": newName, "reason": reason}, &r)
	return r, err
}

// CloseAccount closes the account called name, for reason: it can no
// longer sign in, and its sessions end. With refund, its opponents get
// back the rating points they lost to it lately (of an account closed
// before, that alone is done).
func (c *Client) CloseAccount(ctx context.Context, token, name, reason string, refund bool) (Closed, error) {
	var cl Closed
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/close", token, map[string]any{"name": name, "reason": reason, "refund": refund}, &cl)
	return cl, err
}

// ReopenAccount reopens the account called name, which a moderator
// closed, for reason.
func (c *Client) ReopenAccount(ctx context.Context, token, name, reason string) (Reopened, error) {
	var r Reopened
	err := c.do(ctx, http.MethodPost, "/api/v1/moderation/reopen", token, map[string]string{"name": name, "reason": reason}, &r)
	return r, err
}

// TableChat is a page of a reported table's chat as a moderator reads
// it: both channels, while the game is on too.
type TableChat struct {
	Chat []ChatLine `json:"chat"`
	Last int        `json:"last"`
}

// ReadTableChat reads the chat of table id, which a report names, after
// line since; the server logs the first page of each reading.
func (c *Client) ReadTableChat(ctx context.Context, token, id string, since int) (TableChat, error) {
	var page TableChat
	err := c.do(ctx, http.MethodGet, "/api/v1/moderation/tables/"+url.PathEscape(id)+"/chat?since="+strconv.Itoa(since), token, nil, &page)
	return page, err
}
