package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"parlour/lexicon"
)

// FormatVersion is the record format version this package reads and writes.
const FormatVersion = 1

// MaxRecordSize caps the size of a record Decode will read.
const MaxRecordSize = 8 << 20

// Record is a whole game in the shareable form of RECORDS.md: rules,
// players, secret setups and moves. A game is its record: its state is
// derived by replaying it.
type Record struct {
	Parlour int                        `json:"parlour"`
	Game    string                     `json:"game"`
	Rules   map[string]json.RawMessage `json:"rules"`
	Lexicon string                     `json:"lexicon,omitempty"`
	Seed    *uint64                    `json:"seed,omitempty"`
	Players []string                   `json:"players"`
	Setup   map[string]json.RawMessage `json:"setup,omitempty"`
	Moves   []Move                     `json:"moves"`
	// Aborted, when set, ends the game without a result after its moves
	// (see Abortable).
	Aborted *Abort `json:"aborted,omitempty"`
	// Event, when set, names the tournament the game was played in.
	Event *Tournament `json:"event,omitempty"`
}

// Tournament names the event a game was played in, so that a record read
// alone still says where: the event's id (its page is /tournaments/ID),
// its name as it was then, and the round of a Swiss event (0 in an
// arena, which has no rounds).
type Tournament struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Round int    `json:"round,omitempty"`
}

// Move is one accepted move of a record.
type Move struct {
	By   string     `json:"by"`
	Move string     `json:"move"`
	At   *time.Time `json:"at,omitempty"`
}

// ErrNotRecord is wrapped by Decode's errors when the input is not a game
// record at all.
var ErrNotRecord = errors.New("not a Parlour game record")

// Decode reads one record from r. It checks the record's shape (version,
// game name present, players unique and non-empty, each move naming a
// player) but not its rules or moves: Start and Replay referee those.
func Decode(r io.Reader) (*Record, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxRecordSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading record: %w", err)
	}
	if len(b) > MaxRecordSize {
		return nil, fmt.Errorf("%w: larger than %d MiB", ErrNotRecord, MaxRecordSize>>20)
	}
	return DecodeBytes(b)
}

