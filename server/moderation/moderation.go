// Package moderation keeps players safe from one another: their reports
// of each other go to a queue; moderators, named on the server's machine
// only, work it (they mute a player's chat everywhere for a time, rename
// an offensive account, close an account), and every one of their
// actions is logged with who did it, when and why; and chat is filtered
// against a short list of slurs (chat.Filter). The tables ask it about
// each chat message through table.Config.ChatGate, so that the tables
// know nothing of moderators.
package moderation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"parlour/account"
	"parlour/game"
	"parlour/internal/text"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/players"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// The reasons a player may give for a report, as clients send them.
const (
	ReasonCheating = "cheating" // cheating at a game
	ReasonChat     = "chat"     // abuse in chat
	ReasonName     = "name"     // an offensive name
	ReasonOther    = "other"    // anything else, said in the text
)

// MaxReportText caps the reporter's own words, in characters.
const MaxReportText = 500

// MaxReason caps a moderator's reason for an action, in characters.
const MaxReason = 300

// MaxMuteMinutes caps a chat mute: 30 days.
const MaxMuteMinutes = 30 * 24 * 60

// The limits on reports: each identity may make ReportsPerHour an hour
// with bursts of ReportsBurst, each address ReportsPerAddrHour with
// bursts of ReportsPerAddrBurst (guests cost nothing, accounts little).
const (
	ReportsPerHour      = 10
	ReportsBurst        = 5
	ReportsPerAddrHour  = 30
	ReportsPerAddrBurst = 10
)

// queueSize caps the reports and log lines one page shows.
const queueSize = 200

// Operator is the name the log gives the operator, who acts on the
// server's machine (parlour admin) rather than as a player.
const Operator = "the operator"

// Config is what a Service is built from; every field but Logger and
// Filter is required.
type Config struct {
	Store   store.Store
	Tables  *table.Service
	Players *players.Service
	// Filter is the chat filter (nil: the shipped list).
	Filter *chat.Filter
	Logger *slog.Logger
	// Closed, when set, hears of each account closed, once it is, with
	// the name it had: its player plays no more, so the root takes it
	// out of every game still waiting to begin (its seeks, its tables
	// in the lobby, its challenges).
	Closed func(ctx context.Context, identity, name string)
	// Renamed, when set, hears of each account renamed, once the store
	// has it, with its new name: what the root keeps in memory under
	// the old one (the events' players) takes the new.
	Renamed func(ctx context.Context, identity, name string)
	// Refunded, when set, hears of each player a refund gave rating
	// points back to, once stored, pool by pool: the root tells them.
	Refunded func(identity string, r store.Refund)
}

// Service is the moderation of a server.
type Service struct {
	st       store.Store
	tables   *table.Service
	players  *players.Service
	filter   *chat.Filter
	log      *slog.Logger
	closed   func(ctx context.Context, identity, name string)
	renamed  func(ctx context.Context, identity, name string)
	refunded func(identity string, r store.Refund)
}

// New builds the moderation on cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Tables == nil || cfg.Players == nil {
		return nil, errors.New("moderation: config needs a Store, Tables and Players")
	}
	if cfg.Filter == nil {
		cfg.Filter = chat.ShippedFilter()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{st: cfg.Store, tables: cfg.Tables, players: cfg.Players, filter: cfg.Filter, log: cfg.Logger, closed: cfg.Closed, renamed: cfg.Renamed, refunded: cfg.Refunded}, nil
}

// moderation returns the store's moderation side, or a refusal when the
// store keeps none.
func (s *Service) moderation() (store.Moderation, error) {
	ms, ok := s.st.(store.Moderation)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no reports")
	}
	return ms, nil
}

// ChatGate is the tables' question about a message (table.Config's
// ChatGate): it refuses a writer a moderator muted, saying for how long,
// a writer whose account a moderator closed (its seats' tokens still act
// at its games under way, so that they can end, but its player is to
// write no more), and a message the filter catches.
func (s *Service) ChatGate(ctx context.Context, identity, text string) error {
	if err := s.filter.Check(text); err != nil {
		return err
	}
	ms, ok := s.st.(store.Moderation)
	if !ok {
		return nil
	}
	if ps, ok := s.st.(store.Players); ok {
		a, err := ps.AccountOf(ctx, identity)
		switch {
		case errors.Is(err, store.ErrNotFound): // a guest
		case err != nil:
			return refuse.ReadFailed(s.log, "your account", err)
		case a.Hash == players.ClosedHash:
			return refuse.Forbidden("a moderator closed your account: you may still end your games, but not write in chat")
		}
	}
	until, err := ms.ChatBan(ctx, identity)
	if err != nil {
		return refuse.ReadFailed(s.log, "your chat's standing", err)
	}
	if left := until.Sub(s.tables.Now()); left > 0 {
		// In whole minutes, rounded up, and the two largest units: "1
		// hour and 30 minutes", "6 days and 23 hours".
		minutes := time.Duration(math.Ceil(left.Minutes())) * time.Minute
		return refuse.Forbidden("a moderator muted your chat: you may write again in %s", game.Span(minutes))
	}
	return nil
}

// ReportRequest is the body of POST /api/v1/reports.
type ReportRequest struct {
	// Name is the player reported, Reason one of the Reason constants,
	// Text the reporter's own words (needed for "other"), Table the
	// table the report is about, if any, Tournament the event whose chat
	// line it is about, if any, and Seq the line of Table's chat or of
	// Tournament's it is about, if any. A line names its writer, guest
	// or account, so a report of a line needs no Name (one given must
	// be the writer's): a guest's name is nobody's own, and only a line
	// says which guest.
	Name       string `json:"name"`
	Reason     string `json:"reason"`
	Text       string `json:"text,omitempty"`
	Table      string `json:"table,omitempty"`
	Tournament string `json:"tournament,omitempty"`
	Seq        int    `json:"seq,omitempty"`
}

// DecodeReport decodes a report's body strictly and checks it: a name
// or a chat line (a table or an event, and a seq), a reason of the
// four, text within MaxReportText (some, for "other"), and ids of the
// right shape. It returns the request as kept.
func DecodeReport(b []byte) (ReportRequest, error) {
	var req ReportRequest
	if err := protocol.DecodeBytes(b, &req); err != nil {
		return ReportRequest{}, err
	}
	return req, req.check()
}

