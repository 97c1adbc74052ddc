package tables

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/ssh"

	"parlour/web/e2e"
)

// TestCrossSiteForgery: a page on another port of the same host is the
// same site to the browser, which sends it Parlour's Lax session cookie.
// Its scripts try what a forged form can: post an SSH key and a challenge
// as the signed-in player, with the cookie and a text/plain body. Parlour
// refuses both by their Origin, and nothing changes.
func TestCrossSiteForgery(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	if st, body := e2e.API(t, base, "POST", "/accounts", "", map[string]string{"name": "Bob", "password": "correct horse staple"}); st != 201 {
		t.Fatalf("Bob's sign-up: %d %s", st, body)
	}

	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sk)))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	evil := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>prizes</title><p>You won!</p>`)
	})}
	go evil.Serve(ln)
	t.Cleanup(func() { evil.Close() })

	ann.Do("open the other port's page", chromedp.Navigate("http://"+ln.Addr().String()+"/"))
	// no-cors is what a form can do: a simple request, the cookie sent,
	// the answer unreadable to the page.
	sent := e2e.Eval[int](ann, fmt.Sprintf(`(async () => {
		const post = (path, body) => fetch(%q + path, {method: "POST", mode: "no-cors", credentials: "include",
			headers: {"Content-Type": "text/plain"}, body: JSON.stringify(body)});
		await post("/api/v1/keys", {key: %q, password: "correct horse battery"});
		await post("/api/v1/challenges", {to: "Bob", game: "nymphabet"});
		return 2;
	})()`, base, key))
	if sent != 2 {
		t.Fatalf("the page's posts: %d", sent)
	}

	ann.Open("/account")
	ann.Wait("the account screen", `!!document.querySelector("#chpw-old")`)
	keys := e2e.Eval[string](ann, `fetch("/api/v1/keys", {credentials: "same-origin"}).then(r => r.text())`)
	if strings.Contains(keys, "ssh-ed25519") {
		t.Fatalf("the other port's page added an SSH key: %s", keys)
	}
	challenges := e2e.Eval[string](ann, `fetch("/api/v1/challenges", {credentials: "same-origin"}).then(r => r.text())`)
	if strings.Contains(challenges, `"Bob"`) {
		t.Fatalf("the other port's page made a challenge: %s", challenges)
	}
	// Parlour's own page still changes things with the same cookie.
	st := e2e.Eval[int](ann, fmt.Sprintf(`fetch("/api/v1/keys", {method: "POST", credentials: "same-origin",
		headers: {"Content-Type": "application/json"}, body: JSON.stringify({key: %q, password: "correct horse battery"})}).then(r => r.status)`, key))
	if st != 201 && st != 200 {
		t.Fatalf("adding the key from Parlour's own page: %d", st)
	}
}
