package accounts

import (
	"testing"

	"parlour/web/e2e"
)

// TestRulesPageHeader: the rules pages, which the server draws, wear the
// same header as the client's: on a phone the links fold under Menu, and
// the account link names the account signed in (a guest's reads "Sign
// in"). The rules themselves read without the header's script.
func TestRulesPageHeader(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	for _, tt := range []struct {
		p    *e2e.Player
		want string
	}{{ann, "Ann"}, {ben, "Sign in"}} {
		p := tt.p
		p.Phone(false)
		p.Open("/rules/salvo")
		p.WaitPage("the rules with the header's script", `!!document.querySelector("article.doc h1") && document.querySelector("header.top").classList.contains("menu-ready")`)
		if got := p.Text("#account-link"); got != tt.want {
			t.Errorf("%s: the rules page's account link reads %q, want %q", p.Name, got, tt.want)
		}
		if e2e.Eval[bool](p, `getComputedStyle(document.querySelector("#main-nav")).display !== "none"`) {
			t.Errorf("%s: on a phone the rules page's links are unfolded before Menu is pressed", p.Name)
		}
		p.FitsWidth("the rules of Salvo")
	}
	ann.Click("#menu-toggle")
	ann.Click(`#main-nav a[href="/lobby"]`)
	ann.WaitPage("the lobby", `location.pathname === "/lobby" && !!document.querySelector("#main h1, #main h2")`)
	if got := ann.Text("#account-link"); got != "Ann" {
		t.Errorf("after the rules, the lobby's account link reads %q", got)
	}
}
