package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"parlour/glicko"
	"parlour/store"
)

// moderationTests are about store.Moderation: reports, moderators, chat
// bans, renamed and closed accounts, and the log of it all.
func moderationTests() []test {
	return []test{
		{"Reports", testReports},
		{"Moderators", testModerators},
		{"ModeratorsActions", testModeratorsActions},
	}
}

// testReports: a report is stored once per reporter, player and table;
// the queue lists open reports first, oldest first; a report closes once
// and its closing is logged; all of it survives a restart.
func testReports(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	r1 := store.Report{ID: "r1", Reporter: "ann", Subject: "bob", Reason: "chat", Text: "rude «words»", Table: "t1", Created: at}
	r2 := store.Report{ID: "r2", Reporter: "cat", Subject: "bob", Reason: "cheating", Table: "t1", Created: at.Add(time.Minute)}
	r3 := store.Report{ID: "r3", Reporter: "ann", Subject: "bob", Reason: "name", Created: at.Add(2 * time.Minute)}
	for _, r := range []store.Report{r1, r2, r3} {
		if err := ms.CreateReport(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	dup := store.Report{ID: "r4", Reporter: "ann", Subject: "bob", Reason: "other", Table: "t1", Created: at}
	if err := ms.CreateReport(ctx, dup); !errors.Is(err, store.ErrReportDuplicate) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same report twice: %v, want ErrReportDuplicate", err)
	}
	if _, err := ms.Report(ctx, "r4"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused report was stored: %v", err)
	}
	got, err := ms.Report(ctx, "r1")
	r1.Status = store.ReportOpen
	if err != nil || got != r1 {
		t.Fatalf("Report(r1) = %+v, %v; want %+v", got, err, r1)
	}
	closing := store.ModAction{Moderator: "mod", ModeratorName: "Mo", Action: "close-report", Subject: "bob", SubjectName: "Bob", Detail: "r1", Reason: "dealt with", At: at.Add(time.Hour)}
	if err := ms.CloseReport(ctx, "r1", closing); err != nil {
		t.Fatal(err)
	}
	if err := ms.CloseReport(ctx, "r1", closing); !errors.Is(err, store.ErrConflict) {
		t.Errorf("closing a closed report: %v, want ErrConflict", err)
	}
	if err := ms.CloseReport(ctx, "nope", closing); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("closing a missing report: %v, want ErrNotFound", err)
	}
	ms = as[store.Moderation](t, e.reopen())
	queue, err := ms.Reports(ctx, 10)
	if err != nil || len(queue) != 3 {
		t.Fatalf("Reports = %+v, %v", queue, err)
	}
	if queue[0].ID != "r2" || queue[1].ID != "r3" || queue[2].ID != "r1" {
		t.Errorf("the queue's order: %s %s %s, want r2 r3 (open, oldest first) then r1 (closed)", queue[0].ID, queue[1].ID, queue[2].ID)
	}
	if c := queue[2]; c.Status != store.ReportClosed || c.ClosedBy != "mod" || !c.Closed.Equal(at.Add(time.Hour)) {
		t.Errorf("the closed report: %+v", c)
	}
	if queue[0].Status != store.ReportOpen || !queue[0].Closed.IsZero() {
		t.Errorf("an open report: %+v", queue[0])
	}
	if short, err := ms.Reports(ctx, 1); err != nil || len(short) != 1 {
		t.Errorf("Reports(1) = %+v, %v", short, err)
	}
	log, err := ms.ModLog(ctx, 10)
	if err != nil || len(log) != 1 {
		t.Fatalf("ModLog = %+v, %v; want the closing only", log, err)
	}
	closing.Seq = log[0].Seq
	if log[0] != closing {
		t.Errorf("the log's line: %+v, want %+v", log[0], closing)
	}
}