// DecodeBytes is Decode for a record already in memory.
func DecodeBytes(b []byte) (*Record, error) {
	// Some editors start a UTF-8 file with a byte order mark; JSON's RFC
	// lets a reader ignore it, and a player who wrote a record by hand
	// could not tell why "invalid character 'ï'".
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	b = upperTimes(b)
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var rec Record
	if err := d.Decode(&rec); err != nil {
		// A record asked for and refused comes as the server's
		// {"error"}: say so, in its words.
		var refusal map[string]json.RawMessage
		var why string
		if json.Unmarshal(b, &refusal) == nil && len(refusal) == 1 && json.Unmarshal(refusal["error"], &why) == nil && why != "" {
			return nil, fmt.Errorf("%w: it is the server's refusal: %s", ErrNotRecord, why)
		}
		return nil, fmt.Errorf("%w: %s", ErrNotRecord, recordProblem(b, err))
	}
	// encoding/json keeps the last of a key given twice ({"moves": [...],
	// ..., "moves": []} loses every move written first) and matches keys
	// in any case, so "Moves" stands for "moves" there too: read the
	// record again as it does, but refusing a key given twice.
	if err := jsonv2.Unmarshal(b, new(Record), jsonv2.RejectUnknownMembers(true), jsonv2.MatchCaseInsensitiveNames(true),
		jsontext.AllowInvalidUTF8(true)); err != nil {
		var syn *jsontext.SyntacticError
		var sem *jsonv2.SemanticError
		if (errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName)) || (errors.As(err, &sem) && errors.Is(sem.Err, jsontext.ErrDuplicateName)) {
			return nil, fmt.Errorf("%w: %s", ErrNotRecord, jsonError(err).Problem)
		}
	}
	if d.More() {
		// An export of an event's or a player's games holds its records
		// one a line.
		var next Record
		if d.Decode(&next) == nil && next.Game != "" {
			return nil, fmt.Errorf("%w: it holds more than one record (an export of an event's or a player's games, one a line?): give one at a time", ErrNotRecord)
		}
		return nil, fmt.Errorf("%w: text after the record's closing brace", ErrNotRecord)
	}
	if rec.Parlour == 0 {
		return nil, fmt.Errorf("%w: it has no \"parlour\": %d, the format version every record starts with", ErrNotRecord, FormatVersion)
	}
	if rec.Parlour != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrNotRecord, rec.Parlour, FormatVersion)
	}
	if rec.Game == "" {
		return nil, fmt.Errorf("%w: no game named", ErrNotRecord)
	}
	if len(rec.Players) == 0 {
		return nil, fmt.Errorf("%w: no players", ErrNotRecord)
	}
	if e := rec.Event; e != nil && (strings.TrimSpace(e.ID) == "" || e.Round < 0) {
		return nil, fmt.Errorf("%w: the event needs an id and a round of 0 or more", ErrNotRecord)
	}
	if e := rec.Event; e != nil && controlIn(e.Name) {
		return nil, fmt.Errorf("%w: the event's name holds a control character", ErrNotRecord)
	}
	seen := map[string]bool{}
	for _, p := range rec.Players {
		k := foldKey(p)
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%w: a player has an empty name", ErrNotRecord)
		}
		if controlIn(p) {
			return nil, fmt.Errorf("%w: the player's name %q holds a control character", ErrNotRecord, p)
		}
		if seen[k] {
			return nil, fmt.Errorf("%w: two players are called %q", ErrNotRecord, p)
		}
		seen[k] = true
	}
	// A move or an abort without its player ("by" left out, or null, or
	// the move itself null) is a shape no game wrote, not a move to
	// referee: a move of a player the record does not list is refused
	// by the referee, at its place.
	for i, m := range rec.Moves {
		if strings.TrimSpace(m.By) == "" {
			return nil, fmt.Errorf("%w: move %d names no player (its \"by\")", ErrNotRecord, i+1)
		}
		// A tab may part a move's words ("say\tCRANE", as an older
		// server kept a move as typed): it draws nothing.
		if controlIn(m.By) || controlIn(strings.ReplaceAll(m.Move, "\t", " ")) {
			return nil, fmt.Errorf("%w: move %d holds a control character", ErrNotRecord, i+1)
		}
	}
	if a := rec.Aborted; a != nil && strings.TrimSpace(a.By) == "" {
		return nil, fmt.Errorf("%w: the abort names no player (its \"by\")", ErrNotRecord)
	}
	return &rec, nil
}

// lowerTime finds an "at" whose time RFC 3339 writes with a lower-case t
// or z, which its section 5.6 allows and time.Time's decoder refuses. A
// key is a whole string followed by a colon, so a move's text that quotes
// one ("say \"at\": ...") has its quotes escaped and is not found.
var lowerTime = regexp.MustCompile(`(?i:"at")\s*:\s*"\d{4}-\d\d-\d\d(?:t\d\d:\d\d:\d\d(?:\.\d+)?(?:[zZ]|[+-]\d\d:\d\d)|T\d\d:\d\d:\d\d(?:\.\d+)?z)"`)

// upperTimes returns b with the t and z of every time lowerTime finds in
// upper case, as the decoder reads them; b itself when there is none.
func upperTimes(b []byte) []byte {
	if !lowerTime.Match(b) {
		return b
	}
	return lowerTime.ReplaceAllFunc(b, func(m []byte) []byte {
		i := bytes.LastIndexByte(m[:len(m)-1], '"')
		return append(m[:i:i], bytes.ToUpper(m[i:])...)
	})
}

// controlIn reports whether s holds a control character or a direction
// control. No game writes one, and a record is printed to terminals
// (parlour replay, parlour analyse), where an escape sequence in a
// player's name would retitle the window, recolour the text or set the
// clipboard.
func controlIn(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return true
		}
	}
	return false
}

