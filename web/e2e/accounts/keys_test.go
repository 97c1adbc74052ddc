package accounts

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"parlour/web/e2e"
)

// newPublicKey returns a fresh ed25519 public key in authorized_keys form.
func newPublicKey(t *testing.T, comment string) (string, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sk))) + " " + comment, ssh.FingerprintSHA256(sk)
}

// TestSSHKeysOnAccountPage: the account page lists the account's SSH
// keys with when each was added and whether it has signed in yet; a key
// pasted in is added, a bad one refused in place, a key added from
// elsewhere (another device, or someone who should not) is announced on
// the open page, and a key is deleted from its row.
func TestSSHKeysOnAccountPage(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/account")
	ann.Wait("the keys card", `!!document.querySelector("#ssh-keys li")`)
	if got := ann.Text("#ssh-keys"); !strings.Contains(got, "No keys yet") {
		t.Fatalf("an account without keys lists %q", got)
	}
	ann.Accessible("the account page's keys")

	ann.TypeIn("#ssh-key-text", "not a key at all")
	ann.Click("#ssh-key-add button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#ssh-key-error").textContent !== ""`)
	t.Logf("a bad key: %s", ann.Text("#ssh-key-error"))

	// A private key pasted by mistake is refused by the page itself: it
	// is sent nowhere, and taken off the page.
	e2e.Eval[bool](ann, `(window.keysPosted = 0, window.realFetch = window.fetch, window.fetch = (u, o) => { if (String(u).includes("/keys") && o && o.method === "POST") window.keysPosted++; return window.realFetch(u, o); }, true)`)
	ann.TypeIn("#ssh-key-text", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----")
	ann.Click("#ssh-key-add button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#ssh-key-error").textContent.includes("That is your private key")`)
	if left, posted := e2e.Eval[string](ann, `document.querySelector("#ssh-key-text").value`), e2e.Eval[int](ann, `window.keysPosted`); left != "" || posted != 0 {
		t.Fatalf("a pasted private key: %d posts, %q left in the box", posted, left)
	}

	// A key signs in without a password: adding one asks for it.
	key, fp := newPublicKey(t, "ann@laptop")
	ann.TypeIn("#ssh-key-text", key)
	ann.Click("#ssh-key-add button[type=submit]")
	ann.Wait("the refusal for want of the password", `document.querySelector("#ssh-key-error").textContent.includes("give your password")`)
	if got := ann.Text("#ssh-keys"); !strings.Contains(got, "No keys yet") {
		t.Fatalf("a key sent without the password is listed: %q", got)
	}
	ann.TypeIn("#ssh-key-password", "correct horse battery")
	ann.Click("#ssh-key-add button[type=submit]")
	ann.Wait("the key in the list", fmt.Sprintf(`document.querySelector("#ssh-keys").textContent.includes(%q)`, fp))
	ann.Wait("the notice saying how to confirm it", `(document.getElementById("toast")||{}).textContent.includes("type your password there to confirm it")`)
	row := ann.Text("#ssh-keys")
	// Pasted, it signs in once confirmed at the SSH door, which the row
	// and the notice say.
	if !strings.Contains(row, "ann@laptop") || !strings.Contains(row, "added") || !strings.Contains(row, "not confirmed yet") {
		t.Fatalf("the key's row: %q", row)
	}

	// A key added elsewhere is announced on the open page.
	other, otherFP := newPublicKey(t, "")
	if st := e2e.Eval[int](ann, fmt.Sprintf(`fetch("/api/v1/keys", {method: "POST", credentials: "same-origin",
		headers: {"Content-Type": "application/json"}, body: JSON.stringify({key: %q, password: "correct horse battery"})}).then(r => r.status)`, other)); st != 201 {
		t.Fatalf("adding a key from elsewhere: %d", st)
	}
	ann.Wait("the notice", fmt.Sprintf(`(document.getElementById("toast")||{}).textContent.includes(%q)`, otherFP))

	e2e.Eval[bool](ann, `window.confirm = () => true; true`)
	ann.Click(fmt.Sprintf(`button[aria-label="Delete the key %s"]`, fp))
	ann.Wait("the key gone", fmt.Sprintf(`!document.querySelector("#ssh-keys").textContent.includes(%q)`, fp))
}
