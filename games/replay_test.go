package games

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

func TestReplay(t *testing.T) {
	t.Parallel()
	reg := Registry()
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"effigy"}]}`
	ans, err := Replay(reg, []byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	m := asJSON(t, ans)
	steps := m["steps"].([]any)
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2", len(steps))
	}
	first := steps[0].(map[string]any)
	views := first["views"].([]any)
	if len(views) != 2 {
		t.Fatalf("%d views per step, want 2", len(views))
	}
	if cur := views[0].(map[string]any)["current"]; cur != "E" {
		t.Errorf("after ABDICATED the current letter is %v, want E", cur)
	}
	if start := m["start"].([]any)[0].(map[string]any)["current"]; start != "A" {
		t.Errorf("before any move the current letter is %v, want A", start)
	}

	refusedRec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"zebra"}]}`
	ans, err = Replay(reg, []byte(refusedRec))
	if err != nil || !strings.Contains(ans.Refused, "move 2 by Ben") {
		t.Fatalf("refused move: %v, refused %q", err, ans.Refused)
	}
	if n := len(asJSON(t, ans)["steps"].([]any)); n != 1 {
		t.Errorf("refused at move 2: %d steps, want 1", n)
	}
}

func TestReplayBadInput(t *testing.T) {
	t.Parallel()
	reg := Registry()
	tests := []struct {
		name, body string
		notRecord  bool // wraps game.ErrNotRecord (the API's 400), or not (422)
		has        string
	}{
		{"empty", "", true, "not a Parlour game record"},
		{"not json", "hello", true, "not a Parlour game record"},
		{"wrong version", `{"parlour":2,"game":"quizl","players":["A"],"moves":[]}`, true, "format version"},
		{"unknown game", `{"parlour":1,"game":"chess","players":["A","B"],"moves":[]}`, false, "chess"},
		{"foreign lexicon", `{"parlour":1,"game":"nymphabet","lexicon":"/etc/passwd","players":["A","B"],"moves":[]}`, false, "does not hold"},
		{"hidden setup", `{"parlour":1,"game":"quizl","players":["A","B"],"setup":{"A":"hidden","B":"hidden"},"moves":[]}`, false, "setup"},
	}
	for _, tt := range tests {
		ans, err := Replay(reg, []byte(tt.body))
		if err == nil {
			t.Errorf("%s: answered %+v", tt.name, ans)
			continue
		}
		if errors.Is(err, game.ErrNotRecord) != tt.notRecord {
			t.Errorf("%s: %v wraps game.ErrNotRecord %v, want %v", tt.name, err, !tt.notRecord, tt.notRecord)
		}
		if !strings.Contains(err.Error(), tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, err, tt.has)
		}
	}
}

// TestReplayTooManyMoves: a record of more moves than the viewer steps
// through is refused, saying how many it takes, before any is played.
func TestReplayTooManyMoves(t *testing.T) {
	t.Parallel()
	moves := strings.Repeat(`{"by":"Ann","move":"x"},`, MaxReplayMoves+1)
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[` + strings.TrimSuffix(moves, ",") + `]}`
	_, err := Replay(Registry(), []byte(rec))
	if err == nil || !strings.Contains(err.Error(), "at most 2000") {
		t.Fatalf("%d moves: %v, want a refusal naming the cap", MaxReplayMoves+1, err)
	}
}

// FuzzReplay feeds the replay viewer's record decoder arbitrary bytes: it
// must answer (a record or an error), never panic.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"}]}`))
	f.Add([]byte(`{"parlour":1,"game":"salvo","players":["A","B"],"setup":{"A":{"fleet":[]}},"moves":[]}`))
	f.Add([]byte(`{"parlour":1,"game":"wordfight","players":["A"],"moves":[{"by":"A","move":"declare cat"}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	reg := Registry()
	f.Fuzz(func(t *testing.T, b []byte) {
		ans, err := Replay(reg, b)
		if err == nil && ans == nil {
			t.Fatal("no answer and no error")
		}
		if err == nil {
			if _, err := json.Marshal(ans); err != nil {
				t.Fatalf("answer does not encode: %v", err)
			}
		}
	})
}

// TestReplayFetchedEarly: a record fetched while its game went on lacks
// the others' setups or masks their answers (game.Record.For); replayed,
// it says so, rather than "no setup" or that "answer" is not a move.
func TestReplayFetchedEarly(t *testing.T) {
	t.Parallel()
	reg := Registry()
	lex, err := lexicon.Load("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, rec, who string }{
		{"salvo", `{"parlour":1,"game":"salvo","players":["Ann","Ben"],
			"setup":{"Ann":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]},"Ben":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}},
			"moves":[{"by":"Ann","move":"fire A1 A2 A3 A4 A5"}]}`, "Ann"},
		{"wordfight", `{"parlour":1,"game":"wordfight","players":["Ann","Ben"],
			"moves":[{"by":"Ann","move":"declare cart"},{"by":"Ben","move":"place B2 across"},{"by":"Ann","move":"cannot"}]}`, "Ann"},
	} {
		rec, err := game.DecodeBytes([]byte(c.rec))
		if err != nil {
			t.Fatal(err)
		}
		cfg, st, _, err := game.Replay(reg, rec, lex)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g, _ := reg.Lookup(rec.Game)
		seat, _ := cfg.SeatOf(c.who)
		early := rec.For(g, cfg, st.Result(), seat)
		_, _, _, err = game.Replay(reg, early, lex)
		var ref *game.Refusal
		if !errors.As(err, &ref) || !strings.Contains(ref.Err.Error(), "fetch it again once the game is over") {
			t.Errorf("%s: the record as %s fetched it mid-game replays with %v", c.name, c.who, err)
		}
	}
}

// TestReplayViewerAbortsAndMasks: the replay viewer referees a record as
// parlour replay does: an aborted record ends aborted, without a result;
// an abort the rules do not allow is refused; and a record fetched while
// its game went on says so rather than that its masks are no moves.
func TestReplayViewerAbortsAndMasks(t *testing.T) {
	t.Parallel()
	reg := Registry()
	for _, c := range []struct {
		name, rec string
		status    game.Status
		steps     int
		refused   string // "" when the record replays
	}{
		{"aborted", `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"}],"aborted":{"by":"Ben"}}`,
			game.Aborted, 1, ""},
		{"aborted before any move", `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[],"aborted":{"by":"ann"}}`,
			game.Aborted, 0, ""},
		{"abort after every player moved", `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"echo"}],"aborted":{"by":"Ben"}}`,
			game.InProgress, 2, "abort by Ben refused: every player has made a move"},
		{"abort by a stranger", `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[],"aborted":{"by":"Cy"}}`,
			game.InProgress, 0, `abort by Cy refused: "Cy" is not a player`},
		{"masked answer", `{"parlour":1,"game":"wordfight","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"declare cat"},{"by":"Ann","move":"answer"}]}`,
			game.InProgress, 1, "fetch it again once the game is over"},
	} {
		ans, err := Replay(reg, []byte(c.rec))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if ans.Result.Status != c.status || len(ans.Steps) != c.steps {
			t.Errorf("%s: status %v after %d steps, want %v after %d", c.name, ans.Result.Status, len(ans.Steps), c.status, c.steps)
		}
		if c.refused == "" && ans.Refused != "" || !strings.Contains(ans.Refused, c.refused) {
			t.Errorf("%s: refused %q, want %q", c.name, ans.Refused, c.refused)
		}
	}
}
