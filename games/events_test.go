package games

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// TestEventsDocumented plays games of every kind (computer players,
// random calls and resignations mixed in so that every way a game goes
// and ends comes up), collects the kind of every event the referees emit
// and the fields of its data, and checks them against the table of events
// in docs/protocol.md: every kind emitted has a row for its game, every
// row's kind was emitted, every event has data, and every field of the
// data is named in its row.
func TestEventsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := docTable(string(doc), "| game | kind | seen by | data |")
	reasons := docTable(string(doc), "| game | `reason` | what happened |")
	if len(documented) == 0 || len(reasons) == 0 {
		t.Fatal("docs/protocol.md has no table of events or of the reasons games end")
	}
	ended := map[string]bool{} // "game reason"
	lex := lexicon.Default()
	reg := Registry()
	seen := map[string]map[string]map[string]bool{} // game, kind, field
	variants := map[string][]map[string]any{
		"nymphabet": {{"mode": "standard"}, {"mode": "cyclic"}, {"mode": "scoring"}},
		"quizl":     {nil},
		"salvo":     {nil, {"shots_lost_by": "owner"}},
		"wordfight": {{"width": 6, "height": 6}, {"width": 6, "height": 6, "strikes_per": "player", "strike_limit": 2}, {"width": 6, "height": 6, "strike_limit": 1}},
	}
	// Enough games of each kind for every event and ending to come up
	// (Nymphabet's and Salvo's computer players take longest).
	seeds := map[string]uint64{"nymphabet": 6, "quizl": 6, "salvo": 4, "wordfight": 6}
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		lo, hi := g.Players()
		seen[name] = map[string]map[string]bool{}
		for n := lo; n <= min(hi, 3); n++ {
			for _, opts := range variants[name] {
				for seed := uint64(1); seed <= seeds[name]; seed++ {
					evs, secrets, err := playRandomly(g, n, opts, seed, lex)
					if err != nil {
						t.Fatalf("%s, %d players, rules %v, seed %d: %v", name, n, opts, seed, err)
					}
					checkSecrets(t, name, evs, secrets)
					for _, e := range evs {
						checkWording(t, g, e.Event)
						if e.Data == nil {
							t.Errorf("%s: a %q event has no data: %q", name, e.Kind, e.Text)
							continue
						}
						keys, err := dataFields(e.Data)
						if err != nil {
							t.Fatalf("%s %q: %v", name, e.Kind, err)
						}
						if seen[name][e.Kind] == nil {
							seen[name][e.Kind] = map[string]bool{}
						}
						for _, k := range keys {
							seen[name][e.Kind][k] = true
						}
						if e.Kind == "end" {
							ended[name+" "+endReason(t, e.Event)] = true
						}
					}
				}
			}
		}
	}
	for name, kinds := range seen {
		for kind, fields := range kinds {
			row, ok := documented[name+" "+kind]
			if !ok {
				t.Errorf("%s emits %q events, which docs/protocol.md does not list", name, kind)
				continue
			}
			for f := range fields {
				if !strings.Contains(row, "`"+f+"`") {
					t.Errorf("%s %q events have the field %q, which their row in docs/protocol.md does not name: %s", name, kind, f, row)
				}
			}
		}
	}
	for key := range documented {
		name, kind, _ := strings.Cut(key, " ")
		if seen[name][kind] == nil {
			t.Errorf("docs/protocol.md lists %s %q events, which no game played here emitted", name, kind)
		}
	}
	for key := range ended {
		if _, ok := reasons[key]; !ok {
			t.Errorf("a game ended for the reason %q, which docs/protocol.md does not list", key)
		}
	}
	for key := range reasons {
		if !ended[key] {
			t.Errorf("docs/protocol.md lists the reason %q, which no game played here ended for", key)
		}
	}
}

// onePlural matches "1" before a plural noun of the games' texts, a
// mistake ("1 strikes").
var onePlural = regexp.MustCompile(`\b1 (strikes|games|letters|words|points|pts|shots|ships|salvos|squares|moves|calls|hits|misses|seconds|minutes|players|seats|turns|rows|columns|hypotheses|placements|cannots|times|fleets|passwords)\b`)

// rawValue matches what a text shows when a value went into it unmade:
// Go's marks of a bad format or a nil, JavaScript's of a missing value.
var rawValue = regexp.MustCompile(`%!|<nil>|\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]`)

// checkWording checks one event's text as a player reads it: not empty,
// the plural only after a count other than one, no option's key (with its
// underscore), no value that went in unmade, and the players' names as
// they wrote them (lower case here), never capitalised.
func checkWording(t *testing.T, g game.Game, e game.Event) {
	t.Helper()
	text := e.Text
	if strings.TrimSpace(text) == "" {
		t.Errorf("%s: a %q event has no text", g.Name(), e.Kind)
		return
	}
	if m := onePlural.FindString(text); m != "" {
		t.Errorf("%s %q event says %q: %q", g.Name(), e.Kind, m, text)
	}
	if m := rawValue.FindString(text); m != "" {
		t.Errorf("%s %q event shows a raw %q: %q", g.Name(), e.Kind, m, text)
	}
	for _, o := range g.Options() {
		if strings.Contains(o.Name, "_") && strings.Contains(text, o.Name) {
			t.Errorf("%s %q event names the option by its key %q: %q", g.Name(), e.Kind, o.Name, text)
		}
	}
	for _, n := range []string{"Ann", "Ben", "Cat", "Dan"} {
		if strings.Contains(text, n) {
			t.Errorf("%s %q event capitalises the name %q: %q", g.Name(), e.Kind, strings.ToLower(n), text)
		}
	}
}

