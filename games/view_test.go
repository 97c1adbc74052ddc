package games

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// TestDecodeView: a view sent over the wire, mid-game in each game, reads
// back into a view that encodes to the same bytes, and on which a
// computer player chooses the move it chooses on the view in memory.
func TestDecodeView(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	reg := Registry()
	ctx := context.Background()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g, _ := reg.Lookup(name)
			rules, err := game.Resolve(g.Options(), nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg := game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: lex, Seed: 5}
			bot := func(seat game.Seat) game.Bot {
				b, err := NewBot(name, game.Medium, uint64(seat)+7, lex)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			var setups []json.RawMessage
			for s := range game.Seat(2) {
				if !g.HasSetup() {
					break
				}
				raw, err := bot(s).Setup(ctx, cfg, s)
				if err != nil {
					t.Fatal(err)
				}
				c, err := g.CheckSetup(cfg, s, raw)
				if err != nil {
					t.Fatal(err)
				}
				setups = append(setups, c)
			}
			st, err := g.New(cfg, setups)
			if err != nil {
				t.Fatal(err)
			}
			for range 6 {
				for _, s := range st.ToMove() {
					m, err := bot(s).Move(ctx, cfg, s, st.View(s))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := st.Apply(s, m); err != nil {
						t.Fatalf("%q refused: %v", m, err)
					}
				}
			}
			if st.Result().Status == game.Finished {
				t.Fatal("the game ended in six rounds: nothing to move on")
			}
			for _, s := range st.ToMove() {
				raw, err := json.Marshal(st.View(s))
				if err != nil {
					t.Fatal(err)
				}
				v, err := DecodeView(name, raw)
				if err != nil {
					t.Fatalf("DecodeView: %v", err)
				}
				again, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again, raw) {
					t.Errorf("seat %d's view read back encodes as\n%s\nwant\n%s", s, again, raw)
				}
				want, err := bot(s).Move(ctx, cfg, s, st.View(s))
				if err != nil {
					t.Fatal(err)
				}
				got, err := bot(s).Move(ctx, cfg, s, v)
				if err != nil || got != want {
					t.Errorf("seat %d's player on the view read back: %q, %v; on the view in memory %q", s, got, err, want)
				}
			}
		})
	}
}

func TestDecodeViewRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game, raw, want string
	}{
		{"chess", `{}`, `no game called "chess"`},
		{"", `{}`, `no game called ""`},
		{"quizl", `{"grid":`, "reading a quizl view"},
		{"salvo", `[1, 2]`, "reading a salvo view"},
		{"nymphabet", ``, "reading a nymphabet view"},
		{"wordfight", `"a view"`, "reading a wordfight view"},
	} {
		v, err := DecodeView(tc.game, json.RawMessage(tc.raw))
		if err == nil || !strings.Contains(err.Error(), tc.want) || v != nil {
			t.Errorf("DecodeView(%q, %q) = %v, %v; want an error saying %q", tc.game, tc.raw, v, err, tc.want)
		}
	}
}

// FuzzDecodeView: whatever comes over the wire, DecodeView returns a view
// or an error, and a view it returns encodes to bytes that read back to
// the same encoding.
func FuzzDecodeView(f *testing.F) {
	for _, seed := range []struct{ game, raw string }{
		{"quizl", `{"moves": []}`},
		{"salvo", `{"target": 1}`},
		{"nymphabet", `{}`},
		{"wordfight", `null`},
		{"chess", `{}`},
	} {
		f.Add(seed.game, []byte(seed.raw))
	}
	f.Fuzz(func(t *testing.T, name string, raw []byte) {
		v, err := DecodeView(name, raw)
		if err != nil {
			if v != nil {
				t.Fatalf("an error (%v) with a view %v", err, v)
			}
			return
		}
		once, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("a view read from %q does not encode: %v", raw, err)
		}
		w, err := DecodeView(name, once)
		if err != nil {
			t.Fatalf("the encoding %s of a view read does not read back: %v", once, err)
		}
		twice, err := json.Marshal(w)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("read back, %s encodes as %s (%v)", once, twice, err)
		}
	})
}

// TestConfig: rules as a client decodes them from a table's information
// give the config the server plays under; rules no table could have are
// refused, saying what is wrong.
func TestConfig(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	players := []string{"Ann", "Ben"}
	for _, tc := range []struct {
		name, game, rules string
		want              game.Rules // the options checked
		err               string     // an error wanted, saying this
	}{
		{name: "defaults", game: "wordfight", rules: `{}`, want: game.Rules{"width": 20, "strike_limit": 3, "multiply": true}},
		{name: "as sent", game: "wordfight", rules: `{"width": 8, "height": 6, "strike_limit": 1, "multiply": false, "clock": 300}`,
			want: game.Rules{"width": 8, "height": 6, "strike_limit": 1, "multiply": false, "clock": 300}},
		{name: "no game", game: "chess", rules: `{}`, err: `no game called "chess"`},
		{name: "out of bounds", game: "wordfight", rules: `{"width": 1}`, err: "the table's rules"},
		{name: "unknown option", game: "quizl", rules: `{"colour": "red"}`, err: `unknown rule option "colour"`},
		{name: "a bad clock", game: "salvo", rules: `{"clock": "soon"}`, err: "the table's rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var rules game.Rules
			if err := json.Unmarshal([]byte(tc.rules), &rules); err != nil {
				t.Fatal(err)
			}
			cfg, err := Config(tc.game, rules, players, lex)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Config(%s, %s) = %v, %v; want an error saying %q", tc.game, tc.rules, cfg, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if cfg.Rules[k] != v {
					t.Errorf("rule %s = %v (%T), want %v", k, cfg.Rules[k], cfg.Rules[k], v)
				}
			}
			if !slices.Equal(cfg.Players, players) || cfg.Lexicon != lex {
				t.Errorf("players %v, lexicon %p; want %v, %p", cfg.Players, cfg.Lexicon, players, lex)
			}
		})
	}
}