// check checks r and keeps its text in the form to store.
func (r *ReportRequest) check() error {
	r.Name = strings.TrimSpace(r.Name)
	switch {
	case r.Seq < 0:
		return refuse.Bad("say which chat line: seq is the line's number, from 1")
	case r.Table != "" && r.Tournament != "":
		return refuse.Bad("a chat line is a table's or an event's: give table or tournament, not both")
	case r.Seq > 0 && r.Table == "" && r.Tournament == "":
		return refuse.Bad("say whose chat line %d is: give the table it was written at, or the tournament", r.Seq)
	case r.Tournament != "" && r.Seq == 0:
		return refuse.Bad("say which line of the event's chat: seq is the line's number, from 1")
	case r.Name == "" && r.Seq == 0:
		return refuse.Bad("name the player you report, or the chat line they wrote (table or tournament, and seq)")
	}
	switch r.Reason {
	case ReasonCheating, ReasonChat, ReasonName, ReasonOther:
	case "":
		return refuse.Bad(`give a reason: "cheating", "chat" (abuse in chat), "name" (an offensive name) or "other"`)
	default:
		return refuse.Bad(`the reason must be "cheating", "chat" (abuse in chat), "name" (an offensive name) or "other", not %q`, refuse.Clip(r.Reason))
	}
	t, err := text.Check(r.Text, text.Rules{Noun: "report", Max: MaxReportText, Collapse: true})
	if err != nil {
		return refuse.Bad("%v", err)
	}
	r.Text = t
	if r.Reason == ReasonOther && r.Text == "" {
		return refuse.Bad(`a report for "other" needs a few words saying what happened`)
	}
	if r.Table != "" && !auth.ValidID(r.Table) {
		return refuse.Bad("%q is not a table's id", refuse.Clip(r.Table))
	}
	if r.Tournament != "" && !auth.ValidID(r.Tournament) {
		return refuse.Bad("%q is not an event's id", refuse.Clip(r.Tournament))
	}
	return nil
}

// Report is a report as the moderators see it (and its reporter, once).
type Report struct {
	ID string `json:"id"`
	// Name is the player reported and Reporter who reported them, as
	// they are called now.
	Name     string `json:"name"`
	Reporter string `json:"reporter"`
	Reason   string `json:"reason"`
	Text     string `json:"text"`
	Table    string `json:"table,omitempty"`
	// Tournament is the event whose chat line the report is about, if
	// any.
	Tournament string `json:"tournament,omitempty"`
	// Seq is the number of the line of Table's chat, or of
	// Tournament's, the report is about, and Line that line as stored
	// (missing once the chat is gone): a moderator mutes its writer by
	// table or tournament, and seq.
	Seq      int        `json:"seq,omitempty"`
	Line     *chat.Line `json:"line,omitempty"`
	Status   string     `json:"status"`
	Created  time.Time  `json:"created"`
	Closed   *time.Time `json:"closed,omitempty"`
	ClosedBy string     `json:"closed_by,omitempty"`
}

// accountOf returns p's account, refusing nobody and guests: reports and
// moderation are for players with accounts.
func (s *Service) accountOf(ctx context.Context, p *auth.Principal, what string) (store.Account, store.Players, error) {
	ps, err := s.tables.Players()
	if err != nil {
		return store.Account{}, nil, err
	}
	if p == nil {
		return store.Account{}, nil, refuse.Unauthorized("sign in to %s", what)
	}
	a, err := ps.AccountOf(ctx, p.Identity)
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, nil, refuse.Unauthorized("only players with an account may %s: sign up or sign in first", what)
	}
	if err != nil {
		return store.Account{}, nil, refuse.ReadFailed(s.log, "your account", err)
	}
	return a, ps, nil
}

// Report stores p's report of another player in the moderation queue.
// The same reporter may report a player about a table once, and only
// about a table where they could have seen the player (sitting there, or
// writing a line of its chat the reporter may read).
func (s *Service) Report(ctx context.Context, p *auth.Principal, req ReportRequest) (Report, error) {
	if err := req.check(); err != nil {
		return Report{}, err
	}
	ms, err := s.moderation()
	if err != nil {
		return Report{}, err
	}
	me, _, err := s.accountOf(ctx, p, "report a player")
	if err != nil {
		return Report{}, err
	}
	if req.Table != "" {
		if _, err := s.st.Table(ctx, req.Table); errors.Is(err, store.ErrNotFound) {
			return Report{}, refuse.NotFound("there is no table %s", req.Table)
		} else if err != nil {
			return Report{}, refuse.ReadFailed(s.log, "the table", err)
		}
	}
	var them store.Account
	var line *chat.Line
	switch {
	case req.Tournament != "":
		them, line, err = s.reportedRoomLine(ctx, me, req)
	case req.Seq > 0:
		them, line, err = s.reportedLine(ctx, p, me, req)
	default:
		them, _, err = s.players.AccountNamed(ctx, req.Name)
	}
	if err != nil {
		return Report{}, err
	}
	if them.Identity == me.Identity {
		return Report{}, refuse.Bad("you cannot report yourself")
	}
	if req.Table != "" && req.Seq == 0 {
		// A line's report names a line its reporter may read
		// (reportedLine); a player's must name a table where the
		// reporter could have seen them: it opens the table's chat to
		// the moderators.
		saw, err := s.tables.Witnessed(ctx, p, req.Table, them.Identity)
		if err != nil {
			return Report{}, err
		}
		if !saw {
			return Report{}, refuse.Bad("%s neither sat at table %s nor wrote in its chat where you could read it: name the table where it happened, or report them without one", them.Name, req.Table)
		}
	}
	r := store.Report{ID: auth.NewID(), Reporter: me.Identity, Subject: them.Identity, Reason: req.Reason, Text: req.Text,
		Table: req.Table, Tournament: req.Tournament, Seq: int64(req.Seq), Status: store.ReportOpen, Created: s.tables.Now().UTC()}
	if err := ms.CreateReport(ctx, r); err != nil {
		if errors.Is(err, store.ErrReportDuplicate) {
			if req.Tournament != "" {
				return Report{}, refuse.Conflict("you already reported %s about event %s: the moderators have it", them.Name, req.Tournament)
			}
			if req.Table != "" {
				return Report{}, refuse.Conflict("you already reported %s about table %s: the moderators have it", them.Name, req.Table)
			}
			return Report{}, refuse.Conflict("you already reported %s: the moderators have it", them.Name)
		}
		return Report{}, refuse.SaveFailed(s.log, "your report", err)
	}
	s.log.Info("player reported", "report", r.ID, "reason", r.Reason)
	out := reportOf(r, map[string]string{me.Identity: me.Name, them.Identity: them.Name})
	out.Line = line
	return out, nil
}

