package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"parlour/server/moderation"
	"parlour/store/sqlite"
)

// grantModerator gives name the moderator role straight in the server's
// data, as parlour admin grant does on the server's machine.
func grantModerator(t *testing.T, s *testServer, name string) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), s.db, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := moderation.Grant(context.Background(), st, name, true, "", time.Now()); err != nil {
		t.Fatal(err)
	}
}

// TestReportReachesModerator: Ann reports Ben from his profile (a report
// the server refuses shows its words in place) and from their table's
// chat, the reports reach the queue on Mo's moderators' page, and Mo
// closes one; Ben, who is no
// moderator, gets no queue and no link to it.
func TestReportReachesModerator(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	b := newBrowser(t)
	ann, ben, mo := newPlayer(t, b, "Ann", s.base), newPlayer(t, b, "Ben", s.base), newPlayer(t, b, "Mo", s.base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")
	mo.signUp("Moe", "a moderate passphrase")
	grantModerator(t, s, "moe")

	ann.open("/players/Ben")
	ann.wait("the report button", `!!document.querySelector("#report-open")`)
	ann.click("#report-open")
	ann.wait("the report form", `!!document.querySelector("#report-form #report-reason")`)
	ann.accessibleThemes("the report form")
	ann.labelled("the report form")
	// "Something else" without a word: the server's refusal, in place.
	eval[bool](ann, `(s => { s.value = "other"; return true; })(document.querySelector("#report-reason"))`)
	ann.click("#report-send")
	ann.wait("the refusal", `document.querySelector("#report-error").textContent.includes("a few words")`)
	eval[bool](ann, `(s => { s.value = "chat"; return true; })(document.querySelector("#report-reason"))`)
	ann.typeIn("#report-text", "insults in every game")
	ann.click("#report-send")
	ann.wait("the form gone once sent", `!document.querySelector("#report-form")`)

	// From a table's chat: the accounts at the table other than herself.
	ann.open("/new/nymphabet")
	ann.wait("the new table form", `!!document.querySelector("form button[type=submit]")`)
	ann.clickText("#main form button", "A friend")
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ann.wait("the chat's report button", `!!document.querySelector("#chat #report-open")`)
	ann.click("#chat #report-open")
	ann.wait("the report form in the chat", `!!document.querySelector("#chat-report #report-form #report-reason")`)
	if got := eval[string](ann, `document.querySelector("#report-name").value + " / " + document.querySelector("#report-title").textContent`); got != "Ben / Report Ben" {
		t.Errorf("the chat's report is about %q, want Ben alone", got)
	}
	ann.labelled("the chat's report form")
	eval[bool](ann, `(s => { s.value = "cheating"; return true; })(document.querySelector("#report-reason"))`)
	ann.click("#report-send")
	ann.wait("the chat's form gone once sent", `!document.querySelector("#report-form")`)

	mo.open("/moderation")
	mo.wait("the report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("Ben") && tr.textContent.includes("insults in every game") && tr.textContent.includes("Abuse in chat") && tr.textContent.includes("Ann"))`)
	mo.wait("the chat's report in the queue", `[...document.querySelectorAll("#reports tr[data-report]")].some(tr => tr.textContent.includes("Cheating") && tr.querySelector("a[href^='/t/']"))`)
	if got := mo.text("#queue-count"); got != "2 open reports." {
		t.Errorf("the queue counts %q", got)
	}
	mo.wait("the header's link for moderators", `!!document.querySelector("#moderation-link")`)
	mo.shot("moderation-queue")
	mo.accessibleThemes("the moderators' page")
	mo.labelled("the moderators' page")
	mo.click("#reports tr.open .report-close")
	mo.wait("the report closed", `document.querySelector("#queue-count").textContent === "1 open report." && [...document.querySelectorAll("#reports tr.closed")].some(tr => tr.textContent.includes("closed by Moe"))`)
	mo.wait("the log's line", `(document.querySelector("#log-lines")||{}).textContent?.includes("Moe closed a report about Ben")`)

	ben.open("/moderation")
	ben.wait("the refusal", `!!document.querySelector("#moderation-denied")`)
	if eval[bool](ben, `!!document.querySelector("#moderation-link") || !!document.querySelector("#reports")`) {
		t.Error("Ben, no moderator, sees the moderators' link or queue")
	}
	if strings.Contains(ben.text("main"), "insults") {
		t.Error("Ben sees the report")
	}
}
