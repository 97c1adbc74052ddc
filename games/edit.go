package games

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/games/quizl/bot"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// What an editor asks of a game without a table: whether a secret setup
// would pass the referee, a random legal setup, a Quizl grid filled around
// the player's own password, and what placing a word in Word Fight would
// do. Each function reads the request's JSON body as the API reads its
// bodies (strictly, see decodeStrict) and answers, or returns an error in
// a player's words. None of them keeps anything: the server serves them
// under /api/v1/tools/ to anyone.

// MaxSetupRequest caps a setup sent to be checked, a request for a random
// setup, and a request to fill a grid, in bytes.
const MaxSetupRequest = 16 << 10

// MaxPreviewRequest caps a Word Fight preview request, in bytes: a 30 by
// 30 grid and a word fit in well under 4 KiB.
const MaxPreviewRequest = 8 << 10

// FillTimeout bounds the strong grid maker, which plays each filling it
// tries against a panel of solvers.
const FillTimeout = 20 * time.Second

// ErrNotPreview marks a request that is not a placement preview at all,
// as opposed to one whose rules the game does not have: the API answers
// the first 400 and the second 422.
var ErrNotPreview = errors.New("not a placement preview")

// checkRequest asks whether a secret setup would pass the referee, so that
// an editor can say what is wrong while the player is still at it.
type checkRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon string          `json:"lexicon,omitempty"`
	Setup   json.RawMessage `json:"setup"`
}

// SetupAnswer is a setup in the record's notation: the canonical form of
// one checked, or one made at random.
type SetupAnswer struct {
	Setup json.RawMessage `json:"setup"`
}

// Helpers answers the editors' helpers for a server: its games, and the
// house word lists it offers beside the embedded lexicons, so that an
// editor at a table on a house list judges words as the table will. The
// package's functions are the helpers of a server without house lists.
type Helpers struct {
	Reg   *game.Registry
	House []*lexicon.Lexicon
}

// CheckSetup runs the game's own setup check (Game.CheckSetup) with the
// table's rules and lexicon, as the request body names them, and returns
// the setup in canonical form, or the referee's refusal.
func CheckSetup(reg *game.Registry, body []byte) (SetupAnswer, error) {
	return Helpers{Reg: reg}.CheckSetup(body)
}

// CheckSetup is the package's CheckSetup, with h's word lists.
func (h Helpers) CheckSetup(body []byte) (SetupAnswer, error) {
	var req checkRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return SetupAnswer{}, fmt.Errorf("not a setup check (%q, %q, %q and %q): %v", "game", "rules", "lexicon", "setup", err)
	}
	if more {
		return SetupAnswer{}, fmt.Errorf("there is more after the setup check")
	}
	g, cfg, err := h.setupConfig(req.Game, req.Rules, req.Lexicon)
	if err != nil {
		return SetupAnswer{}, err
	}
	setup, err := g.CheckSetup(cfg, 0, req.Setup)
	if err != nil {
		return SetupAnswer{}, err
	}
	return SetupAnswer{Setup: setup}, nil
}

// setupConfig finds a game with a secret setup and the configuration of a
// table with rules and the lexicon called lex, seen from its first seat.
func (h Helpers) setupConfig(name string, raw map[string]json.RawMessage, lex string) (game.Game, game.Config, error) {
	g, err := h.Reg.Lookup(name)
	if err != nil {
		return nil, game.Config{}, err
	}
	l, err := h.lexiconNamed(lex)
	if err != nil {
		return nil, game.Config{}, err
	}
	if !g.HasSetup() {
		return nil, game.Config{}, fmt.Errorf("%s has no secret setup", g.Title())
	}
	rules, err := game.Resolve(g.Options(), raw)
	if err != nil {
		return nil, game.Config{}, err
	}
	lo, _ := g.Players()
	players := []string{"you", "them"}[:max(1, min(2, lo))]
	return g, game.Config{Players: players, Rules: rules, Lexicon: l}, nil
}

// lexiconNamed returns the lexicon called name, as a table's view names
// it ("" for the default): an embedded lexicon or one of h's house lists.
// A name is never taken as a path to a file.
func (h Helpers) lexiconNamed(name string) (*lexicon.Lexicon, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return lexicon.Default(), nil
	}
	if i := slices.IndexFunc(h.House, func(l *lexicon.Lexicon) bool { return l.Name() == name }); i >= 0 {
		return h.House[i], nil
	}
	names := lexicon.Names()
	// A name in another case ("EN") means the same list.
	if i := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, name) }); i >= 0 {
		name = names[i]
	} else if i := slices.IndexFunc(h.House, func(l *lexicon.Lexicon) bool { return strings.EqualFold(l.Name(), name) }); i >= 0 {
		return h.House[i], nil
	}
	if !slices.Contains(names, name) {
		for _, l := range h.House {
			names = append(names, l.Name())
		}
		return nil, fmt.Errorf("there is no lexicon %q (there are %s)", clipText(name), strings.Join(names, ", "))
	}
	return lexicon.Load(name)
}