// ReadingLogged is how long a moderator's logged reading of a table's
// chat covers their next pages of it: a reading goes in the moderators'
// log unless the same moderator's last logged reading of the same table
// is younger. Paging through a long chat, or reading it again to see
// what came since, then writes one line, not one a page; and no page is
// read unlogged, wherever it starts, for longer than this.
const ReadingLogged = 10 * time.Minute

// TableChat returns the lines of table id's chat after since, both
// channels, for moderator p, while its game is on as after: a report of
// abuse in a game's players' chat is acted on while it goes on, though
// nobody else but its players reads that chat before the end. Only a
// table a report names may be read, and each reading goes in the
// moderators' log (one line for the pages a moderator reads of a table
// within ReadingLogged): a moderator reads a private conversation only
// for a reason, and the others see it. Chat holds no secret of the
// game's.
func (s *Service) TableChat(ctx context.Context, p *auth.Principal, id string, since int) (_ table.ChatPage, err error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return table.ChatPage{}, err
	}
	if since < 0 {
		return table.ChatPage{}, refuse.Bad("since must be 0 or more, not %d", since)
	}
	ms, _ := s.moderation()
	rs, err := ms.Reports(ctx, queueSize)
	if err != nil {
		return table.ChatPage{}, refuse.ReadFailed(s.log, "the reports", err)
	}
	var subject string
	for _, r := range rs {
		// A report about the moderator is the others' (Queue): it
		// opens the table to them, and tells this one nothing.
		if r.Table == id && r.Subject != mod.Identity {
			subject = r.Subject
			break
		}
	}
	if subject == "" {
		return table.ChatPage{}, refuse.NotFound("no report names table %s: a moderator reads the chat of a reported table only", refuse.Clip(id))
	}
	page, err := s.tables.EveryChannel(ctx, id, since, table.MaxChatPage)
	if err != nil {
		return table.ChatPage{}, err
	}
	detail := "table " + id
	logged, err := s.readLately(ctx, ms, mod.Identity, detail)
	if err != nil {
		return table.ChatPage{}, refuse.ReadFailed(s.log, "the moderators' log", err)
	}
	if !logged {
		them := store.Account{Identity: subject}
		if ns, err := names(ctx, s.st, []string{subject}); err == nil {
			them.Name = ns[subject]
		}
		if err := ms.LogAction(ctx, s.action(mod, "read-chat", them, detail, "")); err != nil {
			return table.ChatPage{}, refuse.SaveFailed(s.log, "the moderators' log", err)
		}
	}
	return page, nil
}

// readLately reports whether the moderators' log holds a reading of
// moderator's of the chat detail names younger than ReadingLogged. It
// looks among the log's newest lines only: a reading pushed out of them
// by many others is logged again, which errs on the side of the log.
func (s *Service) readLately(ctx context.Context, ms store.Moderation, moderator, detail string) (bool, error) {
	as, err := ms.ModLog(ctx, queueSize)
	if err != nil {
		return false, err
	}
	since := s.tables.Now().Add(-ReadingLogged)
	for _, a := range as {
		if a.Action == "read-chat" && a.Moderator == moderator && a.Detail == detail && a.At.After(since) {
			return true, nil
		}
	}
	return false, nil
}

// reportedLine returns the writer of the chat line req names, guest or
// account, and the line, for reporter p (whose account is me). The line
// must be one p may read: a spectator cannot learn, by reporting, who
// wrote in the players' chat of a game under way. A name given with the
// line must be its writer's.
func (s *Service) reportedLine(ctx context.Context, p *auth.Principal, me store.Account, req ReportRequest) (store.Account, *chat.Line, error) {
	line, err := s.tables.ChatLine(ctx, p, req.Table, req.Seq)
	if err != nil {
		return store.Account{}, nil, err
	}
	w, m, err := s.tableLine(ctx, req.Table, req.Seq)
	if err != nil {
		return store.Account{}, nil, err
	}
	switch {
	case w.Identity == "":
		return store.Account{}, nil, refuse.Bad("%s was written by the server, not a player: there is nobody to report", w.line)
	case w.player == chat.WriterDeleted:
		return store.Account{}, nil, gone(w.line)
	case w.Identity == me.Identity:
		return store.Account{}, nil, refuse.Bad("you wrote %s yourself: you cannot report yourself", w.line)
	case req.Name != "" && !strings.EqualFold(req.Name, m.Name):
		return store.Account{}, nil, refuse.Bad("%s was written by %s, not %s: report the line alone, or name its writer", w.line, m.Name, refuse.Clip(req.Name))
	}
	return w.Account, &line, nil
}

// reportedRoomLine returns the writer of the line of an event's chat req
// names, guest or account, and the line, for reporter me. Anybody may
// read an event's chat, so any line it holds is one the reporter may
// read; a name given with the line must be its writer's.
func (s *Service) reportedRoomLine(ctx context.Context, me store.Account, req ReportRequest) (store.Account, *chat.Line, error) {
	l, err := s.roomLine(ctx, req.Tournament, req.Seq)
	if err != nil {
		return store.Account{}, nil, err
	}
	where := fmt.Sprintf("line %d of event %s", req.Seq, req.Tournament)
	switch {
	case l.Identity == "":
		return store.Account{}, nil, refuse.Bad("%s was written by the server, not a player: there is nobody to report", where)
	case chat.Kind(l.Account, l.Name) == chat.WriterDeleted:
		return store.Account{}, nil, gone(where)
	case l.Identity == me.Identity:
		return store.Account{}, nil, refuse.Bad("you wrote %s yourself: you cannot report yourself", where)
	case req.Name != "" && !strings.EqualFold(req.Name, l.Name):
		return store.Account{}, nil, refuse.Bad("%s was written by %s, not %s: report the line alone, or name its writer", where, l.Name, refuse.Clip(req.Name))
	}
	return store.Account{Identity: l.Identity, Name: l.Name}, roomLineOf(l), nil
}