// endReason returns the reason an end event gives.
func endReason(t *testing.T, e game.Event) string {
	t.Helper()
	b, _ := json.Marshal(e.Data)
	var end game.End
	if err := json.Unmarshal(b, &end); err != nil || end.Reason == "" {
		t.Errorf("an end event without a reason: %s", b)
	}
	return end.Reason
}

// tableRow matches a row of a table keyed by game and a word in backquotes:
// | game | `word` | ...
var tableRow = regexp.MustCompile("^\\| *(nymphabet|quizl|salvo|wordfight) *\\| *`([a-z_]+)` *\\|(.*)$")

// docTable returns the rows of the table of doc whose header line is
// header, by "game word", each with the rest of its line.
func docTable(doc, header string) map[string]string {
	out := map[string]string{}
	_, rest, ok := strings.Cut(doc, "\n"+header+"\n")
	if !ok {
		return out
	}
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if m := tableRow.FindStringSubmatch(line); m != nil {
			out[m[1]+" "+m[2]] = m[3]
		}
	}
	return out
}

// dataFields returns the names of the fields of an event's data as JSON.
func dataFields(data any) ([]string, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("data %s is not a JSON object: %w", b, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}

// playRandomly plays one game of g with n players to its end and returns
// every event: easy computer players, except that in games of odd seeds a
// seat resigns, and in Quizl calls a random square (which trips over
// passwords), so that every way a game goes comes up.
func playRandomly(g game.Game, n int, opts map[string]any, seed uint64, lex *lexicon.Lexicon) (all []moved, setups []json.RawMessage, err error) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	rules, err := game.ResolveValues(g.Options(), opts)
	if err != nil {
		return nil, nil, err
	}
	// Names as their players wrote them, in lower case: the texts must
	// keep them so (checkWording).
	names := []string{"ann", "ben", "cat", "dan"}[:n]
	cfg := game.Config{Players: names, Rules: rules, Lexicon: lex, Seed: seed}
	bots := make([]game.Bot, n)
	for i := range n {
		if bots[i], err = NewBot(g.Name(), game.Easy, seed*10+uint64(i), lex); err != nil {
			return nil, nil, err
		}
		if g.HasSetup() {
			raw, err := g.AutoSetup(cfg, game.Seat(i), seed*10+uint64(i))
			if err != nil {
				return nil, nil, err
			}
			setups = append(setups, raw)
		}
	}
	st, err := g.New(cfg, setups)
	if err != nil {
		return nil, nil, err
	}
	// Games of odd seeds end early by a resignation, at a move drawn
	// from about a game's length; the others play out.
	resignAt := -1
	if seed%2 == 1 {
		resignAt = rng.IntN(map[string]int{"nymphabet": 6, "quizl": 15, "salvo": 20, "wordfight": 8}[g.Name()])
	}
	for moves := 0; st.Result().Status != game.Finished; moves++ {
		if moves > 3000 {
			return nil, nil, fmt.Errorf("no end after %d moves", moves)
		}
		for _, s := range slices.Clone(st.ToMove()) {
			if st.Result().Status == game.Finished {
				break
			}
			var evs []game.Event
			switch {
			case moves == resignAt:
				if evs, err = st.Apply(s, "resign"); err != nil {
					return nil, nil, fmt.Errorf("seat %d's resignation refused: %w", s, err)
				}
			case g.Name() == "quizl" && rng.IntN(3) > 0:
				for range 100 {
					if evs, err = st.Apply(s, fmt.Sprintf("%d%d", 5+rng.IntN(5), rng.IntN(5))); err == nil {
						break
					}
				}
			}
			if evs == nil {
				m, err := bots[s].Move(ctx, cfg, s, st.View(s))
				if err != nil {
					return nil, nil, fmt.Errorf("bot %d: %w", s, err)
				}
				if evs, err = st.Apply(s, m); err != nil {
					return nil, nil, fmt.Errorf("bot %d's move %q refused: %w", s, m, err)
				}
			}
			for _, e := range evs {
				all = append(all, moved{by: s, Event: e})
			}
		}
	}
	return all, setups, nil
}

// moved is an event and the seat whose move emitted it.
type moved struct {
	by game.Seat
	game.Event
}

// checkSecrets checks that no event of a game with secret setups gives a
// secret away: a private event goes to the mover alone (in Salvo, to the
// fleet's owner), and no public event names a row of a grid, a password or
// a ship of a fleet, but the end, an announcement (which names the word
// announced) and an outline (which is a guess).
func checkSecrets(t *testing.T, name string, evs []moved, setups []json.RawMessage) {
	t.Helper()
	var secrets []string
	for _, raw := range setups {
		var s struct {
			Grid     []string `json:"grid"`
			Password string   `json:"password"`
			Fleet    []string `json:"fleet"`
		}
		json.Unmarshal(raw, &s)
		secrets = append(secrets, s.Grid...)
		secrets = append(secrets, s.Fleet...)
		if s.Password != "" {
			secrets = append(secrets, s.Password)
		}
	}
	for _, e := range evs {
		if e.To != nil {
			if len(e.To) != 1 || (name != "salvo" && e.To[0] != e.by) {
				t.Errorf("%s %q event for %v, moved by seat %d", name, e.Kind, e.To, e.by)
			}
			continue
		}
		if e.Kind == "end" || e.Kind == "announce" || e.Kind == "outline" {
			continue
		}
		b, _ := json.Marshal(e.Data)
		for _, sec := range secrets {
			if strings.Contains(string(b), `"`+sec+`"`) {
				t.Errorf("%s: a public %q event holds the secret %q: %s", name, e.Kind, sec, b)
			}
		}
	}
}
