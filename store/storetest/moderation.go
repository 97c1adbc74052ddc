package storetest

import (
	"context"
	"errors"
	"math"
	"strings"
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
		{"ReportsOfEventLines", testReportsOfEventLines},
		{"Moderators", testModerators},
		{"ModeratorsActions", testModeratorsActions},
		{"RefundOpponents", testRefundOpponents},
	}
}

// testReports: a report is stored once per reporter, player and table,
// with the chat line it is about, if any;
// the queue lists open reports first, oldest first; a report closes once
// and its closing is logged; all of it survives a restart.
func testReports(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	r1 := store.Report{ID: "r1", Reporter: "ann", Subject: "bob", Reason: "chat", Text: "rude «words»", Table: "t1", Seq: 7, Created: at}
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
	if c := queue[2]; c.Table != "t1" || c.Seq != 7 {
		t.Errorf("the report about line 7 of t1 reads back as about line %d of %q", c.Seq, c.Table)
	}
	if queue[0].Seq != 0 || queue[1].Seq != 0 {
		t.Errorf("reports about no line read back as about lines %d and %d", queue[0].Seq, queue[1].Seq)
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

// testReportsOfEventLines: a report about a line of an event's chat
// keeps the event and the line, through a restart; a reporter reports a
// player about an event once, apart from their report about no table or
// event and from those about tables.
func testReportsOfEventLines(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	plain := store.Report{ID: "r1", Reporter: "ann", Subject: "bob", Reason: "name", Created: at}
	onTable := store.Report{ID: "r2", Reporter: "ann", Subject: "bob", Reason: "chat", Table: "t1", Seq: 2, Created: at.Add(time.Minute)}
	inEvent := store.Report{ID: "r3", Reporter: "ann", Subject: "bob", Reason: "chat", Tournament: "e1", Seq: 3, Created: at.Add(2 * time.Minute)}
	for _, r := range []store.Report{plain, onTable, inEvent} {
		if err := ms.CreateReport(ctx, r); err != nil {
			t.Fatalf("report %s: %v", r.ID, err)
		}
	}
	dup := store.Report{ID: "r4", Reporter: "ann", Subject: "bob", Reason: "other", Text: "more", Tournament: "e1", Seq: 4, Created: at}
	if err := ms.CreateReport(ctx, dup); !errors.Is(err, store.ErrReportDuplicate) {
		t.Errorf("the same report about an event twice: %v, want ErrReportDuplicate", err)
	}
	ms = as[store.Moderation](t, e.reopen())
	got, err := ms.Report(ctx, "r3")
	inEvent.Status = store.ReportOpen
	if err != nil || got != inEvent {
		t.Errorf("Report(r3) = %+v, %v; want %+v", got, err, inEvent)
	}
	if got, err := ms.Report(ctx, "r2"); err != nil || got.Tournament != "" || got.Table != "t1" {
		t.Errorf("a report about a table reads back as %+v, %v", got, err)
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
	if err := e.s.CreateTable(ctx, store.Table{ID: "t2", Game: "quizl", Status: store.Finished, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	an, hasAnalyses := e.s.(store.Analyses)
	if hasAnalyses {
		for _, id := range []string{"t1", "t2"} {
			if err := an.PutAnalysis(ctx, id, 1, []byte(`{"players":["Ann","Bob"]}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	chatLines(t, e, "idb", "Bob", "ida", "Ann")
	renames := []store.TableUpdate{{ID: "t1", Status: store.Finished, Meta: []byte(`{"renamed":true}`)}}
	if err := ms.RenameAccount(ctx, "idb", "Robin", "robin", renames, act("rename")); err != nil {
		t.Fatal(err)
	}
	checkChatNames(t, e, "Robin", "Ann")
	if _, ok := e.s.(store.Dailies); ok {
		if got := dailyNames(t, e); !equal(got, []string{"Robin", "Ann"}) {
			t.Errorf("the daily board after the renaming names %q", got)
		}
	}
	if hasAnalyses {
		if body, err := an.Analysis(ctx, "t1", 1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the renamed table's analysis, naming Bob: %s, %v; want it dropped", body, err)
		}
		if _, err := an.Analysis(ctx, "t2", 1); err != nil {
			t.Errorf("another table's analysis after the renaming: %v", err)
		}
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
	if _, ok := e.s.(store.Dailies); ok {
		if got := dailyNames(t, e); !equal(got, []string{"Ann"}) {
			t.Errorf("the daily board after Robin's closing names %q, want Ann alone", got)
		}
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

	// Reopened, the account has its password back, and its place on
	// the leaderboard; closed and reopened again, still.
	for range 2 {
		if kept, err := ms.ReopenAccount(ctx, "idb", act("reopen")); err != nil || !kept {
			t.Fatalf("reopening: kept %v, %v; want the password back", kept, err)
		}
		if a, err := ps.AccountOf(ctx, "idb"); err != nil || a.Hash != "$argon2id$idb" {
			t.Errorf("the reopened account: %+v, %v; want its password's hash", a, err)
		}
		if _, err := ms.CloseAccount(ctx, "idb", store.ClosedHash, act("close")); err != nil {
			t.Fatal(err)
		}
	}
	// Closing a closed account again keeps the password aside.
	if _, err := ms.CloseAccount(ctx, "idb", store.ClosedHash, act("close")); err != nil {
		t.Fatal(err)
	}
	if kept, err := ms.ReopenAccount(ctx, "idb", act("reopen")); err != nil || !kept {
		t.Fatalf("reopening after two closings: kept %v, %v", kept, err)
	}
	if board, err := ps.Leaderboard(ctx, "quizl-standard", 1, 1000, 10, at); err != nil || len(board) != 2 {
		t.Errorf("the leaderboard after Robin's reopening: %+v, %v; want both", board, err)
	}
	if _, err := ms.ReopenAccount(ctx, "idb", act("reopen")); !errors.Is(err, store.ErrConflict) {
		t.Errorf("reopening an open account: %v, want ErrConflict", err)
	}
	if _, err := ms.ReopenAccount(ctx, "nobody", act("reopen")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reopening a missing account: %v, want ErrNotFound", err)
	}
	if log, err := ms.ModLog(ctx, 1); err != nil || len(log) != 1 || log[0].Action != "reopen" {
		t.Errorf("ModLog(1) after the reopenings = %+v, %v", log, err)
	}
	read := act("read-chat")
	read.Detail = "table t1"
	if err := ms.LogAction(ctx, read); err != nil {
		t.Fatal(err)
	}
	if log, err := ms.ModLog(ctx, 1); err != nil || len(log) != 1 || log[0].Action != "read-chat" || log[0].Detail != "table t1" || log[0].ModeratorName != "Mo" {
		t.Errorf("ModLog(1) after LogAction = %+v, %v", log, err)
	}
}

// testRefundOpponents: the points an account's opponents lost to it in
// the rated games since a time go back to them, once: not for older
// games, unrated ones, games they won, or games between others; each
// game's line of history says what it gave back, and the log sums it up.
func testRefundOpponents(t *testing.T, e *env) {
	ctx := context.Background()
	ms := as[store.Moderation](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, a := range []store.Account{account("idc", "Che", at), account("ida", "Ann", at), account("idb", "Bob", at), account("idd", "Dan", at)} {
		if _, err := ps.CreateAccount(ctx, a, store.Credential{Hash: []byte(a.Identity), Identity: a.Identity}, guest(a.Identity, at)); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	endGame(t, e.s, "g-old", rated("quizl", at.Add(-40*day), "idc", "ida", glicko.Win))
	endGame(t, e.s, "g1", rated("quizl", at.Add(-2*time.Hour), "idc", "ida", glicko.Win))
	endGame(t, e.s, "g2", rated("quizl", at.Add(-time.Hour), "ida", "idc", glicko.Loss))
	endGame(t, e.s, "g3", rated("quizl", at.Add(-50*time.Minute), "idb", "idc", glicko.Win))
	endGame(t, e.s, "g4", rated("salvo", at.Add(-40*time.Minute), "idc", "idd", glicko.Win))
	endGame(t, e.s, "g5", rated("quizl", at.Add(-30*time.Minute), "idd", "ida", glicko.Win))
	endGame(t, e.s, "g6", &store.GameEnd{Game: "nymphabet", Ended: at.Add(-20 * time.Minute),
		Seats: []store.SeatEnd{{Identity: "idc", Seat: 0, Result: store.Win}, {Identity: "ida", Seat: 1, Result: store.Loss}}})

	lost := map[string]float64{} // identity/table → the points lost
	for _, id := range []string{"ida", "idb", "idd"} {
		h, err := ps.History(ctx, store.HistoryPage{Identity: id, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range h {
			lost[id+"/"+g.Table] = g.Before - g.After
		}
	}
	want := []store.Refund{
		{Identity: "ida", Pool: "quizl-standard", Points: lost["ida/g1"] + lost["ida/g2"], Games: 2},
		{Identity: "idd", Pool: "salvo-standard", Points: lost["idd/g4"], Games: 1},
	}
	if !(lost["ida/g1"] > 0 && lost["ida/g2"] > 0 && lost["idd/g4"] > 0 && lost["ida/g5"] > 0 && lost["idb/g3"] < 0) {
		t.Fatalf("the games did not lose and win as meant: %v", lost)
	}
	before, err := ps.Ratings(ctx, "ida")
	if err != nil || len(before) != 1 {
		t.Fatalf("Ann's ratings: %+v, %v", before, err)
	}
	a := store.ModAction{Moderator: "mod", ModeratorName: "Mo", Action: "refund", Subject: "idc", SubjectName: "Che", At: at}
	got, err := ms.RefundOpponents(ctx, "idc", at.Add(-30*day), a)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("refunds %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Identity != want[i].Identity || got[i].Pool != want[i].Pool || got[i].Games != want[i].Games || math.Abs(got[i].Points-want[i].Points) > 1e-6 {
			t.Errorf("refund %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	after, err := ps.Ratings(ctx, "ida")
	if err != nil || len(after) != 1 || math.Abs(after[0].Rating-(before[0].Rating+want[0].Points)) > 1e-6 || after[0].RD != before[0].RD || after[0].Games != before[0].Games {
		t.Errorf("Ann's rating after the refund: %+v, %v; want %v + %v", after, err, before[0].Rating, want[0].Points)
	}
	h, err := ps.History(ctx, store.HistoryPage{Identity: "ida", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range h {
		w := 0.0
		if g.Table == "g1" || g.Table == "g2" {
			w = lost["ida/"+g.Table]
		}
		if math.Abs(g.Refund-w) > 1e-6 {
			t.Errorf("Ann's game %s gave back %v, want %v", g.Table, g.Refund, w)
		}
	}

	// Again: everything was given already.
	a.At = at.Add(time.Second)
	if again, err := ms.RefundOpponents(ctx, "idc", at.Add(-30*day), a); err != nil || len(again) != 0 {
		t.Errorf("a second refund: %+v, %v; want nothing", again, err)
	}
	if twice, err := ps.Ratings(ctx, "ida"); err != nil || twice[0].Rating != after[0].Rating {
		t.Errorf("Ann's rating after a second refund: %+v, %v; want %v", twice, err, after[0].Rating)
	}
	log, err := ms.ModLog(ctx, 2)
	if err != nil || len(log) != 2 {
		t.Fatalf("the log: %+v, %v", log, err)
	}
	if wantDetail := store.RefundDetail(want); log[1].Detail != wantDetail || log[1].Action != "refund" || !strings.Contains(wantDetail, "to 2 players for 3 games") {
		t.Errorf("the refund's line: %+v; want detail %q", log[1], wantDetail)
	}
	if log[0].Detail != "no rating points to give back" {
		t.Errorf("the second refund's line: %+v", log[0])
	}
}
