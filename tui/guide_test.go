package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstGameGuide: the first table of a game opens a short guide at
// the foot of the play screen, under the board, that steps on and back,
// closes, is kept as seen (it opens by itself no more), reopens from the
// help, and gives way to a key of the game, which then plays.
func TestFirstGameGuide(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	dir := t.TempDir()
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: dir, Guide: true})
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	if strings.Contains(tm.screen(), "short guide") {
		t.Errorf("the guide opened at the fleet editor, before play")
	}
	tm.key("enter")
	s := tm.waitFor("the guide", has("Your first game of Salvo: a short guide · step 1 of 4", "the ocean you aim at"))
	if !strings.Contains(s, "Aiming at") || !strings.Contains(s, " 10 ") {
		t.Errorf("the board is not in sight above the guide:\n%s", s)
	}
	checkFits(t, tm)
	for _, step := range []struct{ key, want string }{
		{"enter", "step 2 of 4"},
		{"left", "step 1 of 4"},
		{"right", "step 2 of 4"},
		{"right", "step 3 of 4"},
		{"enter", "step 4 of 4"},
		{"right", "step 4 of 4"},
	} {
		tm.key(step.key)
		if s := tm.screen(); !strings.Contains(s, step.want) {
			t.Fatalf("after %s the guide is not at %s:\n%s", step.key, step.want, s)
		}
	}
	if s := tm.screen(); !strings.Contains(s, "enter got it") || !strings.Contains(s, "wrong outline loses") {
		t.Errorf("the last step does not say so:\n%s", s)
	}
	// News that comes while the guide is open shows under it, once,
	// where the lines the guide took held it.
	news := "Ben, whom you follow, started a game of Nymphabet: w on the players screen watches it, and this news runs on to a second line"
	tm.table().tell(news)
	s = tm.screen()
	if n := strings.Count(s, "Ben, whom you follow"); n != 1 || !strings.Contains(s, "second line") || !strings.Contains(s, "step 4 of 4") {
		t.Errorf("the news shows %d times beside the guide:\n%s", n, s)
	}
	checkFits(t, tm)
	tm.table().note = ""
	tm.key("enter")
	if s := tm.screen(); strings.Contains(s, "short guide") || !strings.Contains(s, "(0 of 5 shots)") {
		t.Fatalf("enter on the last step did not close the guide, or fired:\n%s", s)
	}
	raw, err := os.ReadFile(filepath.Join(dir, settingsFile))
	if err != nil {
		t.Fatal(err)
	}
	var set settings
	if err := json.Unmarshal(raw, &set); err != nil || len(set.Guided) != 1 || set.Guided[0] != "salvo" {
		t.Errorf("the guide is not kept as seen: %s (%v)", raw, err)
	}

	// ? then g opens it again; a key of the game closes it and plays.
	tm.key("?")
	if s := tm.screen(); !strings.Contains(s, "g: the first-game guide of Salvo") {
		t.Errorf("the help does not offer the guide:\n%s", s)
	}
	tm.key("g")
	tm.waitFor("the guide again", has("step 1 of 4"))
	tm.key("space")
	if s := tm.screen(); strings.Contains(s, "short guide") || !strings.Contains(s, "Salvo: A1 (1 of 5 shots)") {
		t.Errorf("space did not close the guide and aim:\n%s", s)
	}

	// A second Salvo table: no guide by itself.
	tm.key("ctrl+a")
	tm.key("ctrl+a")
	tm.waitFor("the game aborted", over)
	tm.key("esc")
	tm2 := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: dir, Guide: true})
	tm2.open("salvo", 0)
	tm2.key("enter")
	tm2.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	tm2.key("enter")
	if s := tm2.waitFor("play", has("(0 of 5 shots)")); strings.Contains(s, "short guide") {
		t.Errorf("the guide opened again after it was closed:\n%s", s)
	}
}

