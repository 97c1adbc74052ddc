package games

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/web/e2e"
)

// playedRecord plays one game of g between easy computer players called
// by lower-case names to its end and returns its record and the reason it
// ended. In games of odd seeds a seat resigns part way (in every other
// one, every seat), and in Quizl most
// calls are random squares (which trip over passwords), so that the ways
// a game ends come up among a few seeds.
func playedRecord(g game.Game, n int, opts map[string]any, seed uint64, lex *lexicon.Lexicon) (*game.Record, string, error) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	rules, err := game.ResolveValues(g.Options(), opts)
	if err != nil {
		return nil, "", err
	}
	names := []string{"ann", "ben", "cat"}[:n]
	cfg := game.Config{Players: names, Rules: rules, Lexicon: lex, Seed: seed}
	rec := &game.Record{Parlour: 1, Game: g.Name(), Rules: map[string]json.RawMessage{}, Lexicon: lex.Name(), Seed: &seed, Players: names}
	for k, v := range opts {
		b, _ := json.Marshal(v)
		rec.Rules[k] = b
	}
	bots := make([]game.Bot, n)
	var setups []json.RawMessage
	for i := range n {
		if bots[i], err = games.NewBot(g.Name(), game.Easy, seed*10+uint64(i), lex); err != nil {
			return nil, "", err
		}
		if g.HasSetup() {
			raw, err := g.AutoSetup(cfg, game.Seat(i), seed*10+uint64(i))
			if err != nil {
				return nil, "", err
			}
			setups = append(setups, raw)
			if rec.Setup == nil {
				rec.Setup = map[string]json.RawMessage{}
			}
			rec.Setup[names[i]] = raw
		}
	}
	st, err := g.New(cfg, setups)
	if err != nil {
		return nil, "", err
	}
	resignAt := -1
	if seed%2 == 1 {
		resignAt = rng.IntN(map[string]int{"nymphabet": 6, "quizl": 15, "salvo": 20, "wordfight": 8}[g.Name()])
	}
	reason := ""
	for moves := 0; st.Result().Status != game.Finished; moves++ {
		if moves > 3000 {
			return nil, "", fmt.Errorf("no end after %d moves", moves)
		}
		for _, s := range slices.Clone(st.ToMove()) {
			if st.Result().Status == game.Finished {
				break
			}
			var evs []game.Event
			move := ""
			switch {
			case moves == resignAt || (seed%4 == 3 && resignAt >= 0 && moves > resignAt):
				// In one odd seed of two every seat to move resigns from
				// then on, so that a game that goes on after one
				// resignation (Quizl) ends by the last.
				move = "resign"
				if evs, err = st.Apply(s, move); err != nil {
					return nil, "", fmt.Errorf("seat %d's resignation: %w", s, err)
				}
			case g.Name() == "quizl" && rng.IntN(3) > 0:
				for range 100 {
					move = fmt.Sprintf("%d%d", 5+rng.IntN(5), rng.IntN(5))
					if evs, err = st.Apply(s, move); err == nil {
						break
					}
				}
			}
			if evs == nil {
				if move, err = bots[s].Move(ctx, cfg, s, st.View(s)); err != nil {
					return nil, "", err
				}
				if evs, err = st.Apply(s, move); err != nil {
					return nil, "", fmt.Errorf("the bot's move %q: %w", move, err)
				}
			}
			rec.Moves = append(rec.Moves, game.Move{By: names[s], Move: move})
			for _, e := range evs {
				if e.Kind == "end" {
					b, _ := json.Marshal(e.Data)
					var end game.End
					json.Unmarshal(b, &end)
					reason = end.Reason
				}
			}
		}
	}
	return rec, reason, nil
}

// badWording matches what no text a player reads may hold: a count of
// one before a plural noun, a value that went into the text unmade, and
// a move's notation where words belong ("could have gone at place H2
// down").
var badWording = regexp.MustCompile(`\b1 (strikes|games|letters|words|points|pts|shots|ships|salvos|squares|moves|calls|hits|seconds|minutes|players|seats|turns|candidates|fleets|hypotheses|placements)\b|\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]|%!|\bat place\b`)

