package accounts

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/server/moderation"
	"parlour/store/sqlite"
	"parlour/web/e2e"
)

// grantModerator gives name the moderator role straight in the server's
// data, as parlour admin grant does on the server's machine.
func grantModerator(t *testing.T, s *e2e.TestServer, name string) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), s.DB, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := moderation.Grant(context.Background(), st, name, true, "", time.Now()); err != nil {
		t.Fatal(err)
	}
}

// moderated starts a server with three accounts signed up in their own
// browser tabs: Ann and Ben, players, and Moe, one of its moderators.
func moderated(t *testing.T) (ann, ben, mo *e2e.Player) {
	t.Helper()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann, ben, mo = e2e.NewPlayer(t, b, "Ann", s.Base), e2e.NewPlayer(t, b, "Ben", s.Base), e2e.NewPlayer(t, b, "Mo", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	return ann, ben, mo
}

// TestReportReachesModerator: Ann reports Ben from his profile (a report
// the server refuses shows its words in place) and from their table's
// chat, the reports reach the queue on Mo's moderators' page, and Mo
// closes one; Ben, who is no
// moderator, gets no queue and no link to it.
func TestReportReachesModerator(t *testing.T) {
	t.Parallel()
	ann, ben, mo := moderated(t)

	ann.Open("/players/Ben")
	ann.Wait("the report button", `!!document.querySelector("#report-open")`)
	ann.Click("#report-open")
	ann.Wait("the report form", `!!document.querySelector("#report-form #report-reason")`)
	ann.AccessibleThemes("the report form")
	ann.Labelled("the report form")
	// "Something else" without a word: the server's refusal, in place.
	e2e.Eval[bool](ann, `(s => { s.value = "other"; return true; })(document.querySelector("#report-reason"))`)
	ann.Click("#report-send")
	ann.Wait("the refusal", `document.querySelector("#report-error").textContent.includes("a few words")`)
	e2e.Eval[bool](ann, `(s => { s.value = "chat"; return true; })(document.querySelector("#report-reason"))`)
	ann.TypeIn("#report-text", "insults in every game")
	ann.Click("#report-send")
	ann.Wait("the form gone once sent", `!document.querySelector("#report-form")`)

	// From a table's chat: the accounts at the table other than herself.
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("form button[type=submit]")`)
	ann.ClickText("#main form button", "A friend")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Wait("the chat's report button", `!!document.querySelector("#chat #report-open")`)
	ann.Click("#chat #report-open")
	ann.Wait("the report form in the chat", `!!document.querySelector("#chat-report #report-form #report-reason")`)
	if got := e2e.Eval[string](ann, `document.querySelector("#report-name").value + " / " + document.querySelector("#report-title").textContent`); got != "Ben / Report Ben" {
		t.Errorf("the chat's report is about %q, want Ben alone", got)
	}
	ann.Labelled("the chat's report form")
	e2e.Eval[bool](ann, `(s => { s.value = "cheating"; return true; })(document.querySelector("#report-reason"))`)
	ann.Click("#report-send")
	ann.Wait("the chat's form gone once sent", `!document.querySelector("#report-form")`)

	mo.Open("/moderation")
	mo.Wait("the report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("Ben") && tr.textContent.includes("insults in every game") && tr.textContent.includes("Abuse in chat") && tr.textContent.includes("Ann"))`)
	mo.Wait("the chat's report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("Cheating") && tr.querySelector("a[href^='/t/']"))`)
	if got := mo.Text("#queue-count"); got != "2 open reports." {
		t.Errorf("the queue counts %q", got)
	}
	mo.Wait("the header's link for moderators", `!!document.querySelector("#moderation-link")`)
	mo.Shot("moderation-queue")
	mo.AccessibleThemes("the moderators' page")
	mo.Labelled("the moderators' page")
	mo.Click("#reports tr.open .report-close")
	mo.Wait("the report closed", `document.querySelector("#queue-count").textContent === "1 open report." && [...document.querySelectorAll("#reports tr.closed")].some(tr => tr.textContent.includes("closed by Moe"))`)
	mo.Wait("the log's line", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe closed a report about Ben")`)
	// The longest mute the server takes, 30 days, is offered.
	mo.Click("#reports tr.open .report-act")
	mo.Wait("the player filled in", `document.querySelector("#action-name").value === "Ben"`)
	e2e.Eval[bool](mo, `(() => { const s = document.querySelector("#action-minutes"); s.value = "43200"; document.querySelector("#action-reason").value = "insults"; return s.value === "43200"; })()`)
	mo.Click("#action-mute")
	mo.Wait("the mute in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe muted Ben's chat (for 30 days): insults")`)

	ben.Open("/moderation")
	ben.Wait("the refusal", `!!document.querySelector("#moderation-denied")`)
	if e2e.Eval[bool](ben, `!!document.querySelector("#moderation-link") || !!document.querySelector("#reports")`) {
		t.Error("Ben, no moderator, sees the moderators' link or queue")
	}
	if strings.Contains(ben.Text("main"), "insults") {
		t.Error("Ben sees the report")
	}
}

// TestClosedAccountsProfile: Mo closes Ben's account from the moderators'
// page; Ben's profile stays, saying it was closed, and offers Ann no
// challenge; reopened from the same page, it offers one again.
func TestClosedAccountsProfile(t *testing.T) {
	t.Parallel()
	ann, _, mo := moderated(t)

	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#profile-closed")`) {
		t.Error("an open account's profile says it was closed")
	}

	mo.Open("/moderation")
	mo.Wait("the actions", `!!document.querySelector("#action-close")`)
	mo.TypeIn("#action-name", "Ben")
	mo.TypeIn("#action-reason", "cheating")
	mo.Click("#action-refund")
	mo.Click("#action-close")
	mo.Wait("the closing in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe closed Ben's account: cheating")`)
	// Ben won no rated game: the refund asked with it finds nothing.
	mo.Wait("the refund in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe gave back the points Ben's opponents lost (no rating points to give back): cheating")`)

	ann.Open("/players/Ben")
	ann.Wait("the profile", `!!document.querySelector("#profile-name")`)
	ann.Wait("the closing said", `!!document.querySelector("#profile-closed")`)
	if got := ann.Text("#profile-closed"); !strings.Contains(got, "closed by a moderator") {
		t.Errorf("the closed profile says %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#profile-actions .challenge-open")`) {
		t.Error("a closed account's profile offers a challenge")
	}
	ann.AccessibleThemes("a closed account's profile")

	// An appeal heard: Mo reopens it, and it is a player's again.
	mo.TypeIn("#action-reason", "appeal heard")
	mo.Click("#action-reopen")
	mo.Wait("the reopening in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe reopened Ben's account: appeal heard")`)
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button again", `!!document.querySelector("#profile-actions .challenge-open")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#profile-closed")`) {
		t.Error("a reopened account's profile says it was closed")
	}
}