// testModerators: the role comes and goes, each change logged, newest
// first.
func testModerators(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	at := now()
	if on, err := ms.IsModerator(ctx, "ann"); on || err != nil {
		t.Fatalf("IsModerator before any grant = %v, %v", on, err)
	}
	grant := store.ModAction{Action: "grant", Subject: "ann", SubjectName: "Ann", At: at}
	for range 2 { // granting twice changes nothing more
		if err := ms.SetModerator(ctx, "ann", true, grant); err != nil {
			t.Fatal(err)
		}
	}
	ms = as[store.Moderation](t, e.reopen())
	if on, err := ms.IsModerator(ctx, "ann"); !on || err != nil {
		t.Fatalf("IsModerator after a grant = %v, %v", on, err)
	}
	if err := ms.SetModerator(ctx, "ann", false, store.ModAction{Action: "revoke", Subject: "ann", SubjectName: "Ann", At: at.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	if on, err := ms.IsModerator(ctx, "ann"); on || err != nil {
		t.Fatalf("IsModerator after a revoke = %v, %v", on, err)
	}
	log, err := ms.ModLog(ctx, 10)
	if err != nil || len(log) != 3 || log[0].Action != "revoke" || log[2].Action != "grant" || log[0].Seq <= log[1].Seq {
		t.Fatalf("ModLog = %+v, %v", log, err)
	}
}

// testModeratorsActions: a chat ban is kept and lifted; an account is
// renamed with its finished tables (not onto a name taken); a closed
// account loses its password and its own tokens, not its seats'.
func testModeratorsActions(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	act := func(action string) store.ModAction {
		return store.ModAction{Moderator: "mod", ModeratorName: "Mo", Action: action, Subject: "idb", SubjectName: "Bob", At: at}
	}
	if until, err := ms.ChatBan(ctx, "idb"); !until.IsZero() || err != nil {
		t.Fatalf("ChatBan before any = %v, %v", until, err)
	}
	until := at.Add(30 * time.Minute)
	if err := ms.BanChat(ctx, "idb", until, act("mute")); err != nil {
		t.Fatal(err)
	}
	if got, err := ms.ChatBan(ctx, "idb"); !got.Equal(until) || err != nil {
		t.Fatalf("ChatBan = %v, %v; want %v", got, err, until)
	}
	if err := ms.BanChat(ctx, "idb", time.Time{}, act("mute")); err != nil {
		t.Fatal(err)
	}
	if got, err := ms.ChatBan(ctx, "idb"); !got.IsZero() || err != nil {
		t.Fatalf("ChatBan after lifting = %v, %v", got, err)
	}

	for _, a := range []store.Account{account("ida", "Ann", at), account("idb", "Bob", at)} {
		if _, err := ps.CreateAccount(ctx, a, store.Credential{Hash: []byte(a.Identity + "-session"), Identity: a.Identity}, guest(a.Identity, at)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.s.AddCredential(ctx, store.Credential{Hash: []byte("idb-seat"), Identity: "idb", Table: "t1", Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.CreateTable(ctx, store.Table{ID: "t1", Game: "quizl", Status: store.Finished, Created: at, Updated: at, Meta: []byte(`{"old":true}`)}); err != nil {
		t.Fatal(err)
	}
	if err := ms.RenameAccount(ctx, "idb", "Ann", "ann", nil, act("rename")); !errors.Is(err, store.ErrConflict) {
		t.Errorf("renaming onto a taken name: %v, want ErrConflict", err)
	}
	if err := ms.RenameAccount(ctx, "nobody", "Zed", "zed", nil, act("rename")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("renaming a missing account: %v, want ErrNotFound", err)
	}
	renames := []store.TableUpdate{{ID: "t1", Status: store.Finished, Meta: []byte(`{"renamed":true}`)}}
	if err := ms.RenameAccount(ctx, "idb", "Robin", "robin", renames, act("rename")); err != nil {
		t.Fatal(err)
	}
	if a, err := ps.AccountByKey(ctx, "robin"); err != nil || a.Identity != "idb" || a.Name != "Robin" {
		t.Errorf("the renamed account: %+v, %v", a, err)
	}
	if _, err := ps.AccountByKey(ctx, "bob"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old name still finds an account: %v", err)
	}
	if id, err := e.s.Identity(ctx, "idb"); err != nil || id.Name != "Robin" {
		t.Errorf("the renamed identity: %+v, %v", id, err)
	}
	if tb, err := e.s.Table(ctx, "t1"); err != nil || string(tb.Meta) != `{"renamed":true}` {
		t.Errorf("the renamed table: %s, %v", tb.Meta, err)
	}

	endGame(t, e.s, "g-rated", rated("quizl", at, "idb", "ida", glicko.Win))
	if board, err := ps.Leaderboard(ctx, "quizl-standard", 1, 1000, 10, at); err != nil || len(board) != 2 || board[0].Name != "Robin" {
		t.Fatalf("the leaderboard before the closing: %+v, %v", board, err)
	}

	dropped, err := ms.CloseAccount(ctx, "idb", store.ClosedHash, act("close"))
	if err != nil {
		t.Fatal(err)
	}
	if board, err := ps.Leaderboard(ctx, "quizl-standard", 1, 1000, 10, at); err != nil || len(board) != 1 || board[0].Name != "Ann" {
		t.Errorf("the leaderboard after Robin's closing: %+v, %v; want Ann alone", board, err)
	}
	if rs, err := ps.Ratings(ctx, "idb"); err != nil || len(rs) != 1 || rs[0].Games != 1 {
		t.Errorf("the closed account's ratings: %+v, %v; want kept", rs, err)
	}
	if len(dropped) != 1 || string(dropped[0]) != "idb-session" {
		t.Errorf("closing dropped %q, want the session alone", dropped)
	}
	if _, err := e.s.Credential(ctx, []byte("idb-session")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the closed account's session: %v, want ErrNotFound", err)
	}
	if _, err := e.s.Credential(ctx, []byte("idb-seat")); err != nil {
		t.Errorf("the closed account's seat token: %v, want kept", err)
	}
	if a, err := ps.AccountOf(ctx, "idb"); err != nil || a.Hash != store.ClosedHash {
		t.Errorf("the closed account: %+v, %v", a, err)
	}
	if _, err := ms.CloseAccount(ctx, "nobody", "!closed", act("close")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("closing a missing account: %v, want ErrNotFound", err)
	}
	log, err := ms.ModLog(ctx, 2)
	if err != nil || len(log) != 2 || log[0].Action != "close" || log[1].Action != "rename" || log[0].ModeratorName != "Mo" {
		t.Fatalf("ModLog(2) = %+v, %v", log, err)
	}
}