// roomLine returns line seq of event id's chat, refusing an event that
// is not there and a line its chat does not hold.
func (s *Service) roomLine(ctx context.Context, id string, seq int) (store.RoomLine, error) {
	ts, ok := s.st.(store.Tournaments)
	if _, ok2 := s.st.(store.ChatRooms); !ok || !ok2 {
		return store.RoomLine{}, refuse.With(http.StatusNotImplemented, "this server keeps no chat for events")
	}
	if _, err := ts.Tournament(ctx, id); errors.Is(err, store.ErrNotFound) {
		return store.RoomLine{}, refuse.NotFound("there is no event %s", id)
	} else if err != nil {
		return store.RoomLine{}, refuse.ReadFailed(s.log, "the event", err)
	}
	l, ok, err := storedRoomLine(ctx, s.st, id, seq)
	switch {
	case err != nil:
		return store.RoomLine{}, refuse.ReadFailed(s.log, "the chat", err)
	case !ok:
		return store.RoomLine{}, refuse.NotFound("event %s's chat has no line %d that you can read", id, seq)
	}
	return l, nil
}

// storedRoomLine reads line seq of event id's chat from st; ok is false
// when the store has no such line, or keeps no rooms.
func storedRoomLine(ctx context.Context, st store.Store, id string, seq int) (l store.RoomLine, ok bool, err error) {
	rooms, ok := st.(store.ChatRooms)
	if !ok {
		return l, false, nil
	}
	ls, err := rooms.RoomChatSince(ctx, "tournament:"+id, seq-1, 1)
	if err != nil {
		return l, false, fmt.Errorf("reading line %d of event %s: %w", seq, id, err)
	}
	if len(ls) == 0 || ls[0].Seq != seq {
		return l, false, nil
	}
	return ls[0], true, nil
}

// roomLineOf returns an event's chat line as a report shows it: a line
// of no channel and no seat.
func roomLineOf(l store.RoomLine) *chat.Line {
	player := chat.Kind(l.Account, l.Name)
	if l.Identity == "" {
		player = ""
	}
	return &chat.Line{Seq: l.Seq, Name: l.Name, Player: player, Text: l.Text, At: l.At}
}

// reportOf returns r as sent, with the names in names.
func reportOf(r store.Report, names map[string]string) Report {
	out := Report{ID: r.ID, Name: names[r.Subject], Reporter: names[r.Reporter], Reason: r.Reason, Text: r.Text, Table: r.Table, Tournament: r.Tournament, Seq: int(r.Seq),
		Status: string(r.Status), Created: r.Created, ClosedBy: names[r.ClosedBy]}
	if !r.Closed.IsZero() {
		c := r.Closed
		out.Closed = &c
	}
	return out
}

// Moderator returns the account of p when p is a moderator, and
// otherwise refuses: nobody and guests with 401, other players with 403.
// The role is read from the store each time, so that a revoked role ends
// at once.
func (s *Service) Moderator(ctx context.Context, p *auth.Principal) (store.Account, error) {
	ms, err := s.moderation()
	if err != nil {
		return store.Account{}, err
	}
	a, _, err := s.accountOf(ctx, p, "moderate")
	if err != nil {
		return store.Account{}, err
	}
	on, err := ms.IsModerator(ctx, a.Identity)
	if err != nil {
		return store.Account{}, refuse.ReadFailed(s.log, "your role", err)
	}
	if !on {
		return store.Account{}, refuse.Forbidden("only moderators may do this")
	}
	return a, nil
}

// IsModerator reports whether identity holds the moderator role (false
// on a store that keeps no roles).
func (s *Service) IsModerator(ctx context.Context, identity string) (bool, error) {
	ms, ok := s.st.(store.Moderation)
	if !ok {
		return false, nil
	}
	return ms.IsModerator(ctx, identity)
}

// names returns the names of ids: an account's, or the identity's for
// one that has none (a deleted account).
func names(ctx context.Context, st store.Store, ids []string) (map[string]string, error) {
	out := map[string]string{}
	ps, ok := st.(store.Players)
	if !ok {
		return out, nil
	}
	var ask []string
	for _, id := range ids {
		if id != "" && out[id] == "" {
			out[id] = "?"
			ask = append(ask, id)
		}
	}
	got, err := ps.AccountNames(ctx, ask)
	if err != nil {
		return nil, err
	}
	for _, id := range ask {
		if n, ok := got[id]; ok {
			out[id] = n
		} else if i, err := st.Identity(ctx, id); err == nil {
			out[id] = i.Name
		}
	}
	return out, nil
}

// Queue returns the reports for moderator p: open ones first, oldest
// first, then the latest closed ones. The reports about p are left out:
// they are the other moderators', as a player reported is not told who
// reported them, nor that anyone did.
func (s *Service) Queue(ctx context.Context, p *auth.Principal) (_ []Report, err error) {
	defer refuse.Reading(s.log, "the reports", &err)
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return nil, err
	}
	return queue(ctx, s.st, queueSize, mod.Identity)
}

// Queue returns up to limit reports of st's queue, open ones first, for
// the operator: all of them.
func Queue(ctx context.Context, st store.Store, limit int) ([]Report, error) {
	return queue(ctx, st, limit, "")
}