// TestGuideNotAfterAGame: a player whose recent games hold a game of the
// kind already (another device's, an account's) gets no guide by itself.
func TestGuideNotAfterAGame(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	dir := t.TempDir()
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: dir})
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("play", has("A word starting with A"))
	tm.key("esc")
	tm.waitFor("home", has("Your recent games", "Nymphabet"))

	tm2 := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: dir, Guide: true})
	tm2.open("nymphabet", 0)
	tm2.key("enter")
	if s := tm2.waitFor("play", has("A word starting with A")); strings.Contains(s, "short guide") {
		t.Errorf("the guide opened for a player who has played Nymphabet:\n%s", s)
	}
	// The other games' guides still open by themselves.
	tm2.key("esc")
	tm2.open("wordfight", 0)
	tm2.key("enter")
	tm2.waitFor("the Word Fight guide", has("Your first game of Sightless Word Fight: a short guide"))
	checkFits(t, tm2)
}

// TestGuideSteps: each game's guide, and the steps that follow the
// table's rules and the seat's screen.
func TestGuideSteps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, game, rules string
		own               bool
		steps             int
		want, not         string
	}{
		{"quizl", "quizl", `{}`, true, 5, "Your grid is on the right", ""},
		{"quizl alone", "quizl", `{}`, false, 4, "Sure of the password?", "Your grid"},
		{"salvo", "salvo", `{}`, true, 4, "each ship you sink costs you one shot", "of yours that is sunk"},
		{"salvo owner", "salvo", `{"shots_lost_by":"owner"}`, true, 4, "each ship of yours that is sunk costs you one shot", "each ship you sink"},
		{"salvo practice", "salvo", `{}`, false, 4, "the computer's five ships hidden in it. Nobody fires back.", "Your own fleet"},
		{"salvo practice owner", "salvo", `{"shots_lost_by":"owner"}`, false, 4, "keep them all", "costs you one shot"},
		{"wordfight", "wordfight", `{}`, true, 4, "c twice", ""},
		{"nymphabet", "nymphabet", `{"mode":"standard"}`, true, 3, "crosses off Z loses", "cyclic"},
		{"nymphabet cyclic", "nymphabet", `{"mode":"cyclic"}`, true, 3, "crosses off the last one wins", "Z loses"},
		{"nymphabet scoring", "nymphabet", `{"mode":"scoring"}`, true, 3, "the higher product wins", "Z loses"},
		{"a bad rule", "nymphabet", `{"mode":7}`, true, 3, "crosses off Z loses", ""},
		{"no such game", "chess", `{}`, true, 0, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			steps := guideSteps(c.game, tableRules(json.RawMessage(c.rules)), c.own)
			if len(steps) != c.steps {
				t.Fatalf("%d steps, want %d: %q", len(steps), c.steps, steps)
			}
			all := strings.Join(steps, "\n")
			if !strings.Contains(all, c.want) || c.not != "" && strings.Contains(all, c.not) {
				t.Errorf("the steps say %q; want %q and not %q", all, c.want, c.not)
			}
			for i, s := range steps {
				g := guidePanel{title: "Your first game", steps: steps, at: i}
				for _, l := range g.lines(80) {
					if w := len([]rune(ansiStrip(l))); w > 80 {
						t.Errorf("step %d has a line of %d columns: %q", i+1, w, l)
					}
				}
				if len(g.lines(80)) > 6 {
					t.Errorf("step %d takes %d lines at 80 columns: %q", i+1, len(g.lines(80)), s)
				}
			}
		})
	}
}

// TestGuideSalvoPractice: a Salvo practice's guide says the computer's
// fleet is hunted and nobody fires back, where a two-seat table's points
// at the player's own fleet, which practice has none of.
func TestGuideSalvoPractice(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Guide: true})
	tm.open("salvo", 4)
	tm.key("enter")
	s := tm.waitFor("the guide", has("Your first game of Salvo: a short guide · step 1 of 4", "the computer's five ships"))
	if !strings.Contains(s, "Nobody fires back.") || strings.Contains(s, "Your own fleet") {
		t.Errorf("the practice's guide points at a fleet of the player's own:\n%s", s)
	}
	checkFits(t, tm)
	tm.key("right")
	tm.key("right")
	tm.key("right")
	if s := tm.screen(); !strings.Contains(s, "the right one wins") || strings.Contains(s, "its hunter") {
		t.Errorf("the practice's last step speaks of another hunter:\n%s", s)
	}
}

