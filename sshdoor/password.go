package sshdoor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// offerPassword, for a session whose key no account added (or that came
// with none) and whose user name is an account's, asks for that
// account's password (up to three times; an empty line plays as a guest)
// and, once it is right, adds the key, if any, to the account, confirmed
// (Config.ProveKey), so that the next session signs in by the key alone.
// holder is the account that holds the key unconfirmed, if any: when the
// user name is no account's, the prompt offers to confirm it there. It
// returns the account's name and session token, or ok false and whether name is an
// account's all the same (a guest may not take it then), with a note for
// the home screen when three wrong passwords made a guest. An error says
// the session ended at the prompt: the client went, or pressed no key
// for the door's idle time, when the session is told so and closed.
func (d *Door) offerPassword(sess ssh.Session, hc *http.Client, name string, pub gossh.PublicKey, holder string) (acct, tok string, ok, taken bool, note string, err error) {
	// The prompt waits as long as the idle time lets it; each call to the
	// API has its own time (api).
	ctx := sess.Context()
	var intro string
	taken = true // the login is an account's name: a guest may not take it
	switch {
	case name != "" && d.api(ctx, hc, "GET", "/api/v1/players/"+url.PathEscape(name), "", nil, nil) == nil:
		intro = fmt.Sprintf("%s has an account here, and this key is not among its keys.\n", name)
		if strings.EqualFold(name, holder) {
			intro = fmt.Sprintf("%s has an account here, and this key is among its keys, waiting to be confirmed: the account's password confirms it, once.\n", name)
		}
	case holder != "":
		// Whoever added the key to the account may have been its
		// holder under another login, or somebody with a copy of the
		// public key: only the account's password tells.
		name, taken = holder, false
		intro = fmt.Sprintf("This key is among the keys of the account %s, waiting to be confirmed: if the account is yours, its password confirms the key.\n", name)
	default:
		return "", "", false, false, "", nil // no such account: a guest
	}
	// A prompt left alone is closed as the client is for want of keys:
	// the read it waits in ends with the session.
	idle := time.AfterFunc(d.cfg.Idle, func() {
		io.WriteString(sess, d.idleLine())
		sess.Exit(0)
	})
	defer idle.Stop()
	key := func() { idle.Reset(d.cfg.Idle) }
	// So is a prompt open when the server stops.
	asked := make(chan struct{})
	defer close(asked)
	go func() {
		select {
		case <-d.closing:
			io.WriteString(sess, "\r\n"+shuttingDown+"\r\n")
			sess.Exit(0)
		case <-asked:
		}
	}()
	prompt := "Password to sign in and add the key (enter alone: play as a guest): "
	if strings.EqualFold(name, holder) {
		prompt = "Password to sign in and confirm the key (enter alone: play as a guest): "
	}
	if pub == nil {
		fmt.Fprintf(sess, "%s has an account here.\n", name)
		prompt = "Password to sign in (enter alone: play as a guest): "
	} else {
		io.WriteString(sess, intro)
	}
	var refused error
	for range 3 {
		fmt.Fprint(sess, prompt)
		pw, err := readSecret(sess, key)
		if errors.Is(err, errInterrupted) {
			// ctrl+c quits here as it does on every screen after.
			fmt.Fprint(sess, "\nNot signed in: the session is closed.\n")
			return "", "", false, taken, "", err
		}
		if err != nil {
			return "", "", false, taken, "", fmt.Errorf("reading the password: %w", err)
		}
		fmt.Fprintln(sess)
		if pw == "" {
			return "", "", false, taken, "", nil
		}
		var s struct{ Name, Token string }
		if err := d.api(ctx, hc, "POST", "/api/v1/sessions", "", map[string]string{"name": name, "password": pw}, &s); err != nil {
			fmt.Fprintln(sess, err)
			refused = err
			continue
		}
		if pub == nil {
			fmt.Fprintf(sess, "Signed in as %s. (With an SSH key added to your account, the next session needs no password.)\n", s.Name)
			return s.Name, s.Token, true, true, "", nil
		}
		if err := d.proveKey(ctx, s.Token, pub); err != nil {
			fmt.Fprintf(sess, "Signed in, but the key was not added: %v\n", err)
		} else {
			fmt.Fprintf(sess, "Signed in as %s; the key %s is your account's: the next session signs in by it alone.\n", s.Name, gossh.FingerprintSHA256(pub))
		}
		return s.Name, s.Token, true, true, "", nil
	}
	return "", "", false, taken, refusedThrice(name, refused), nil
}

// refusedThrice is the home screen's word for a session refused three
// times at the prompt, the last time for why: the prompt's refusals are
// gone under the screen, and the player would find themselves a guest
// without a name, unsaid.
func refusedThrice(name string, why error) string {
	return fmt.Sprintf("Not signed in as %s, three times refused (the last: %v): you play as a guest; s signs in.", name, why)
}

// proveKey adds pub, confirmed, to the account of token, within apiWait.
func (d *Door) proveKey(ctx context.Context, token string, pub gossh.PublicKey) error {
	ctx, cancel := context.WithTimeout(ctx, apiWait)
	defer cancel()
	return d.cfg.ProveKey(ctx, token, pub)
}

// apiWait bounds one request of the door to the HTTP API.
const apiWait = time.Minute

// api sends one request to the HTTP API, within apiWait; a refusal comes
// back as an error in the server's words.
func (d *Door) api(ctx context.Context, hc *http.Client, method, path, token string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, apiWait)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(d.cfg.API, "/")+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := hc.Do(req)
	if err != nil {
		// The request's address is the door's own way in, of no use to
		// the player: the log keeps it.
		d.cfg.Log.Warn("ssh door: the API did not answer", "method", method, "path", path, "err", err)
		return errors.New("the server did not answer just now; try again in a moment")
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode >= 300 {
		var e struct{ Error string }
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return fmt.Errorf("%s", e.Error)
		}
		return fmt.Errorf("the server answered %s", res.Status)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// errInterrupted says the player pressed ctrl+c at a prompt: they leave,
// as ctrl+c does on every screen of the client.
var errInterrupted = errors.New("interrupted")

// readSecret reads a line from a session's raw terminal without echoing
// it, calling key at each key: enter ends it, backspace erases, ctrl+d
// gives up, as an empty line does, and ctrl+c returns errInterrupted.
// Another error says the input ended.
func readSecret(r io.Reader, key func()) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for {
		if _, err := r.Read(b); err != nil {
			return "", err
		}
		key()
		switch b[0] {
		case '\r', '\n':
			return string(line), nil
		case 3:
			return "", errInterrupted
		case 4:
			return "", nil
		case 127, 8:
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		default:
			if len(line) < 1024 {
				line = append(line, b[0])
			}
		}
	}
}