// queue is Queue without the reports about identity ("" leaves none
// out).
func queue(ctx context.Context, st store.Store, limit int, identity string) ([]Report, error) {
	ms, ok := st.(store.Moderation)
	if !ok {
		return nil, errors.New("the store keeps no reports")
	}
	rs, err := ms.Reports(ctx, limit)
	if err != nil {
		return nil, err
	}
	if identity != "" {
		rs = slices.DeleteFunc(rs, func(r store.Report) bool { return r.Subject == identity })
	}
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.Reporter, r.Subject, r.ClosedBy)
	}
	ns, err := names(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Report, len(rs))
	for i, r := range rs {
		out[i] = reportOf(r, ns)
		if r.Seq > 0 {
			if out[i].Line, err = reportedLineOf(ctx, st, r); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// reportedLineOf returns the chat line report r is about as stored, or
// nil when the store no longer has it.
func reportedLineOf(ctx context.Context, st store.Store, r store.Report) (*chat.Line, error) {
	if r.Tournament != "" {
		l, ok, err := storedRoomLine(ctx, st, r.Tournament, int(r.Seq))
		if err != nil || !ok {
			return nil, err
		}
		return roomLineOf(l), nil
	}
	m, kind, ok, err := storedLine(ctx, st, r.Table, int(r.Seq))
	if err != nil || !ok {
		return nil, err
	}
	return &chat.Line{Seq: m.Seq, Channel: m.Channel, Seat: m.Seat, Name: m.Name, Player: kind, Text: m.Text, At: m.At}, nil
}

// storedLine reads line seq of table id's chat from st, and the kind of
// its writer (chat.Players; "" for a line the server wrote); ok is false
// when the store has no such line.
func storedLine(ctx context.Context, st store.Store, id string, seq int) (m store.ChatMessage, kind string, ok bool, err error) {
	ms, err := st.Chat(ctx, id, seq-1, 1)
	if err != nil {
		return m, "", false, fmt.Errorf("reading line %d of table %s: %w", seq, id, err)
	}
	if len(ms) == 0 || ms[0].Seq != seq {
		return m, "", false, nil
	}
	m = ms[0]
	if m.Identity == "" {
		return m, "", true, nil
	}
	kinds, err := chat.Players(ctx, st, ms)
	if err != nil {
		return m, "", false, fmt.Errorf("reading the writer of line %d of table %s: %w", seq, id, err)
	}
	return m, kinds[m.Identity], true, nil
}

// ReasonRequest is the body of the moderators' actions that need only a
// reason (closing a report; the reason may be empty there).
type ReasonRequest struct {
	Reason string `json:"reason,omitempty"`
}

// checkReason returns a moderator's reason as kept, refusing one that
// is too long, holds what text.Check refuses, or is missing when needed.
func checkReason(reason string, needed bool) (string, error) {
	r, err := text.Check(reason, text.Rules{Noun: "reason", Max: MaxReason, Collapse: true})
	if err != nil {
		return "", refuse.Bad("%v", err)
	}
	if needed && r == "" {
		return "", refuse.Bad("give a reason: it goes in the moderators' log")
	}
	return r, nil
}

// action returns a log line of moderator a acting on subject.
func (s *Service) action(a store.Account, act string, subject store.Account, detail, reason string) store.ModAction {
	return store.ModAction{Moderator: a.Identity, ModeratorName: a.Name, Action: act, Subject: subject.Identity, SubjectName: subject.Name,
		Detail: detail, Reason: reason, At: s.tables.Now().UTC()}
}

// notSelf refuses moderator mod an action on identity when it is their
// own: a moderator reported, muted, renamed or closed is another
// moderator's to judge, who sees the reports about them and answers for
// it in the log; what would undo it, as lifting a mute, is theirs too.
// what says what the other moderator must do.
func notSelf(mod store.Account, identity, what string) error {
	if identity == mod.Identity {
		return refuse.Forbidden("another moderator must %s", what)
	}
	return nil
}

// CloseReport closes open report id for moderator p.
func (s *Service) CloseReport(ctx context.Context, p *auth.Principal, id string, req ReasonRequest) (Report, error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return Report{}, err
	}
	reason, err := checkReason(req.Reason, false)
	if err != nil {
		return Report{}, err
	}
	ms, _ := s.moderation()
	r, err := ms.Report(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Report{}, refuse.NotFound("there is no report %s", refuse.Clip(id))
	}
	if err != nil {
		return Report{}, refuse.ReadFailed(s.log, "the report", err)
	}
	if err := notSelf(mod, r.Subject, "close a report about you"); err != nil {
		return Report{}, err
	}
	ns, err := names(ctx, s.st, []string{r.Subject, r.Reporter})
	if err != nil {
		return Report{}, refuse.ReadFailed(s.log, "the report", err)
	}
	subject := store.Account{Identity: r.Subject, Name: ns[r.Subject]}
	a := s.action(mod, "close-report", subject, "report "+r.ID+" ("+r.Reason+")", reason)
	if err := ms.CloseReport(ctx, id, a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return Report{}, refuse.Conflict("report %s is already closed", id)
		}
		return Report{}, refuse.SaveFailed(s.log, "closing the report", err)
	}
	r.Status, r.Closed, r.ClosedBy = store.ReportClosed, a.At, mod.Identity
	ns[mod.Identity] = mod.Name
	return reportOf(r, ns), nil
}

// MuteRequest is the body of POST /api/v1/moderation/mutes: keep a
// player out of every chat for Minutes (0 lifts a mute). The player is
// the account called Name, or the writer of a chat line: line Seq of
// Table's chat or of Tournament's. A line is how a moderator names a
// guest, whose name is no one's own.
type MuteRequest struct {
	Name       string `json:"name,omitempty"`
	Table      string `json:"table,omitempty"`
	Tournament string `json:"tournament,omitempty"`
	Seq        int    `json:"seq,omitempty"`
	Minutes    int    `json:"minutes"`
	Reason     string `json:"reason"`
}

// Mute is a chat mute as answered. Player says whether the one muted
// has an account ("account") or is a guest ("guest"), for a mute that
// named a line (a deleted account's line names nobody to mute).
type Mute struct {
	Name   string     `json:"name"`
	Player string     `json:"player,omitempty"`
	Until  *time.Time `json:"until,omitempty"`
}

// writer is whom a mute is for: an identity, its name as the request
// found it, and what the log's line adds to say which line it was.
type writer struct {
	store.Account
	player string
	line   string
}