// TestRefundOnHistory: Dee beats Cal in a rated game; Mo closes Dee's
// account with a refund from the moderators' page, which says what was
// given back, and Cal's history shows the game's points given back.
func TestRefundOnHistory(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	mo := e2e.NewPlayer(t, b, "Mo", s.Base)
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	tokens := map[string]string{}
	for _, n := range []string{"Cal", "Dee"} {
		var sess struct{ Token string }
		st, body := e2e.API(t, s.Base, "POST", "/accounts", "", map[string]string{"name": n, "password": "correct horse battery"})
		if err := json.Unmarshal(body, &sess); st != 201 || err != nil {
			t.Fatalf("%s signs up: %d %s", n, st, body)
		}
		tokens[n] = sess.Token
	}
	var cal, dee struct{ Table, Token string }
	st, body := e2e.API(t, s.Base, "POST", "/tables", tokens["Cal"], map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true})
	if err := json.Unmarshal(body, &cal); st != 201 || err != nil {
		t.Fatalf("Cal's table: %d %s", st, body)
	}
	st, body = e2e.API(t, s.Base, "POST", "/tables/"+cal.Table+"/join", tokens["Dee"], map[string]any{})
	if err := json.Unmarshal(body, &dee); st != 200 || err != nil {
		t.Fatalf("Dee joins: %d %s", st, body)
	}
	for _, m := range []struct{ tok, move string }{{cal.Token, "apple"}, {dee.Token, "bed"}, {cal.Token, "resign"}} {
		if st, body := e2e.API(t, s.Base, "POST", "/tables/"+cal.Table+"/moves", m.tok, map[string]string{"move": m.move}); st != 200 {
			t.Fatalf("%s: %d %s", m.move, st, body)
		}
	}

	mo.Open("/moderation")
	mo.Wait("the actions", `!!document.querySelector("#action-close")`)
	mo.TypeIn("#action-name", "Dee")
	mo.TypeIn("#action-reason", "an engine")
	mo.Click("#action-refund")
	mo.Click("#action-close")
	mo.Wait("the refund in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe gave back the points Dee's opponents lost (gave back 162.3 rating points to 1 player for 1 game): an engine")`)

	mo.Open("/players/Cal")
	mo.Wait("Cal's game given back", `[...document.querySelectorAll(".refund")].some(e => e.textContent.includes("+162 given back"))`)
}

// TestMuteGuestByLine: a guest, Gus, insults Ann in their table's chat;
// Ben, watching, reports Ann, who answered in kind, about the table (a
// report names a table where its reporter could see the player). On the
// moderators' page Mo reads the table's chat while the game is on, the
// report fills the table in, and Mo mutes the writer of Gus's
// line, whom no name could find: the log says which line, and Gus's next
// message is refused.
func TestMuteGuestByLine(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	mo := e2e.NewPlayer(t, b, "Mo", s.Base)
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	tokens := map[string]string{}
	for _, n := range []string{"Ann", "Ben"} {
		var sess struct{ Token string }
		st, body := e2e.API(t, s.Base, "POST", "/accounts", "", map[string]string{"name": n, "password": "correct horse battery"})
		if err := json.Unmarshal(body, &sess); st != 201 || err != nil {
			t.Fatalf("%s signs up: %d %s", n, st, body)
		}
		tokens[n] = sess.Token
	}
	var gus struct{ Token string }
	if st, body := e2e.API(t, s.Base, "POST", "/identity", "", map[string]string{"name": "Gus"}); json.Unmarshal(body, &gus) != nil || (st != 201 && st != 200) {
		t.Fatalf("Gus, a guest: %d %s", st, body)
	}
	var ann, seat struct{ Table, Token string }
	st, body := e2e.API(t, s.Base, "POST", "/tables", tokens["Ann"], map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}})
	if err := json.Unmarshal(body, &ann); st != 201 || err != nil {
		t.Fatalf("Ann's table: %d %s", st, body)
	}
	st, body = e2e.API(t, s.Base, "POST", "/tables/"+ann.Table+"/join", gus.Token, map[string]any{})
	if err := json.Unmarshal(body, &seat); st != 200 || err != nil {
		t.Fatalf("Gus joins: %d %s", st, body)
	}
	chat := "/tables/" + ann.Table + "/chat"
	if st, body := e2e.API(t, s.Base, "POST", chat, gus.Token, map[string]string{"channel": "players", "text": "you play like a fool"}); st != 201 {
		t.Fatalf("Gus writes: %d %s", st, body)
	}
	if st, body := e2e.API(t, s.Base, "POST", "/reports", tokens["Ben"], map[string]string{"name": "Ann", "reason": "chat", "text": "Ann and the guest at line 1", "table": ann.Table}); st != 201 {
		t.Fatalf("Ben reports: %d %s", st, body)
	}

	mo.Open("/moderation")
	mo.Wait("the report", `!!document.querySelector("#reports tr.open .report-act")`)
	// The game is on, its players' chat theirs alone: Mo reads it all
	// the same, and the reading is logged.
	mo.Click("#reports tr.open .report-chat")
	mo.Wait("the table's chat", `(document.querySelector("#chat-lines")||{}).textContent?.includes("players: Gus (guest): you play like a fool")`)
	mo.Wait("the reading in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe read the chat of a table where Ann was reported (table `+ann.Table+`)")`)
	if !e2e.Eval[bool](mo, `document.activeElement && document.activeElement.id === "chat-title"`) {
		t.Error("the chat read leaves the keyboard elsewhere than its heading")
	}
	mo.Click("#reports tr.open .report-act")
	mo.Wait("the report's table filled in", `document.querySelector("#action-table").value === `+strconv.Quote(ann.Table))
	mo.TypeIn("#action-line", "1")
	mo.TypeIn("#action-reason", "insults")
	mo.Click("#action-mute-line")
	mo.Wait("the mute in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe muted Gus's chat (for 1 hour, the writer of line 1 of table `+ann.Table+`): insults")`)
	mo.Labelled("the moderators' page")
	if st, body := e2e.API(t, s.Base, "POST", chat, gus.Token, map[string]string{"channel": "players", "text": "and again"}); st != 403 || !strings.Contains(string(body), "a moderator muted your chat") {
		t.Errorf("Gus writes once muted: %d %s, want 403", st, body)
	}
}

// TestReportGuestLine: Ann reports a guest, whose name is nobody's own,
// by the chat line he wrote at their table; Mo's queue shows the line,
// and Mo mutes its writer straight from the report.
func TestReportGuestLine(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann, mo, gus := e2e.NewPlayer(t, b, "Ann", s.Base), e2e.NewPlayer(t, b, "Mo", s.Base), e2e.NewPlayer(t, b, "Gus", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("form button[type=submit]")`)
	ann.ClickText("#main form button", "A friend")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	gus.Join(ann.InviteLink())
	gus.TypeIn("#chat-text", "you all stink")
	gus.Click("#chat-send")
	ann.Wait("the guest's line", `[...document.querySelectorAll("#chat-log li[data-seq]")].some(l => l.textContent.includes("you all stink"))`)

	ann.Click("#chat #report-open")
	ann.Wait("the report form in the chat", `!!document.querySelector("#chat-report #report-form #report-name")`)
	if got := e2e.Eval[string](ann, `document.querySelector("#report-name").value + " / " + document.querySelector("#report-title").textContent`); got != "line:1 / Report Gus (guest), line 1: you all stink" {
		t.Errorf("the chat's report offers %q, want the guest's line alone", got)
	}
	ann.Labelled("the report form naming a line")
	e2e.Eval[bool](ann, `(s => { s.value = "chat"; return true; })(document.querySelector("#report-reason"))`)
	ann.Click("#report-send")
	ann.Wait("the form gone once sent", `!document.querySelector("#report-form")`)

	mo.Open("/moderation")
	mo.Wait("the line's report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("Gus") && tr.textContent.includes("you all stink") && tr.textContent.includes("line 1"))`)
	mo.Click("#reports tr.open .report-act")
	// The line, not the name: a guest's name may be an account's too.
	mo.Wait("the line filled in", `document.querySelector("#action-line").value === "1" && document.querySelector("#action-table").value !== "" && document.querySelector("#action-name").value === ""`)
	mo.TypeIn("#action-reason", "insults")
	mo.Click("#action-mute-line")
	mo.Wait("the mute in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe muted Gus's chat")`)
	gus.TypeIn("#chat-text", "hello?")
	gus.Click("#chat-send")
	gus.Wait("the refusal", `document.querySelector("#chat-error").textContent.includes("a moderator muted your chat")`)
}

// TestMuteEventLineFromReport: a line of an event's chat reported by a
// guest's name (nobody's own) reaches the queue with the event, and the
// report's Act fills in the event and the line, whose writer Mo mutes
// straight from it.
func TestMuteEventLineFromReport(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	mo := e2e.NewPlayer(t, b, "Mo", s.Base)
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	var ann struct{ Token string }
	st, body := e2e.API(t, s.Base, "POST", "/accounts", "", map[string]string{"name": "Ann", "password": "correct horse battery"})
	if err := json.Unmarshal(body, &ann); st != 201 || err != nil {
		t.Fatalf("Ann signs up: %d %s", st, body)
	}
	var ida struct{ Token string }
	if st, body := e2e.API(t, s.Base, "POST", "/identity", "", map[string]string{"name": "Ida"}); json.Unmarshal(body, &ida) != nil || (st != 201 && st != 200) {
		t.Fatalf("Ida, a guest: %d %s", st, body)
	}
	var ev struct{ ID string }
	st, body = e2e.API(t, s.Base, "POST", "/tournaments", ann.Token, map[string]any{"kind": "arena", "game": "nymphabet", "minutes": 30,
		"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}})
	if err := json.Unmarshal(body, &ev); st != 201 || err != nil {
		t.Fatalf("Ann's arena: %d %s", st, body)
	}
	if st, body := e2e.API(t, s.Base, "POST", "/tournaments/"+ev.ID+"/join", ida.Token, nil); st != 200 {
		t.Fatalf("Ida joins: %d %s", st, body)
	}
	chat := "/tournaments/" + ev.ID + "/chat"
	if st, body := e2e.API(t, s.Base, "POST", chat, ida.Token, map[string]string{"text": "rigged event"}); st != 200 {
		t.Fatalf("Ida writes: %d %s", st, body)
	}
	if st, body := e2e.API(t, s.Base, "POST", "/reports", ann.Token, map[string]any{"tournament": ev.ID, "seq": 1, "reason": "chat"}); st != 201 {
		t.Fatalf("Ann reports Ida's line: %d %s", st, body)
	}

	mo.Open("/moderation")
	mo.Wait("the line's report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("rigged event") && tr.textContent.includes("event `+ev.ID+`"))`)
	mo.Click("#reports tr.open .report-act")
	mo.Wait("the event's line filled in", `document.querySelector("#action-event").value === `+strconv.Quote(ev.ID)+` && document.querySelector("#action-line").value === "1" && document.querySelector("#action-table").value === ""`)
	mo.TypeIn("#action-reason", "spam")
	mo.Click("#action-mute-line")
	mo.Wait("the mute in the log", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe muted Ida's chat (for 1 hour, the writer of line 1 of event `+ev.ID+`): spam")`)
	mo.Labelled("the moderators' page with an event's line")
	if st, body := e2e.API(t, s.Base, "POST", chat, ida.Token, map[string]string{"text": "hello?"}); st != 403 || !strings.Contains(string(body), "a moderator muted your chat") {
		t.Errorf("Ida writes once muted: %d %s, want 403", st, body)
	}
}

