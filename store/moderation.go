package store

import (
	"context"
	"fmt"
	"time"
)

// ReportStatus is where a report stands in the moderation queue.
type ReportStatus string

// The statuses of a report: open until a moderator closes it.
const (
	ReportOpen   ReportStatus = "open"
	ReportClosed ReportStatus = "closed"
)

// Report is one player's report of another to the moderators.
type Report struct {
	ID       string
	Reporter string // the reporting identity
	Subject  string // the identity reported
	// Reason is one of the server's fixed reasons; Text is the
	// reporter's own words (may be empty).
	Reason string
	Text   string
	Table  string // the table the report is about ("" for none)
	// Tournament is the event whose chat line the report is about (""
	// for none; a report is about a table or an event, not both).
	Tournament string
	// Seq is the number of the line of Table's chat, or of Tournament's,
	// the report is about (0 for none): its writer is Subject, guest or
	// account.
	Seq    int64
	Status ReportStatus
	// Created is when it was made; Closed and ClosedBy (a moderator's
	// identity) when and by whom it was closed.
	Created  time.Time
	Closed   time.Time
	ClosedBy string
}

// ErrReportDuplicate is returned, wrapped, by CreateReport for a report
// whose reporter already reported the same player about the same table.
var ErrReportDuplicate = fmt.Errorf("the same report was already made: %w", ErrConflict)

// ModAction is one line of the moderation log: who did what to whom,
// when and why. Every moderation write stores its line in the same
// transaction, so that nothing is done without a trace.
type ModAction struct {
	// Seq numbers the log's lines from 1; the store assigns it.
	Seq int64
	// Moderator is the identity who acted ("" for the operator, on the
	// server's machine), ModeratorName their name then.
	Moderator     string
	ModeratorName string
	// Action names what was done ("grant", "revoke", "close-report",
	// "mute", "rename", "close"); Subject and SubjectName say to whom
	// (an identity and its name then), Detail what exactly.
	Action      string
	Subject     string
	SubjectName string
	Detail      string
	Reason      string
	At          time.Time
}

// Refund is what RefundOpponents gave one player in one pool: the
// rating points they had lost in Games rated games against the account.
type Refund struct {
	Identity string
	Pool     string
	Points   float64
	Games    int
}

// Moderation keeps reports, moderators, chat bans and the log of what
// moderators did. A Store that holds them implements it too.
type Moderation interface {
	// CreateReport stores a new open report; one whose Reporter,
	// Subject and Table repeat a stored report is ErrReportDuplicate,
	// and nothing is stored.
	CreateReport(ctx context.Context, r Report) error
	// Report returns the report called id.
	Report(ctx context.Context, id string) (Report, error)
	// Reports returns up to limit reports: the open ones first, oldest
	// first (the order a queue is worked in), then the closed ones,
	// newest closed first.
	Reports(ctx context.Context, limit int) ([]Report, error)
	// CloseReport closes open report id as a.Moderator at a.At and logs
	// a. A missing report is ErrNotFound, a closed one ErrConflict.
	CloseReport(ctx context.Context, id string, a ModAction) error

	// SetModerator gives (on) or takes back identity's moderator role,
	// and logs a.
	SetModerator(ctx context.Context, identity string, on bool, a ModAction) error
	// IsModerator reports whether identity holds the role.
	IsModerator(ctx context.Context, identity string) (bool, error)

	// BanChat keeps identity out of every chat until until, and logs a.
	// A later ban replaces an earlier one; a zero until lifts it.
	BanChat(ctx context.Context, identity string, until time.Time, a ModAction) error
	// ChatBan returns when identity's chat ban ends (zero: none was
	// ever given).
	ChatBan(ctx context.Context, identity string) (time.Time, error)

	// RenameAccount gives identity's account, and the identity, the
	// name name (key as names compare), replaces the descriptions of
	// the tables in renames (its finished games, under the new name),
	// drops their filed analyses, which hold the old name, renames its
	// chat lines and daily attempts and logs a, in one transaction. A key
	// another account holds is ErrConflict; an identity without an
	// account ErrNotFound.
	RenameAccount(ctx context.Context, identity, name, key string, renames []TableUpdate, a ModAction) error
	// CloseAccount replaces identity's password hash with hash (one no
	// password matches), deletes its sessions and identity tokens (not
	// its seats' tokens) and logs a, in one transaction. It returns the
	// hashes deleted. An identity without an account is ErrNotFound.
	// The password's hash is kept aside, for ReopenAccount.
	CloseAccount(ctx context.Context, identity, hash string, a ModAction) ([][]byte, error)
	// ReopenAccount gives identity's account, closed by CloseAccount,
	// back the password hash closing kept aside, or NoPasswordHash when
	// none was kept (an account closed before closing kept it), spends
	// its password reset link, if any (one mailed before the closing
	// must not take the account from whoever it is given back to), and
	// logs a, in one transaction. kept says whether the password came back.
	// An identity without an account is ErrNotFound; an account not
	// closed, ErrConflict.
	ReopenAccount(ctx context.Context, identity string, a ModAction) (kept bool, err error)
	// RefundOpponents gives back to each opponent of identity the
	// rating points they lost to it in the rated games that ended at or
	// after since, and logs a with a Detail that sums them up, in one
	// transaction. It returns what it gave, by player and pool, in that
	// order. A game's points are given back once (PlayerGame.Refund): a
	// game given back before is left out, and nothing given is still
	// logged.
	RefundOpponents(ctx context.Context, identity string, since time.Time, a ModAction) ([]Refund, error)

	// ModLog returns up to limit lines of the log, newest first.
	ModLog(ctx context.Context, limit int) ([]ModAction, error)
	// LogAction logs a, an action that changes nothing else the store
	// holds (a moderator reading a table's private chat).
	LogAction(ctx context.Context, a ModAction) error
}

// RefundDetail sums refunds up for the moderation log's line.
func RefundDetail(refunds []Refund) string {
	if len(refunds) == 0 {
		return "no rating points to give back"
	}
	players := map[string]bool{}
	var points float64
	var games int
	for _, r := range refunds {
		players[r.Identity] = true
		points += r.Points
		games += r.Games
	}
	return fmt.Sprintf("gave back %.1f rating points to %d %s for %d %s", points,
		len(players), plural(len(players), "player", "players"), games, plural(games, "game", "games"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