// checkTarget refuses a request that names neither a player nor a line,
// or both, or a line half-named.
func (r MuteRequest) checkTarget() error {
	line := r.Table != "" || r.Tournament != "" || r.Seq != 0
	switch {
	case strings.TrimSpace(r.Name) != "" && line:
		return refuse.Bad("name the player to mute, or the chat line they wrote (table or tournament, and seq), not both")
	case !line && strings.TrimSpace(r.Name) == "":
		return refuse.Bad("say whom to mute: the player's name, or the chat line they wrote (table or tournament, and seq)")
	case !line:
		return nil
	case r.Table != "" && r.Tournament != "":
		return refuse.Bad("a chat line is a table's or an event's: give table or tournament, not both")
	case r.Table == "" && r.Tournament == "":
		return refuse.Bad("say whose chat line %d is: give the table or the tournament it was written in", r.Seq)
	case r.Table != "" && !auth.ValidID(r.Table):
		return refuse.Bad("%q is not a table's id", refuse.Clip(r.Table))
	case r.Tournament != "" && !auth.ValidID(r.Tournament):
		return refuse.Bad("%q is not an event's id", refuse.Clip(r.Tournament))
	case r.Seq < 1:
		return refuse.Bad("say which chat line: seq is the line's number, from 1")
	}
	return nil
}

// writerOf returns whom req names: the account called req.Name, or the
// writer of the chat line req names, guest or account, as the line names
// them.
func (s *Service) writerOf(ctx context.Context, req MuteRequest) (writer, error) {
	if req.Table == "" && req.Tournament == "" {
		them, _, err := s.players.AccountNamed(ctx, req.Name)
		return writer{Account: them}, err
	}
	var identity, name, where, player string
	if req.Table != "" {
		if _, err := s.st.Table(ctx, req.Table); errors.Is(err, store.ErrNotFound) {
			return writer{}, refuse.NotFound("there is no table %s", req.Table)
		} else if err != nil {
			return writer{}, refuse.ReadFailed(s.log, "the table", err)
		}
		w, _, err := s.tableLine(ctx, req.Table, req.Seq)
		if err != nil {
			return writer{}, err
		}
		identity, name, player, where = w.Identity, w.Name, w.player, w.line
	} else {
		where = fmt.Sprintf("line %d of event %s", req.Seq, req.Tournament)
		l, err := s.roomLine(ctx, req.Tournament, req.Seq)
		if err != nil {
			return writer{}, err
		}
		identity, name, player = l.Identity, l.Name, chat.Kind(l.Account, l.Name)
	}
	switch {
	case identity == "":
		return writer{}, refuse.Bad("%s was written by the server, not a player: there is nobody to mute", where)
	case player == chat.WriterDeleted:
		return writer{}, gone(where)
	}
	return writer{Account: store.Account{Identity: identity, Name: name}, player: player, line: where}, nil
}

// gone refuses an action on the writer of a line (where says which)
// whose account was deleted since: nobody answers for it any more, and
// its identity can never write again, so a mute or a report of it
// would be about no player.
func gone(where string) error {
	return refuse.NotFound("there is no such player: the writer of %s deleted their account", where)
}

// tableLine returns the writer of line seq of table id's chat as the
// store keeps it (an empty identity for a line the server wrote), and
// the line.
func (s *Service) tableLine(ctx context.Context, id string, seq int) (writer, store.ChatMessage, error) {
	m, kind, ok, err := storedLine(ctx, s.st, id, seq)
	switch {
	case err != nil:
		return writer{}, store.ChatMessage{}, refuse.ReadFailed(s.log, "the chat", err)
	case !ok:
		return writer{}, store.ChatMessage{}, refuse.NotFound("table %s's chat has no line %d", id, seq)
	}
	if kind == "" && m.Identity != "" {
		kind = chat.WriterGuest // a store that keeps no accounts
	}
	return writer{Account: store.Account{Identity: m.Identity, Name: m.Name}, player: kind, line: fmt.Sprintf("line %d of table %s", seq, id)}, m, nil
}

// Mute keeps a player out of every chat (the tables' and the events')
// for a time, for moderator p.
func (s *Service) Mute(ctx context.Context, p *auth.Principal, req MuteRequest) (Mute, error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return Mute{}, err
	}
	if req.Minutes < 0 || req.Minutes > MaxMuteMinutes {
		return Mute{}, refuse.Bad("a mute lasts from 1 to %d minutes (30 days), or 0 to lift one, not %d", MaxMuteMinutes, req.Minutes)
	}
	reason, err := checkReason(req.Reason, true)
	if err != nil {
		return Mute{}, err
	}
	if err := req.checkTarget(); err != nil {
		return Mute{}, err
	}
	them, err := s.writerOf(ctx, req)
	if err != nil {
		return Mute{}, err
	}
	if err := notSelf(mod, them.Identity, "mute you or lift your mute"); err != nil {
		return Mute{}, err
	}
	ms, _ := s.moderation()
	var until time.Time
	detail := "lifted"
	if req.Minutes > 0 {
		until = s.tables.Now().UTC().Add(time.Duration(req.Minutes) * time.Minute)
		detail = "for " + game.Span(time.Duration(req.Minutes)*time.Minute)
	}
	if them.line != "" {
		// A guest's name is no one's own: the line says whom.
		detail += ", the writer of " + them.line
	}
	if err := ms.BanChat(ctx, them.Identity, until, s.action(mod, "mute", them.Account, detail, reason)); err != nil {
		return Mute{}, refuse.SaveFailed(s.log, "the mute", err)
	}
	s.log.Info("chat muted", "moderator", mod.Identity, "identity", them.Identity, "minutes", req.Minutes)
	out := Mute{Name: them.Name, Player: them.player}
	if !until.IsZero() {
		out.Until = &until
	}
	return out, nil
}

// RenameRequest is the body of POST /api/v1/moderation/rename.
type RenameRequest struct {
	Name    string `json:"name"`
	NewName string `json:"new_name"`
	Reason  string `json:"reason,omitempty"`
}

// Renamed answers a rename.
type Renamed struct {
	Name    string `json:"name"`
	OldName string `json:"old_name"`
	// Games counts the finished games whose records now carry the new
	// name.
	Games int `json:"games"`
}

