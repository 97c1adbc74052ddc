package sshdoor

import (
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// TestChallengeOverSSH: an SSH session signed in by its key holds the
// player stream, as a browser does: the server lists its player online,
// a challenge made to them reaches their screen as it comes, and they
// accept it there, which seats them at its table; their recent games are
// the server's, though the door keeps no file.
func TestChallengeOverSSH(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Config{})
	annTok := f.signUp("Ann", "correct horse battery")
	annKey := newSigner(t)
	key := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(annKey.PublicKey()))) + " ann@laptop"
	if st := f.do("POST", "/api/v1/keys", annTok, map[string]string{"key": key}, nil); st != 201 {
		t.Fatalf("adding Ann's key: %d", st)
	}
	benTok := f.signUp("Ben", "correct horse battery")

	ann := f.dial("ann", annKey, "")
	ann.waitFor("signed in as Ann")
	var ch struct {
		ID string `json:"id"`
	}
	if st := f.do("POST", "/api/v1/challenges", benTok, map[string]any{"to": "ann", "game": "nymphabet"}, &ch); st != 201 {
		t.Fatalf("Ben's challenge: %d", st)
	}
	ann.waitFor("Ben challenges you to Nymphabet: p answers")
	ann.setMark()
	ann.send("p")
	ann.waitFor("Challenges to you")
	ann.waitFor("Ben challenges you to Nymphabet")
	ann.send("a")
	ann.waitFor("you: Ann")
	var out struct {
		Out []struct{ ID string } `json:"out"`
	}
	if st := f.do("GET", "/api/v1/challenges", benTok, nil, &out); st != 200 || len(out.Out) != 0 {
		t.Fatalf("Ben's open challenges after Ann accepted: %d %+v", st, out)
	}
	var mine struct {
		Tables []struct {
			ID string `json:"id"`
		} `json:"tables"`
	}
	if st := f.do("GET", "/api/v1/identity/tables", benTok, nil, &mine); st != 200 || len(mine.Tables) != 1 {
		t.Fatalf("Ben's tables: %d %+v", st, mine)
	}

	// The table is among Ann's recent games in a new session.
	again := f.dial("ann", annKey, "")
	again.waitFor("signed in as Ann")
	again.waitFor("Your recent games")
	again.waitFor("Nymphabet " + mine.Tables[0].ID)
}