// TestReportEventLine: in an event's chat, as at a table, Ann reports a
// line to the moderators: Ben's, an account's, and Gus's, a guest's (his
// name is nobody's own, so the report goes by the line); the picker
// offers neither her own line nor anything to a guest, and Mo's queue
// holds both reports with their lines and the event.
func TestReportEventLine(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann, mo, gus := e2e.NewPlayer(t, b, "Ann", s.Base), e2e.NewPlayer(t, b, "Mo", s.Base), e2e.NewPlayer(t, b, "Gus", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	mo.SignUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")
	var ben struct{ Token string }
	st, body := e2e.API(t, s.Base, "POST", "/accounts", "", map[string]string{"name": "Ben", "password": "another fine phrase"})
	if err := json.Unmarshal(body, &ben); st != 201 || err != nil {
		t.Fatalf("Ben signs up: %d %s", st, body)
	}
	var ev struct{ ID string }
	st, body = e2e.API(t, s.Base, "POST", "/tournaments", ben.Token, map[string]any{"kind": "arena", "game": "nymphabet", "minutes": 30,
		"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}})
	if err := json.Unmarshal(body, &ev); st != 201 || err != nil {
		t.Fatalf("Ben's arena: %d %s", st, body)
	}
	chat := "/tournaments/" + ev.ID + "/chat"
	if st, body := e2e.API(t, s.Base, "POST", chat, ben.Token, map[string]string{"text": "rigged event"}); st != 200 {
		t.Fatalf("Ben writes: %d %s", st, body)
	}

	gus.Open("/")
	e2e.Eval[bool](gus, `(localStorage.setItem("parlour.name", JSON.stringify("Gus")), true)`)
	gus.Open("/tournaments/" + ev.ID)
	gus.Wait("the chat panel", `(document.querySelector("#t-chat")||{dataset:{}}).dataset.state === "live" && !!document.querySelector("#t-join")`)
	gus.Click("#t-join")
	gus.Wait("Gus in", `!!document.querySelector("#t-in")`)
	gus.TypeIn("#t-chat-text", "you all stink")
	gus.Click("#t-chat-send")
	gus.Wait("his line", `document.querySelector("#t-chat-log").textContent.includes("you all stink")`)
	if e2e.Eval[bool](gus, `!!document.querySelector("#t-chat #report-open")`) {
		t.Error("a guest, who may not report, is offered the report button")
	}

	ann.Open("/tournaments/" + ev.ID)
	ann.Wait("the chat panel", `(document.querySelector("#t-chat")||{dataset:{}}).dataset.state === "live"`)
	ann.TypeIn("#t-chat-text", "good luck, all")
	ann.Click("#t-chat-send")
	ann.Wait("the three lines", `document.querySelectorAll("#t-chat-log li[data-seq]").length === 3`)
	ann.Wait("the chat's report button", `!!document.querySelector("#t-chat #report-open")`)
	ann.Click("#t-chat #report-open")
	ann.Wait("the report form in the chat", `!!document.querySelector("#t-chat-report #report-form #report-name")`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll("#report-name option")].map(o => o.value + " " + o.textContent).join(" | ")`); got != "line:2 Gus (guest), line 2: you all stink | line:1 Ben, line 1: rigged event" {
		t.Errorf("the event chat's report offers %q, want Gus's line and Ben's, not Ann's own", got)
	}
	ann.Labelled("the event chat's report form")
	ann.Pick("#report-name", "line:1")
	ann.Pick("#report-reason", "chat")
	ann.TypeIn("#report-text", "calls the event rigged")
	ann.Click("#report-send")
	ann.Wait("the form gone once sent", `!document.querySelector("#report-form")`)
	ann.Click("#t-chat #report-open")
	ann.Wait("the report form again", `!!document.querySelector("#t-chat-report #report-form #report-name")`)
	ann.Pick("#report-name", "line:2")
	ann.Pick("#report-reason", "chat")
	ann.Click("#report-send")
	ann.Wait("the second form gone once sent", `!document.querySelector("#report-form")`)

	mo.Open("/moderation")
	row := func(who, text string) string {
		return `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes(` + strconv.Quote(who) + `) && tr.textContent.includes(` + strconv.Quote(text) + `) && tr.textContent.includes("event ` + ev.ID + `") && tr.textContent.includes("Ann"))`
	}
	mo.Wait("Ben's line's report in the queue", row("Ben", "rigged event"))
	mo.Wait("Gus's line's report in the queue", row("Gus", "you all stink"))
	if got := mo.Text("#queue-count"); got != "2 open reports." {
		t.Errorf("the queue counts %q", got)
	}
}
