package e2e

import (
	"fmt"
	"strconv"
	"strings"
)

// SignUp signs p up on the account screen as name with password and
// waits for the profile the sign-up leads to.
func (p *Player) SignUp(name, password string) {
	p.t.Helper()
	p.trySignUp(name, password)
	p.Wait("the new profile", fmt.Sprintf(`(document.querySelector("#profile-name")||{}).textContent === %q`, name))
	p.Wait("the header's account", fmt.Sprintf(`document.querySelector("#account-link").textContent === %q`, name))
}

// trySignUp fills and sends the sign-up form.
func (p *Player) trySignUp(name, password string) {
	p.t.Helper()
	p.Open("/account")
	p.Wait("the sign-up form", `!!document.querySelector("#signup-name")`)
	p.TypeIn("#signup-name", name)
	p.TypeIn("#signup-password", password)
	p.Click("#signup button[type=submit]")
}

// SignUpRefused checks that a sign-up is refused in place with the
// server's words.
func (p *Player) SignUpRefused(name, password, want string) {
	p.t.Helper()
	p.trySignUp(name, password)
	p.Wait("the refusal", `document.querySelector("#signup-error").textContent !== ""`)
	if got := p.Text("#signup-error"); !strings.Contains(got, want) {
		p.t.Errorf("signing up as %q with %q: the form says %q, want it to say %q", name, password, got, want)
	}
	if Eval[string](p, `location.pathname`) != "/account" {
		p.t.Errorf("a refused sign-up left the account screen")
	}
}

// Rating reads p's rating in pool from the profile on screen.
func (p *Player) Rating(pool string) float64 {
	p.t.Helper()
	s := Eval[string](p, fmt.Sprintf(`(document.querySelector('#ratings tr[data-pool=%q] .rating')||{}).firstChild?.textContent || ""`, pool))
	r, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.fail("no %s rating on the profile (%q)", pool, s)
	}
	return r
}

// SendChallenge opens the challenge form with the button matching open
// (on a profile or in the lobby), names the player when to is not empty,
// and sends it.
func (p *Player) SendChallenge(open, to string) {
	p.t.Helper()
	p.Click(open)
	p.Wait("the challenge form", `!!document.querySelector("#challenge-form #challenge-game")`)
	if to != "" {
		p.TypeIn("#challenge-to", to)
	}
	p.Click("#challenge-send")
}
