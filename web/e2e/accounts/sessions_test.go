package accounts

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestSignOutEverywhereElse: Ann, signed in in two browsers, signs out
// everywhere else from her account page: the other browser is signed
// out, told so at once on the account page it shows (its header, a
// message, the sign-in form), and this one stays signed in.
func TestSignOutEverywhereElse(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	here := e2e.NewPlayer(t, b, "Ann", base)
	here.SignUp("Ann", "correct horse battery")
	there := e2e.NewPlayer(t, b, "Ann elsewhere", base)
	there.Open("/account")
	there.Wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	there.TypeIn("#signin-name", "Ann")
	there.TypeIn("#signin-password", "correct horse battery")
	there.Click("#signin button[type=submit]")
	there.Wait("signed in", `document.querySelector("#account-link").textContent === "Ann"`)
	there.Open("/account")
	there.Wait("the account page there", `!!document.querySelector("#signout-others")`)

	here.Open("/account")
	here.Wait("the account page", `!!document.querySelector("#signout-others")`)
	here.Click("#signout-others")
	here.Wait("the sessions ended", `(document.querySelector("#toast")||{}).textContent === "Signed out of 1 other session"`)

	there.Wait("told there without a new page", `document.querySelector("#account-link").textContent === "Sign in" && (document.querySelector("#toast")||{}).textContent === "You are signed out as Ann: your session has ended. Sign in again to play as Ann." && !!document.querySelector("#signin-name")`)
	there.Open("/account")
	there.Wait("signed out there", `!!document.querySelector("#signin-name") && document.querySelector("#account-link").textContent === "Sign in"`)
	here.Open("/account")
	here.Wait("still signed in here", `!!document.querySelector("#signout-others") && document.querySelector("#account-link").textContent === "Ann"`)
	here.Click("#signout-others")
	here.Wait("nobody else", `(document.querySelector("#toast")||{}).textContent === "No other session was signed in"`)
}

// TestLongPasswordSignsIn: a password as long as the server takes (a
// passphrase of 240 characters) is typed whole into the sign-in form and
// signs in; the field cut it at 200, and the sign-in failed.
func TestLongPasswordSignsIn(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	pw := strings.Repeat("long pass ", 24)
	res, err := http.Post(base+"/api/v1/accounts", "application/json", strings.NewReader(fmt.Sprintf(`{"name": "Lena", "password": %q}`, pw)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("Lena's account: %s", res.Status)
	}
	other := e2e.NewPlayer(t, b, "Lena", base)
	other.Open("/account")
	other.Wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	other.TypeIn("#signin-name", "Lena")
	other.TypeIn("#signin-password", pw)
	other.Wait("the password typed whole", `document.querySelector("#signin-password").value.length === 240`)
	other.Click("#signin button[type=submit]")
	other.Wait("signed in", `document.querySelector("#account-link").textContent === "Lena"`)
}