// randomRequest asks for a random legal setup under a table's rules; a
// seed makes the answer repeatable.
type randomRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon string  `json:"lexicon,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
}

// RandomSetup makes the game's own random setup (Game.AutoSetup) for the
// first seat, from the request's seed or, without one, a fresh random one.
func RandomSetup(reg *game.Registry, body []byte) (SetupAnswer, error) {
	return Helpers{Reg: reg}.RandomSetup(body)
}

// RandomSetup is the package's RandomSetup, with h's word lists.
func (h Helpers) RandomSetup(body []byte) (SetupAnswer, error) {
	var req randomRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return SetupAnswer{}, fmt.Errorf("not a request for a random setup (%q, %q, %q and %q): %v", "game", "rules", "lexicon", "seed", err)
	}
	if more {
		return SetupAnswer{}, fmt.Errorf("there is more after the request for a random setup")
	}
	g, cfg, err := h.setupConfig(req.Game, req.Rules, req.Lexicon)
	if err != nil {
		return SetupAnswer{}, err
	}
	setup, err := g.AutoSetup(cfg, 0, seedOr(req.Seed))
	if err != nil {
		return SetupAnswer{}, fmt.Errorf("making a random setup for %s: %w", g.Title(), err)
	}
	return SetupAnswer{Setup: setup}, nil
}

// seedOr returns the seed a request gave, or a fresh random one.
func seedOr(seed *uint64) uint64 {
	if seed != nil {
		return *seed
	}
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return binary.LittleEndian.Uint64(b[:])
}

// fillRequest asks for a Quizl grid around a password the player chose,
// kept on the line they wrote it on: only the other 20 squares are filled.
type fillRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon  string `json:"lexicon,omitempty"`
	Password string `json:"password"`
	// Line is where the password lies: 0-4 for rows 5-9, 5-9 for
	// columns 0-4 (quizl.Line).
	Line *int `json:"line"`
	// Maker is "random" for a random filling, or the level of the
	// computer's grid maker ("easy", "medium", "strong") for a deceptive
	// one. It defaults to "random".
	Maker string  `json:"maker,omitempty"`
	Seed  *uint64 `json:"seed,omitempty"`
}

// FillAnswer is the filled grid, in the record's notation, and whether
// the grid maker had to fall back to a random filling.
type FillAnswer struct {
	Setup  json.RawMessage `json:"setup"`
	Random bool            `json:"random,omitempty"`
}

// FillSetup fills a Quizl grid around the request's password and line,
// at random or with the computer's grid maker of the level asked, which
// gives up after FillTimeout or when ctx ends.
func FillSetup(ctx context.Context, reg *game.Registry, body []byte) (FillAnswer, error) {
	return Helpers{Reg: reg}.FillSetup(ctx, body)
}

// FillSetup is the package's FillSetup, with h's word lists.
func (h Helpers) FillSetup(ctx context.Context, body []byte) (FillAnswer, error) {
	var req fillRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return FillAnswer{}, fmt.Errorf("not a request to fill a grid (%q, %q, %q, %q and %q): %v", "game", "password", "line", "maker", "seed", err)
	}
	if more {
		return FillAnswer{}, fmt.Errorf("there is more after the request to fill a grid")
	}
	if strings.ToLower(strings.TrimSpace(req.Game)) != "quizl" {
		return FillAnswer{}, fmt.Errorf("only a Quizl grid can be filled around a password, not %q", clipText(req.Game))
	}
	_, cfg, err := h.setupConfig("quizl", req.Rules, req.Lexicon)
	if err != nil {
		return FillAnswer{}, err
	}
	pw := strings.ToUpper(strings.TrimSpace(req.Password))
	if pw == "" {
		return FillAnswer{}, fmt.Errorf("write your password first: the computer fills the squares around it")
	}
	if err := quizl.CheckPassword(pw, cfg.Lexicon); err != nil {
		return FillAnswer{}, err
	}
	// The grid names its rows 5-9 and its columns 0-4; "line" counts the
	// rows first, from 0, then the columns: the refusal says both.
	const lines = `"line" is 0-4 for the rows 5-9, 5-9 for the columns 0-4`
	if req.Line == nil {
		return FillAnswer{}, fmt.Errorf("say which line holds the password: %s", lines)
	}
	if *req.Line < 0 || *req.Line >= quizl.Lines {
		return FillAnswer{}, fmt.Errorf("there is no line %d: %s", *req.Line, lines)
	}
	line := quizl.Line(*req.Line)
	seed := seedOr(req.Seed)
	var g *quizl.Grid
	var random bool
	switch maker := strings.ToLower(strings.TrimSpace(req.Maker)); maker {
	case "", "random":
		g, err = quizl.RandomGridOn(pw, line, cfg.Lexicon, seed)
	case game.Easy, game.Medium, game.Strong:
		ctx, cancel := context.WithTimeout(ctx, FillTimeout)
		defer cancel()
		g, random, err = bot.GridOn(ctx, pw, line, maker, seed, cfg.Lexicon)
	default:
		return FillAnswer{}, fmt.Errorf("the grid maker is random, easy, medium or strong, not %q", clipText(maker))
	}
	if err != nil {
		return FillAnswer{}, fmt.Errorf("filling a grid around %s on %s: %w", pw, line, err)
	}
	return FillAnswer{Setup: g.Setup(), Random: random}, nil
}

// clipText shortens what a request said for an error message.
func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// previewRequest asks what placing the word being answered at a square
// would do in the player's own grid, as the seat's view shows it. The grid
// is the player's own, so nothing secret travels.
type previewRequest struct {
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon   string   `json:"lexicon,omitempty"`
	Grid      []string `json:"grid"`
	Word      string   `json:"word"`
	Placement string   `json:"placement"`
}

// PreviewAnswer is the referee's verdict on a placement: whether it is
// legal (and if not, why, in the referee's words), how many letters it
// reuses, what it would score, and the other words it would form.
type PreviewAnswer struct {
	Legal     bool     `json:"legal"`
	Problem   string   `json:"problem,omitempty"`
	Reused    int      `json:"reused"`
	Points    int      `json:"points"`
	Crossings []string `json:"crossings"`
}

// Preview checks a Word Fight placement with the game's own Grid.Check
// against the table's lexicon and scores it with the table's Rules.Score.
// An illegal placement is an answer, not an error; an error means the
// request itself is wrong (and wraps ErrNotPreview when it cannot be
// read as a preview at all).
func Preview(body []byte) (*PreviewAnswer, error) { return Helpers{}.Preview(body) }

// Preview is the package's Preview, with h's word lists.
func (h Helpers) Preview(body []byte) (*PreviewAnswer, error) {
	var req previewRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return nil, fmt.Errorf("%w (%q, %q, %q, %q and %q): %v", ErrNotPreview, "rules", "lexicon", "grid", "word", "placement", err)
	}
	if more {
		return nil, fmt.Errorf("%w: there is more after the request", ErrNotPreview)
	}
	rules, err := game.Resolve(wordfight.Game{}.Options(), req.Rules)
	if err != nil {
		return nil, err
	}
	lex, err := h.lexiconNamed(req.Lexicon)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotPreview, err)
	}
	g, err := wordfight.GridFromRows(req.Grid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotPreview, err)
	}
	if req.Word == "" {
		return nil, fmt.Errorf("%w: there is no word to place", ErrNotPreview)
	}
	p, err := wordfight.ParsePlacement(req.Placement)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotPreview, err)
	}
	ans := &PreviewAnswer{Crossings: []string{}}
	reused, err := g.Check(lex, req.Word, p)
	if err != nil {
		ans.Problem = err.Error()
		return ans, nil
	}
	word := strings.ToLower(req.Word)
	ans.Legal = true
	ans.Reused = reused
	ans.Points = wordfight.RulesOf(rules).Score(reused, len(word))
	ans.Crossings = crossings(g, word, p)
	return ans, nil
}

// crossings lists, in upper case, the words that placing word at p (a
// legal placement) forms across its line: the run through each new letter.
func crossings(g *wordfight.Grid, word string, p wordfight.Placement) []string {
	after := g.Clone()
	after.Place(word, p)
	dr, dc := 0, 1
	if p.Down {
		dr, dc = 1, 0
	}
	out := []string{}
	for i := range len(word) {
		r, c := p.Row+i*dr, p.Col+i*dc
		if g.At(r, c) != 0 {
			continue
		}
		// The run through (r, c) goes the other way: (dc, dr).
		sr, sc := r, c
		for after.At(sr-dc, sc-dr) != 0 {
			sr, sc = sr-dc, sc-dr
		}
		var run []byte
		for ; after.At(sr, sc) != 0; sr, sc = sr+dc, sc+dr {
			run = append(run, after.At(sr, sc))
		}
		if len(run) >= 2 {
			out = append(out, strings.ToUpper(string(run)))
		}
	}
	return out
}

// decodeStrict decodes the JSON value at the start of body into v, as the
// API decodes its request bodies: through game.DecodeJSON, so that keys
// match field names exactly, in case too, a key given twice in one object
// is refused rather than the last one winning, and unknown fields and
// invalid UTF-8 are refused. more reports, with a nil error, that the
// value was read but something follows it.
func decodeStrict(body []byte, v any) (more bool, err error) {
	if err := game.DecodeJSON(body, v); err != nil {
		if je, ok := errors.AsType[*game.JSONError](err); ok && je.Trailing {
			return true, nil
		}
		return false, err
	}
	return false, nil
}