// TestWordingOfEveryEnd plays games of the four kinds until each has
// ended in every way it can (a resignation, a last word, strikes, a
// password announced or tripped over, a fleet outlined rightly or
// wrongly, ...), between players whose names are written in lower case,
// and renders each in the browser as the table page does: the end
// banner's words (endSummary), the move list, the standings and every
// event text each seat saw. None may say "1 strikes", show an option by
// its key ("strike_limit"), show a raw value (undefined, NaN), or
// capitalise a player's name.
func TestWordingOfEveryEnd(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "reader", base)
	p.Open("/replay")
	p.Wait("the replay page", `!!document.querySelector("#replay-file")`)

	lex := lexicon.Default()
	reg := games.Registry()
	variants := map[string][]map[string]any{
		"nymphabet": {{"mode": "standard"}, {"mode": "cyclic"}, {"mode": "scoring"}},
		"quizl":     {nil},
		"salvo":     {nil},
		"wordfight": {{"width": 6, "height": 6}, {"width": 6, "height": 6, "strike_limit": 1}, {"width": 6, "height": 6, "strikes_per": "player", "strike_limit": 2}},
	}
	var keys []string // the options' keys, which no text may show
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		for _, o := range g.Options() {
			if strings.Contains(o.Name, "_") {
				keys = append(keys, o.Name)
			}
		}
	}
	type ending struct {
		rec    *game.Record
		reason string
	}
	var endings []ending
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		seen := map[string]bool{}
		lo, _ := g.Players()
		for _, opts := range variants[name] {
			for seed := uint64(1); seed <= 8; seed++ {
				rec, reason, err := playedRecord(g, max(lo, 2), opts, seed, lex)
				if err != nil {
					t.Fatalf("%s, rules %v, seed %d: %v", name, opts, seed, err)
				}
				key := fmt.Sprint(reason, opts)
				if seen[key] {
					continue
				}
				seen[key] = true
				endings = append(endings, ending{rec, reason})
			}
		}
	}
	reached := map[string]bool{}
	for _, e := range endings {
		reached[e.rec.Game+" "+e.reason] = true
	}
	// Every way each game ends (docs/protocol.md lists them).
	for _, want := range []string{"quizl announced", "quizl tripped", "quizl resign", "salvo outlined", "salvo wrong_outline", "salvo resign",
		"wordfight strikes", "wordfight resign", "nymphabet deleted_z", "nymphabet deleted_last", "nymphabet all_deleted", "nymphabet resign"} {
		if !reached[want] {
			t.Errorf("no game played here ended as %q", want)
		}
	}
	for _, e := range endings {
		raw, err := json.Marshal(e.rec)
		if err != nil {
			t.Fatal(err)
		}
		// Re-refereed by the server as the replay page asks, and drawn
		// by the game's own module, for every seat.
		text := e2e.Eval[string](p, `(async rec => {
			const ans = await (await fetch("/api/v1/tools/replay", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(rec)})).json();
			if (!ans.steps) return "no replay: " + JSON.stringify(ans);
			const mod = await import("/static/js/games/" + ans.game + ".js");
			const out = [];
			const last = ans.steps[ans.steps.length - 1];
			for (let seat = 0; seat < ans.players.length; seat++) {
				const view = last.views[seat];
				for (const s of ans.steps) for (const e of s.events) if (!e.to || e.to.includes(seat)) out.push(e.text);
				const why = mod.endSummary ? mod.endSummary(view, { seat, names: ans.players, last: { move: last.move, player: last.by, events: last.events } }) : null;
				if (why) out.push(why.result || "", why.reason || "");
				if (mod.moveList) for (const m of mod.moveList(view)) out.push(m.text + " " + (m.detail || ""));
				if (mod.standings) for (const s of mod.standings(view)) out.push(s.name + " " + (s.note || "") + " " + (s.score ?? ""));
				const box = document.createElement("div");
				try {
					const board = mod.play({ table: "replay", seat, view: () => view, info: () => null, rules: () => ({}), lexicon: () => "", send: async () => {}, sendSetup: async () => {} });
					board.update(view);
					box.append(board.el);
					document.body.append(box);
					out.push(box.innerText);
				} finally { box.remove(); }
			}
			return out.join("\n");
		})(`+string(raw)+`)`)
		where := fmt.Sprintf("%s ended by %q (rules %s)", e.rec.Game, e.reason, mustJSON(e.rec.Rules))
		if strings.HasPrefix(text, "no replay") {
			t.Errorf("%s: %s", where, text)
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if m := badWording.FindString(line); m != "" {
				t.Errorf("%s: %q in %q", where, m, line)
			}
			for _, k := range keys {
				if strings.Contains(line, k) {
					t.Errorf("%s: the option key %q in %q", where, k, line)
				}
			}
			for _, n := range []string{"Ann", "Ben", "Cat"} {
				if strings.Contains(line, n) {
					t.Errorf("%s: the name %q capitalised in %q", where, strings.ToLower(n), line)
				}
			}
		}
	}
	t.Logf("%d endings rendered", len(endings))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