// Rename gives an offensive account a new name, for moderator p: one
// sign-up would give it (account.CheckName, players.Service.NameFree). The
// finished games' records carry the new name too, as an account's
// deletion renames them: the offensive name does not stay on show. A
// player seated at a game under way is renamed once it ends (that table
// holds the name it was joined with).
func (s *Service) Rename(ctx context.Context, p *auth.Principal, req RenameRequest) (Renamed, error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return Renamed{}, err
	}
	reason, err := checkReason(req.Reason, false)
	if err != nil {
		return Renamed{}, err
	}
	newName := strings.TrimSpace(req.NewName)
	if err := account.CheckName(newName); err != nil {
		return Renamed{}, refuse.Bad("%v", err)
	}
	them, _, err := s.players.AccountNamed(ctx, req.Name)
	if err != nil {
		return Renamed{}, err
	}
	if err := notSelf(mod, them.Identity, "rename your account"); err != nil {
		return Renamed{}, err
	}
	// The names sign-up refuses: a look-alike of another player's name
	// would let the account pass for them, a moderator among them.
	if err := s.players.NameFree(ctx, newName, them.Identity); err != nil {
		return Renamed{}, err
	}
	seated, err := s.players.Seated(ctx, them.Identity)
	if err != nil {
		return Renamed{}, err
	}
	if len(seated) > 0 {
		ids := make([]string, len(seated))
		for i, t := range seated {
			ids[i] = t.ID
		}
		return Renamed{}, refuse.Conflict("%s holds a seat at %s under way (%s): rename them once it ends (mute them meanwhile)",
			them.Name, game.Count(len(seated), "table", "tables"), strings.Join(ids, ", "))
	}
	renames, err := s.players.RenameSeats(ctx, them.Identity, newName)
	if err != nil {
		return Renamed{}, refuse.ReadFailed(s.log, "the player's games", err)
	}
	ms, _ := s.moderation()
	a := s.action(mod, "rename", them, them.Name+" → "+newName, reason)
	if err := ms.RenameAccount(ctx, them.Identity, newName, account.Key(newName), renames, a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return Renamed{}, refuse.Conflict("the name %q is taken: choose another", newName)
		}
		return Renamed{}, refuse.SaveFailed(s.log, "the new name", err)
	}
	ids := make([]string, len(renames))
	for i, u := range renames {
		ids[i] = u.ID
	}
	// Finished tables in memory hold the old name: let the store answer
	// for them from now on.
	s.tables.Forget(ids...)
	if s.renamed != nil {
		s.renamed(ctx, them.Identity, newName)
	}
	s.log.Info("account renamed", "moderator", mod.Identity, "identity", them.Identity, "games", len(renames))
	return Renamed{Name: newName, OldName: them.Name, Games: len(renames)}, nil
}

// CloseRequest is the body of POST /api/v1/moderation/close.
type CloseRequest struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Refund gives the account's opponents back the rating points they
	// lost to it in the last RefundWindow: for an account that cheated.
	// Asked of an account already closed, it gives them back alone.
	Refund bool `json:"refund,omitempty"`
}

// RefundWindow is how far back a closing's refund reaches: reports wait
// in the queue for days, and a cheater's victims are found from them, so
// the window covers the games a report is likely about; older losses
// have mostly been played back since.
const RefundWindow = 30 * 24 * time.Hour

// Closed answers an account's closing.
type Closed struct {
	Name string `json:"name"`
	// Sessions counts the sessions and identity tokens ended (0 when the
	// account was closed before and only refunded now).
	Sessions int `json:"sessions"`
	// Refunds lists what the refund gave back, by player and pool: empty
	// when there was nothing to give, missing when none was asked.
	Refunds []Refund `json:"refunds,omitzero"`
}

// Refund is the rating points one player was given back in one pool.
type Refund struct {
	Name   string  `json:"name"`
	Pool   string  `json:"pool"`
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// CloseAccount closes an account for moderator p: it can no longer sign in
// (with a password or an SSH key), and its sessions end at once, on
// every node. Its seats' tokens stay, so that a game under way can still
// be resigned or claimed by its opponent; its records stay as they are.
func (s *Service) CloseAccount(ctx context.Context, p *auth.Principal, req CloseRequest) (Closed, error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return Closed{}, err
	}
	reason, err := checkReason(req.Reason, true)
	if err != nil {
		return Closed{}, err
	}
	them, _, err := s.players.AccountNamed(ctx, req.Name)
	if err != nil {
		return Closed{}, err
	}
	if err := notSelf(mod, them.Identity, "close your account (to leave, delete it from your account page)"); err != nil {
		return Closed{}, err
	}
	ms, _ := s.moderation()
	out := Closed{Name: them.Name}
	switch {
	case them.Hash == players.ClosedHash && !req.Refund:
		return Closed{}, refuse.Conflict("%s's account is already closed", them.Name)
	case them.Hash != players.ClosedHash:
		dropped, err := ms.CloseAccount(ctx, them.Identity, players.ClosedHash, s.action(mod, "close", them, "", reason))
		if err != nil {
			return Closed{}, refuse.SaveFailed(s.log, "closing the account", err)
		}
		s.players.Forget(ctx, dropped)
		if s.closed != nil {
			s.closed(ctx, them.Identity, them.Name)
		}
		out.Sessions = len(dropped)
		s.log.Info("account closed", "moderator", mod.Identity, "identity", them.Identity, "sessions", len(dropped))
	}
	if !req.Refund {
		return out, nil
	}
	a := s.action(mod, "refund", them, "", reason)
	given, err := ms.RefundOpponents(ctx, them.Identity, a.At.Add(-RefundWindow), a)
	if err != nil {
		if them.Hash != players.ClosedHash { // closed just now
			return Closed{}, refuse.SaveFailed(s.log, "giving back the opponents' rating points (the account is closed: ask again to give them back)", err)
		}
		return Closed{}, refuse.SaveFailed(s.log, "giving back the opponents' rating points", err)
	}
	out.Refunds = make([]Refund, 0, len(given))
	for _, r := range given {
		if s.refunded != nil {
			s.refunded(r.Identity, r)
		}
		name := r.Identity
		if id, err := s.st.Identity(ctx, r.Identity); err == nil {
			name = id.Name
		}
		out.Refunds = append(out.Refunds, Refund{Name: name, Pool: r.Pool, Points: math.Round(r.Points*10) / 10, Games: r.Games})
	}
	s.log.Info("rating points given back", "moderator", mod.Identity, "identity", them.Identity, "players", len(given))
	return out, nil
}

// ReopenRequest asks to reopen the account called Name, which a
// moderator closed, saying why (an appeal heard, a closing in error).
type ReopenRequest struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Reopened is what a reopening did.
type Reopened struct {
	Name string `json:"name"`
	// Password says whether the account's password came back with it.
	// An account closed before closings kept the password aside comes
	// back without one: its player sets one by a reset link to the
	// account's e-mail address, or the operator sets one (parlour admin
	// password).
	Password bool `json:"password"`
}