// foldKey returns a key for name that two names share exactly when
// strings.EqualFold holds between them, as Config.SeatOf matches a
// move's "by": each letter becomes the least of the letters it folds
// with. Lower-casing is not that: σ and ς stay apart, yet a move by ς
// would be σ's.
func foldKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// notJSON says where b, which is not JSON, goes wrong: the line and
// column of the byte at offset (as json.SyntaxError counts, one past it)
// and what is written there, rather than the decoder's words ("invalid
// character 'h' looking for beginning of value").
func notJSON(b []byte, offset int64) string {
	at := int(min(max(offset-1, 0), int64(len(b))))
	// A bare word ("nim", where a string was meant) goes wrong at its
	// second letter, in the decoder's eyes: the word is shown whole.
	for at > 0 && at <= len(b) && isWordByte(b[at-1]) && (at == len(b) || isWordByte(b[at])) {
		at--
	}
	line := 1 + bytes.Count(b[:at], []byte("\n"))
	start := bytes.LastIndexByte(b[:at], '\n') + 1
	col := 1 + utf8.RuneCount(b[start:at])
	rest := b[at:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	there := []rune(strings.TrimRight(string(rest), "\r"))
	if len(there) > 20 {
		there = append(there[:20], '…')
	}
	return fmt.Sprintf("it is not JSON: it goes wrong at line %d, column %d, at %q", line, col, string(there))
}

// isWordByte reports whether c is an ASCII letter or digit.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// recordProblem says in a player's words why b, which encoding/json
// refused with err, is not a record. Its own errors name Go's types and
// fields ("cannot unmarshal number -1 into Go struct field Record.seed of
// type uint64"), or say only "EOF".
func recordProblem(b []byte, err error) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return "the file is empty"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too early: cut short?"
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return notJSON(b, syn.Offset)
	}
	// Read it again as encoding/json does (names in any case, a name
	// given twice, bad UTF-8 let through), for the path to what is
	// wrong and DecodeJSON's words.
	var again Record
	if err := jsonv2.Unmarshal(b, &again, jsonv2.RejectUnknownMembers(true), jsonv2.MatchCaseInsensitiveNames(true),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		problem := jsonError(err).Problem
		var unknown *jsonv2.SemanticError
		if errors.As(err, &unknown) && errors.Is(unknown.Err, jsonv2.ErrUnknownName) {
			// A record's names match in any case: the case is not
			// what is wrong with this one.
			problem = fmt.Sprintf("unknown field %q", unknown.JSONPointer.LastToken())
		}
		// A number of the wrong kind is named: "not -1", not "not a
		// number".
		var sem *jsonv2.SemanticError
		if errors.As(err, &sem) && sem.JSONKind == '0' && sem.ByteOffset >= 0 && sem.ByteOffset < int64(len(b)) {
			if v, err := jsontext.NewDecoder(bytes.NewReader(b[sem.ByteOffset:])).ReadValue(); err == nil && v.Kind() == '0' {
				if p, ok := strings.CutSuffix(problem, "not a number"); ok {
					problem = p + "not " + string(v)
				}
			}
		}
		// So is a time that does not parse, which is a string as a
		// time should be: "not a string" would be false.
		if errors.As(err, &sem) && sem.JSONKind == '"' && sem.ByteOffset >= 0 && sem.ByteOffset < int64(len(b)) && strings.HasPrefix(typeWords(sem.GoType), "a time") {
			var text string
			if v, err := jsontext.NewDecoder(bytes.NewReader(b[sem.ByteOffset:])).ReadValue(); err == nil && v.Kind() == '"' && json.Unmarshal(v, &text) == nil {
				if p, ok := strings.CutSuffix(problem, "not a string"); ok {
					if r := []rune(text); len(r) > 30 {
						text = string(r[:30]) + "…"
					}
					problem = p + "not " + strconv.Quote(text)
				}
			}
		}
		return problem
	}
	return err.Error()
}

// Encode writes rec as indented JSON.
func (rec *Record) Encode(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	e.SetEscapeHTML(false)
	return e.Encode(rec)
}

// Refusal is the error Replay returns when the referee refuses the setup or
// a move of a record.
type Refusal struct {
	// Move is the 1-based index of the refused move, 0 for the setup.
	Move int
	// By names the player whose setup or move was refused ("" when the
	// refusal concerns no one player, such as bad rule options).
	By  string
	Err error
	// Abort is set when what was refused is the record's abort, which
	// stands after its moves (Move is then one past the last).
	Abort bool
}

func (r *Refusal) Error() string {
	if r.Abort {
		return fmt.Sprintf("abort by %s refused: %v", r.By, r.Err)
	}
	if r.Move == 0 {
		if r.By == "" {
			return fmt.Sprintf("setup refused: %v", r.Err)
		}
		return fmt.Sprintf("setup of %s refused: %v", r.By, r.Err)
	}
	return fmt.Sprintf("move %d by %s refused: %v", r.Move, r.By, r.Err)
}