// TestGuideKeepsTheTypedLine: the guide takes the play screen's blank
// lines before its last ones, so that the line the player types on and
// its keys stay in sight under the board while it is open.
func TestGuideKeepsTheTypedLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, prompt, keys string
	}{
		{"nymphabet", "A word starting with A:", "type a word · enter play it"},
		{"wordfight", "Declare a word:", "enter declare it"},
		{"quizl", "Call (digits) or announce (letters):", "enter call it"},
		{"salvo", "Salvo:  (0 of 5 shots)", "enter fire"},
	} {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t)
			tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Guide: true})
			tm.open(c.game, 0)
			tm.key("enter")
			switch c.game {
			case "salvo":
				tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
				tm.key("enter")
			case "quizl":
				tm.waitFor("the grid editor", has("Make your grid"))
				tm.key("ctrl+r")
				tm.waitFor("a grid", has("✓"))
				tm.key("enter")
			}
			s := tm.waitFor("the guide", has("a short guide · step 1 of"))
			if !strings.Contains(s, c.prompt) || !strings.Contains(s, c.keys) {
				t.Errorf("the typed line or its keys are hidden by the guide:\n%s", s)
			}
			checkFits(t, tm)
		})
	}
}

// TestSqueeze: room is made from the longest runs of blank lines first,
// each keeping one, and then from the end.
func TestSqueeze(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"none", "a|b", 0, "a|b"},
		{"a run of blanks", "a||||b|c", 2, "a||b|c"},
		{"each run keeps one", "a|||b||c", 1, "a||b||c"},
		{"each run keeps one, then the end", "a|||b||c", 3, "a||b"},
		{"the longest run first", "a||b||||c", 1, "a||b|||c"},
		{"spaces and styles are blank", "a| |\x1b[2m \x1b[0m|b", 1, "a|\x1b[2m \x1b[0m|b"},
		{"then the last lines", "a||b|c", 2, "a|"},
		{"the first line stays", "a|b", 5, "a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := strings.Join(squeeze(strings.Split(c.in, "|"), c.n), "|")
			if got != c.want {
				t.Errorf("squeeze(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
			}
		})
	}
}

// TestGuideNotOnComingBack: a guest who comes back over the SSH door (a
// client that keeps nothing between sessions, the guide closed before
// forgotten with the session) to their game of Nymphabet under way,
// chosen among their recent games or opened by its id, gets no guide in
// the middle of it, whether or not they had moved in it yet; a new game
// of another kind in the same session still opens its own.
func TestGuideNotOnComingBack(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		moved bool
		byID  bool
	}{
		{"chosen among the recent games", false, false},
		{"chosen among the recent games, moved in", true, false},
		{"opened by its id, moved in", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t)
			ctx := context.Background()
			gc, gus := guestAt(t, ts, "Gus")
			seat, err := gc.Create(ctx, gus.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.moved {
				if _, err := gc.Move(ctx, gus.Token, seat.Table, "able", 0, false); err != nil {
					t.Fatal(err)
				}
			}
			cfg := Config{NoDisk: true, Guide: true, Identity: gus.Token}
			if c.byID {
				cfg.Table = seat.Table
			}
			tm := startTerm(t, ts.URL, "Gus", 80, 24, cfg)
			if c.byID {
				tm.waitFor("the table", has("enter back to your seat"))
			} else {
				tm.waitFor("Gus's table among the recent games", has(seat.Table, "playing"))
				tm.m.home.at = len(tm.m.games) + 3
			}
			tm.key("enter")
			s := tm.waitFor("the game under way", func(s string) bool {
				return tm.table() != nil && tm.table().upd != nil && tm.table().upd.Table.Status == "playing" && tm.table().guideAsked
			})
			if strings.Contains(s, "short guide") {
				t.Fatalf("the first-game guide opened in the middle of a game come back to:\n%s", s)
			}
			checkFits(t, tm)

			tm.key("esc")
			tm.waitFor("home", has("Your recent games"))
			tm.open("wordfight", 0)
			tm.key("enter")
			tm.waitFor("the Word Fight guide", has("Your first game of Sightless Word Fight: a short guide"))
		})
	}
}