// ReopenAccount reopens an account a moderator closed, for moderator p:
// it signs in again with its password, plays, and appears on the
// leaderboards. What the closing ended stays ended: its sessions, the
// seats it gave up, its challenges, its places in events. An account its
// player deleted is gone and cannot be reopened.
func (s *Service) ReopenAccount(ctx context.Context, p *auth.Principal, req ReopenRequest) (Reopened, error) {
	mod, err := s.Moderator(ctx, p)
	if err != nil {
		return Reopened{}, err
	}
	reason, err := checkReason(req.Reason, true)
	if err != nil {
		return Reopened{}, err
	}
	them, _, err := s.players.AccountNamed(ctx, req.Name)
	if err != nil {
		return Reopened{}, err
	}
	out, err := reopen(ctx, s.st, them, s.action(mod, "reopen", them, "", reason))
	if errors.Is(err, errNotClosed) {
		return Reopened{}, refuse.Conflict("%s's account is not closed", them.Name)
	}
	if err != nil {
		return Reopened{}, refuse.SaveFailed(s.log, "reopening the account", err)
	}
	s.log.Info("account reopened", "moderator", mod.Identity, "identity", them.Identity, "password", out.Password)
	return out, nil
}

// errNotClosed is reopen's answer for an account not closed.
var errNotClosed = errors.New("the account is not closed")

// reopen reopens the closed account a, logging act.
func reopen(ctx context.Context, st store.Store, a store.Account, act store.ModAction) (Reopened, error) {
	ms, ok := st.(store.Moderation)
	if !ok {
		return Reopened{}, errors.New("this store keeps no accounts")
	}
	if a.Hash != store.ClosedHash {
		return Reopened{}, errNotClosed
	}
	kept, err := ms.ReopenAccount(ctx, a.Identity, act)
	if errors.Is(err, store.ErrConflict) {
		return Reopened{}, errNotClosed
	}
	if err != nil {
		return Reopened{}, err
	}
	return Reopened{Name: a.Name, Password: kept}, nil
}

// Reopen reopens the account called name, closed by a moderator, as the
// operator on the server's machine, and logs it with reason.
func Reopen(ctx context.Context, st store.Store, name, reason string, now time.Time) (Reopened, error) {
	ps, ok := st.(store.Players)
	if !ok {
		return Reopened{}, errors.New("this store keeps no accounts")
	}
	a, err := ps.AccountByKey(ctx, account.Key(strings.TrimSpace(name)))
	if errors.Is(err, store.ErrNotFound) {
		return Reopened{}, fmt.Errorf("there is no account called %q (an account its player deleted is gone)", name)
	}
	if err != nil {
		return Reopened{}, err
	}
	out, err := reopen(ctx, st, a, store.ModAction{Action: "reopen", Subject: a.Identity, SubjectName: a.Name, Reason: reason, At: now.UTC()})
	if errors.Is(err, errNotClosed) {
		return Reopened{}, fmt.Errorf("%s's account is not closed", a.Name)
	}
	return out, err
}

// LogLine is one line of the moderators' log as sent.
type LogLine struct {
	Seq int64 `json:"seq"`
	// Moderator is who acted, as then called (Operator for the
	// operator on the server's machine); Name whom they acted on.
	Moderator string    `json:"moderator"`
	Action    string    `json:"action"`
	Name      string    `json:"name"`
	Detail    string    `json:"detail,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	At        time.Time `json:"at"`
}

// Log returns the newest lines of the moderators' log, for moderator p.
func (s *Service) Log(ctx context.Context, p *auth.Principal) (_ []LogLine, err error) {
	defer refuse.Reading(s.log, "the moderators' log", &err)
	if _, err := s.Moderator(ctx, p); err != nil {
		return nil, err
	}
	ms, _ := s.moderation()
	as, err := ms.ModLog(ctx, queueSize)
	if err != nil {
		return nil, err
	}
	out := make([]LogLine, len(as))
	for i, a := range as {
		out[i] = lineOf(a)
	}
	return out, nil
}

func lineOf(a store.ModAction) LogLine {
	who := a.ModeratorName
	if a.Moderator == "" {
		who = Operator
	}
	return LogLine{Seq: a.Seq, Moderator: who, Action: a.Action, Name: a.SubjectName, Detail: a.Detail, Reason: a.Reason, At: a.At}
}

// ErrUnchanged is Grant's answer when the account already has the role
// asked for (or, to take it back, does not have it).
var ErrUnchanged = errors.New("the moderator role is as asked already")

// Grant gives (on) or takes back the moderator role of the account
// called name, as the operator on the server's machine, and logs it:
// no page or request of the API can. It returns the account's name as
// spelt, with ErrUnchanged when the role already was as asked.
func Grant(ctx context.Context, st store.Store, name string, on bool, reason string, now time.Time) (string, error) {
	ms, ok := st.(store.Moderation)
	ps, ok2 := st.(store.Players)
	if !ok || !ok2 {
		return "", errors.New("this store keeps no accounts or roles")
	}
	a, err := ps.AccountByKey(ctx, account.Key(strings.TrimSpace(name)))
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("there is no account called %q", name)
	}
	if err != nil {
		return "", err
	}
	if on && a.Hash == store.ClosedHash {
		// No one can sign in to it to use the role: the operator most
		// likely meant another account.
		return "", fmt.Errorf("%s's account was closed by a moderator: nobody can sign in to it to use the role", a.Name)
	}
	// The log says what the operator changed: granting the role to a
	// moderator, or taking it from someone without it, changes nothing
	// and writes no line.
	is, err := ms.IsModerator(ctx, a.Identity)
	if err != nil {
		return "", err
	}
	if is == on {
		return a.Name, ErrUnchanged
	}
	act := "grant"
	if !on {
		act = "revoke"
	}
	if err := ms.SetModerator(ctx, a.Identity, on, store.ModAction{Action: act, Subject: a.Identity, SubjectName: a.Name, Reason: reason, At: now.UTC()}); err != nil {
		return "", err
	}
	return a.Name, nil
}