func (r *Refusal) Unwrap() error { return r.Err }

// Start checks a record's rules and setups and returns the game, its
// configuration and the starting state, before any move. lex is the
// lexicon to referee with. Errors are *Refusal values (move 0). A record
// that sets no rule option gets the registry's map of the defaults,
// shared: rules are only read.
func Start(reg *Registry, rec *Record, lex *lexicon.Lexicon) (Game, Config, State, error) {
	g, err := reg.Lookup(rec.Game)
	if err != nil {
		return nil, Config{}, nil, &Refusal{Err: err}
	}
	lo, hi := g.Players()
	if n := len(rec.Players); n < lo || n > hi {
		return nil, Config{}, nil, &Refusal{Err: fmt.Errorf("%s takes %s, the record has %d", g.Title(), PlayerRange(lo, hi), n)}
	}
	rules, err := reg.rules(g, rec.Rules)
	if err != nil {
		return nil, Config{}, nil, &Refusal{Err: err}
	}
	cfg := Config{Players: rec.Players, Rules: rules, Lexicon: lex}
	if rec.Seed != nil {
		cfg.Seed = *rec.Seed
	}
	var setups []json.RawMessage
	if g.HasSetup() {
		// Keyed by the player's name in any case, as a move's "by" is.
		bySeat := make([]json.RawMessage, len(rec.Players))
		for name, raw := range rec.Setup {
			s, ok := cfg.SeatOf(name)
			if !ok {
				return nil, Config{}, nil, &Refusal{Err: fmt.Errorf("setup for %q, who is not a player", name)}
			}
			if bySeat[s] != nil {
				return nil, Config{}, nil, &Refusal{By: cfg.Players[s], Err: fmt.Errorf("two setups for %s", cfg.Players[s])}
			}
			bySeat[s] = raw
		}
		setups = make([]json.RawMessage, len(rec.Players))
		for i, name := range rec.Players {
			raw := bySeat[i]
			if raw == nil {
				return nil, Config{}, nil, &Refusal{By: name, Err: errors.New("the record has no setup for " + name + ": " + fetchedEarly)}
			}
			c, err := g.CheckSetup(cfg, Seat(i), raw)
			if err != nil {
				return nil, Config{}, nil, &Refusal{By: name, Err: err}
			}
			setups[i] = c
		}
	} else if len(rec.Setup) > 0 {
		return nil, Config{}, nil, &Refusal{Err: fmt.Errorf("%s has no setup, but the record gives one", g.Title())}
	}
	st, err := g.New(cfg, setups)
	if err != nil {
		return nil, Config{}, nil, &Refusal{Err: err}
	}
	return g, cfg, st, nil
}

// Step is one replayed move with the events it caused.
type Step struct {
	Seat   Seat
	Move   Move
	Events []Event
}

// Replay re-referees rec from the start with lex. It returns the state after
// the last accepted move and every step; a record that was aborted ends in
// a state AbortPlay made. When a move, the setup or the abort is refused it
// returns what was accepted before it and a *Refusal.
func Replay(reg *Registry, rec *Record, lex *lexicon.Lexicon) (Config, State, []Step, error) {
	g, cfg, st, err := Start(reg, rec, lex)
	if err != nil {
		return cfg, nil, nil, err
	}
	steps := make([]Step, 0, len(rec.Moves))
	for i, m := range rec.Moves {
		s, evs, err := ReplayMove(g, cfg, st, i, m)
		if err != nil {
			return cfg, st, steps, err
		}
		steps = append(steps, Step{Seat: s, Move: m, Events: evs})
	}
	st, err = ReplayAbort(cfg, rec, st)
	return cfg, st, steps, err
}

// ReplayMove referees m, move i (from 0) of a record of game g with
// configuration cfg, on st as Replay does: it returns the mover's seat
// and the move's events, or a *Refusal, which says that a move a record
// fetched mid-game holds masked is no move of the game's but a mask (see
// MaskReader). A caller that steps through a record itself, such as the
// replay viewer, referees each move with it, as Replay does.
func ReplayMove(g Game, cfg Config, st State, i int, m Move) (Seat, []Event, error) {
	s, ok := cfg.SeatOf(m.By)
	if !ok {
		return Spectator, nil, &Refusal{Move: i + 1, By: m.By, Err: fmt.Errorf("%q is not a player", m.By)}
	}
	evs, err := st.Apply(s, m.Move)
	if err != nil {
		if masks, ok := g.(MaskReader); ok && masks.Masked(m.Move) {
			err = fmt.Errorf("the move is hidden (%q): %s", strings.TrimSpace(m.Move), fetchedEarly)
		}
		return s, nil, &Refusal{Move: i + 1, By: cfg.Players[s], Err: err}
	}
	return s, evs, nil
}

// ReplayAbort ends st, the state after every move of rec, as rec's abort
// says, when it has one: it returns the aborted state (see AbortPlay),
// st itself when rec was not aborted, or st and a *Refusal when the
// abort is by somebody who is not a player or comes when the rules allow
// none (see AbortRefusal).
func ReplayAbort(cfg Config, rec *Record, st State) (State, error) {
	a := rec.Aborted
	if a == nil {
		return st, nil
	}
	ref := &Refusal{Move: len(rec.Moves) + 1, By: a.By, Abort: true}
	s, ok := cfg.SeatOf(a.By)
	if !ok {
		ref.Err = fmt.Errorf("%q is not a player", a.By)
		return st, ref
	}
	ref.By = cfg.Players[s]
	if ref.Err = AbortRefusal(cfg, rec.Moves, st.Result()); ref.Err != nil {
		return st, ref
	}
	return AbortPlay(st, s), nil
}

// MoveHider is implemented by games in which some moves stay secret from
// the other players until the game ends (a Sightless Word Fight placement).
type MoveHider interface {
	// HiddenMove reports whether move, made by seat by, must be hidden from
	// viewer while the game is in progress, and what viewer sees instead.
	HiddenMove(by, viewer Seat, move string) (shown string, hidden bool)
}

// MaskReader is implemented by the MoveHiders whose masks are no moves:
// Masked reports whether move is such a mask, so that the replay of a
// record fetched while its game went on says so, rather than refusing
// the mask as a move a player wrote wrongly.
type MaskReader interface {
	Masked(move string) bool
}

// fetchedEarly says why a record lacks a secret of the game: it was
// fetched while the game went on (see For).
const fetchedEarly = "a record fetched while the game goes on holds only what its reader may see; fetch it again once the game is over to replay it"

// SetupHider is implemented by games in which a seat's own setup may be
// secret from that seat too (solitaire Quizl: the one seat's setup is the
// computer's grid the player attacks).
type SetupHider interface {
	// HidesSetup reports whether the setup of seat owner must be kept from
	// viewer while the game is in progress.
	HidesSetup(cfg Config, owner, viewer Seat) bool
}

// For returns the record as seat viewer may see it: whole once res is
// over (finished or aborted); before that, other players' setups (and the viewer's own, where
// the game hides it: see SetupHider) are dropped and other players' secret
// moves (see MoveHider) are masked. Such a record shows a player
// what they know; it cannot be replayed until the game ends.
func (rec *Record) For(g Game, cfg Config, res Result, viewer Seat) *Record {
	out := *rec
	if res.Status.Over() {
		return &out
	}
	if len(rec.Setup) > 0 {
		out.Setup = map[string]json.RawMessage{}
		hider, _ := g.(SetupHider)
		if viewer >= 0 && int(viewer) < len(cfg.Players) && (hider == nil || !hider.HidesSetup(cfg, viewer, viewer)) {
			if s, ok := rec.Setup[cfg.Players[viewer]]; ok {
				out.Setup[cfg.Players[viewer]] = s
			}
		}
	}
	h, ok := g.(MoveHider)
	if !ok {
		return &out
	}
	out.Moves = make([]Move, len(rec.Moves))
	for i, m := range rec.Moves {
		out.Moves[i] = m
		by, found := cfg.SeatOf(m.By)
		if !found || by == viewer {
			continue
		}
		if shown, hidden := h.HiddenMove(by, viewer, m.Move); hidden {
			out.Moves[i].Move = shown
		}
	}
	return &out
}
