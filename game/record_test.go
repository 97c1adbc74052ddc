package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nim is a small game for testing the contract: players take 1-3 counters
// from a pile in turn; whoever takes the last counter wins. Each player's
// secret setup is a lucky number, revealed at the end.
type nim struct{}

func (nim) Name() string        { return "nim" }
func (nim) Title() string       { return "Nim" }
func (nim) Players() (int, int) { return 2, 3 }
func (nim) HasSetup() bool      { return true }
func (nim) Options() []Option {
	return []Option{{Name: "pile", Kind: Int, Default: 10, Min: 1, Max: 50, Help: "counters at the start"}}
}
func (nim) CheckSetup(cfg Config, s Seat, raw json.RawMessage) (json.RawMessage, error) {
	var v struct {
		Lucky int `json:"lucky"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("want {\"lucky\": N}: %v", err)
	}
	if v.Lucky < 1 || v.Lucky > 9 {
		return nil, fmt.Errorf("lucky number %d is not 1-9", v.Lucky)
	}
	return json.RawMessage(fmt.Sprintf(`{"lucky":%d}`, v.Lucky)), nil
}
func (nim) AutoSetup(cfg Config, s Seat, seed uint64) (json.RawMessage, error) {
	return json.RawMessage(fmt.Sprintf(`{"lucky":%d}`, seed%9+1)), nil
}
func (nim) New(cfg Config, setups []json.RawMessage) (State, error) {
	return &nimState{cfg: cfg, pile: cfg.Rules.Int("pile"), winner: -1}, nil
}

type nimState struct {
	cfg    Config
	pile   int
	turn   Seat
	winner Seat
}

func (s *nimState) ToMove() []Seat {
	if s.winner >= 0 {
		return nil
	}
	return []Seat{s.turn}
}

func (s *nimState) Apply(seat Seat, move string) ([]Event, error) {
	if err := CheckTurn(s.cfg, s.ToMove(), seat); err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(move))
	if err != nil || n < 1 || n > 3 {
		return nil, fmt.Errorf("%q: take 1, 2 or 3", move)
	}
	if n > s.pile {
		return nil, fmt.Errorf("take %d: only %d left", n, s.pile)
	}
	s.pile -= n
	if s.pile == 0 {
		s.winner = seat
	}
	s.turn = (s.turn + 1) % Seat(len(s.cfg.Players))
	return []Event{{Kind: "take", Text: fmt.Sprintf("%s took %d", s.cfg.Name(seat), n)}}, nil
}

func (s *nimState) View(seat Seat) any { return s.pile }

func (s *nimState) Result() Result {
	if s.winner < 0 {
		return Result{Status: InProgress}
	}
	return Result{Status: Finished, Winners: []Seat{s.winner}}
}

func testRegistry() *Registry { return NewRegistry(nim{}) }

const goodRecord = `{
  "parlour": 1,
  "game": "nim",
  "rules": {"pile": 5},
  "seed": 7,
  "players": ["Ann", "Ben"],
  "setup": {"Ann": {"lucky": 3}, "Ben": {"lucky": 4}},
  "moves": [
    {"by": "Ann", "move": "2"},
    {"by": "ben", "move": "2", "at": "2026-11-21T10:00:00Z"},
    {"by": "Ann", "move": "1"}
  ]
}`

func TestReplay(t *testing.T) {
	rec, err := DecodeBytes([]byte(goodRecord))
	if err != nil {
		t.Fatal(err)
	}
	cfg, st, steps, err := Replay(testRegistry(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[1].Seat != 1 {
		t.Fatalf("steps = %+v", steps)
	}
	res := st.Result()
	if res.Status != Finished || len(res.Winners) != 1 || cfg.Name(res.Winners[0]) != "Ann" {
		t.Fatalf("result = %+v", res)
	}
	if *rec.Seed != 7 || cfg.Seed != 7 {
		t.Fatalf("seed = %d", cfg.Seed)
	}
}

// TestStartSharesDefaults: records that set no rule option share the
// registry's map of defaults; one that sets an option gets its own.
func TestStartSharesDefaults(t *testing.T) {
	t.Parallel()
	reg := testRegistry()
	start := func(rules string) Rules {
		t.Helper()
		rec, err := DecodeBytes([]byte(strings.Replace(goodRecord, `"rules": {"pile": 5}`, `"rules": `+rules, 1)))
		if err != nil {
			t.Fatal(err)
		}
		_, cfg, _, err := Start(reg, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Rules
	}
	same := func(a, b Rules) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	a, b, c := start(`{}`), start(`{}`), start(`{"pile": 5}`)
	if !same(a, b) || same(a, c) || !same(a, reg.DefaultRules("nim")) {
		t.Errorf("two records at the defaults share a map: %v, the registry's: %v; one with a pile of its own shares theirs: %v", same(a, b), same(a, reg.DefaultRules("nim")), same(a, c))
	}
	if reg.DefaultRules("chess") != nil {
		t.Error("DefaultRules of a game the registry does not hold is not nil")
	}
	if a.Int("pile") != 10 || c.Int("pile") != 5 {
		t.Errorf("piles %d and %d, want 10 and 5", a.Int("pile"), c.Int("pile"))
	}
}

// TestReplaySetupNames: a setup is keyed by its player's name in any
// case, as moves' "by" are.
func TestReplaySetupNames(t *testing.T) {
	rec, err := DecodeBytes([]byte(strings.Replace(goodRecord, `"Ben": {"lucky": 4}`, `"ben": {"lucky": 4}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Replay(testRegistry(), rec, nil); err != nil {
		t.Fatalf("a setup keyed \"ben\" for Ben: %v", err)
	}
}

func TestReplayRefusals(t *testing.T) {
	tests := []struct {
		name, edit, from, to string
		move                 int
		by, err              string
	}{
		{name: "bad move", from: `"move": "1"}`, to: `"move": "4"}`, move: 3, by: "Ann", err: `"4": take 1, 2 or 3`},
		{name: "out of turn", from: `{"by": "Ann", "move": "1"}`, to: `{"by": "Ben", "move": "1"}`, move: 3, by: "Ben", err: "it is not your turn: waiting for Ann"},
		{name: "stranger", from: `{"by": "Ann", "move": "1"}`, to: `{"by": "Cy", "move": "1"}`, move: 3, by: "Cy", err: `"Cy" is not a player`},
		{name: "bad rules", from: `"pile": 5`, to: `"pile": 500`, err: "rule option pile: 500 is out of range 1-50"},
		{name: "unknown rule", from: `"pile": 5`, to: `"heap": 5`, err: `unknown rule option "heap"`},
		{name: "bad setup", from: `"lucky": 4`, to: `"lucky": 40`, by: "Ben", err: "lucky number 40 is not 1-9"},
		{name: "missing setup", from: `, "Ben": {"lucky": 4}`, to: ``, by: "Ben", err: "no setup"},
		{name: "setup twice", from: `"Ben": {"lucky": 4}`, to: `"Ben": {"lucky": 4}, "BEN": {"lucky": 5}`, by: "Ben", err: "two setups for Ben"},
		{name: "setup of stranger", from: `"Ben": {"lucky": 4}`, to: `"Ben": {"lucky": 4}, "Cy": {"lucky": 1}`, err: `setup for "Cy"`},
		{name: "unknown game", from: `"game": "nim"`, to: `"game": "chess"`, err: `no game called "chess" (there are nim)`},
		{name: "too many players", from: `["Ann", "Ben"]`, to: `["Ann", "Ben", "Cy", "Di"]`, err: "Nim takes 2 to 3 players, the record has 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(goodRecord, tt.from, tt.to, 1)
			if text == goodRecord {
				t.Fatal("edit did not apply")
			}
			rec, err := DecodeBytes([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			_, _, steps, err := Replay(testRegistry(), rec, nil)
			var ref *Refusal
			if !errors.As(err, &ref) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			if ref.Move != tt.move || ref.By != tt.by || !strings.Contains(ref.Err.Error(), tt.err) {
				t.Fatalf("refusal = move %d by %q: %v; want move %d by %q: %s", ref.Move, ref.By, ref.Err, tt.move, tt.by, tt.err)
			}
			if tt.move > 0 && len(steps) != tt.move-1 {
				t.Fatalf("%d steps accepted before the refusal, want %d", len(steps), tt.move-1)
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	tests := []struct{ name, text, err string }{
		{"empty", ``, "not a Parlour game record"},
		{"not json", `hello`, "not a Parlour game record"},
		{"array", `[1,2]`, "not a Parlour game record"},
		{"version", `{"parlour": 2, "game": "nim", "players": ["A"]}`, "format version 2"},
		{"no game", `{"parlour": 1, "players": ["A"]}`, "no game named"},
		{"no players", `{"parlour": 1, "game": "nim", "players": []}`, "no players"},
		{"dup players", `{"parlour": 1, "game": "nim", "players": ["Ann", "ANN"]}`, `two players are called "ANN"`},
		{"blank player", `{"parlour": 1, "game": "nim", "players": [" "]}`, "empty name"},
		{"unknown field", `{"parlour": 1, "game": "nim", "players": ["A"], "colour": 1}`, "unknown field"},
		{"trailing", `{"parlour": 1, "game": "nim", "players": ["A"]} {}`, "text after"},
		{"two records", "{\"parlour\": 1, \"game\": \"nim\", \"players\": [\"A\"]}\n{\"parlour\": 1, \"game\": \"nim\", \"players\": [\"B\"]}\n", "more than one record"},
		{"the server's refusal", `{"error": "there is no table abc"}`, "it is the server's refusal: there is no table abc"},
		{"an error field and more", `{"error": "x", "game": "nim"}`, "unknown field"},
		{"bad time", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1", "at": "noon"}]}`, "not a Parlour game record"},
		{"a null move", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": "A", "move": "1"}, null]}`, `move 2 names no player (its "by")`},
		{"a move by nobody", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": null, "move": "1"}]}`, `move 1 names no player (its "by")`},
		{"a move by a blank", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": " ", "move": "1"}]}`, `move 1 names no player (its "by")`},
		{"an abort by nobody", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "aborted": {}}`, `the abort names no player`},
		// A record is printed to terminals: an escape sequence in it
		// would retitle the window or set the clipboard.
		{"an escape in a name", `{"parlour": 1, "game": "nim", "players": ["Robo\u001b]0;PWNED\u0007", "B"]}`, `holds a control character`},
		{"a direction control in a name", `{"parlour": 1, "game": "nim", "players": ["Ann\u202e", "B"]}`, `holds a control character`},
		{"a line break in a name", `{"parlour": 1, "game": "nim", "players": ["A\nB", "C"]}`, `holds a control character`},
		{"an escape in a move after a tab", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": "A", "move": "1\t\u001b[31m"}]}`, `move 1 holds a control character`},
		{"an escape in a move", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": "A", "move": "1\u001b[31m"}]}`, `move 1 holds a control character`},
		{"an escape in the event's name", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "event": {"id": "e1", "name": "Cup\u001b[2J"}}`, `the event's name holds a control character`},
		// Names match without case, as "by" does, Unicode's too: σ and ς
		// are one letter, and a move by either would be σ's.
		{"one name twice", `{"parlour": 1, "game": "nim", "players": ["Anna", "ANNA"]}`, `two players are called "ANNA"`},
		{"one Greek name twice", `{"parlour": 1, "game": "nim", "players": ["σ", "ς"]}`, `two players are called "ς"`},
		{"one name twice, a Kelvin", `{"parlour": 1, "game": "nim", "players": ["kay", "\u212aay"]}`, "two players are called \"\u212aay\""},
	}
	// The decoder's own words ("json: cannot unmarshal ... into Go struct
	// field Record.seed of type uint64", a bare "EOF") are not a
	// player's: each refusal says what is wrong with the file.
	worded := []struct{ name, text, err string }{
		{"empty file", ``, "the file is empty"},
		{"blank file", " \n", "the file is empty"},
		{"cut short", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A"`, "it ends too early: cut short?"},
		{"negative seed", `{"parlour": 1, "game": "nim", "players": ["A"], "seed": -1}`, `field "seed" should be a whole number of 0 or more, not -1`},
		{"seed a string", `{"parlour": 1, "game": "nim", "players": ["A"], "seed": "7"}`, `field "seed" should be a whole number of 0 or more, not a string`},
		{"players a string", `{"parlour": 1, "game": "nim", "players": "A, B"}`, `field "players" should be a list, not a string`},
		{"a move a number", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": 3}]}`, `field "moves/0/move" should be a string, not 3`},
		{"a list", `[1,2]`, "want an object, not a list"},
		{"null", `null`, `it has no "parlour": 1`},
		{"no version", `{"game": "nim", "players": ["A"]}`, `it has no "parlour": 1`},
		// A time is a string: the refusal quotes the one given.
		{"bad time", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1", "at": "noon"}]}`, `field "moves/0/at" should be a time as RFC 3339 writes it (2026-11-24T12:00:41Z), not "noon"`},
		{"time with a space", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [], "aborted": {"by": "A", "at": "2026-11-24 12:00:41Z"}}`, `field "aborted/at" should be a time as RFC 3339 writes it (2026-11-24T12:00:41Z), not "2026-11-24 12:00:41Z"`},
		{"a long bad time", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1", "at": "` + strings.Repeat("x", 100) + `"}]}`, `not "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"`},
		{"time a number", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1", "at": 1764000000}]}`, `field "moves/0/at" should be a time as RFC 3339 writes it (2026-11-24T12:00:41Z), not 1764000000`},
		{"not json", `hello`, `it is not JSON: it goes wrong at line 1, column 1, at "hello"`},
		{"not json further on", "{\"parlour\": 1,\n  \"game\": nim, \"players\": [\"Ann\", \"Ben\", \"Cy\"]}", `it is not JSON: it goes wrong at line 2, column 11, at "nim, \"players\": [\"An…"`},
		// A key given twice is refused, not read as its last value: the
		// moves written first would be lost without a word.
		{"moves twice", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1"}], "moves": []}`, `the key "moves" appears twice in one object`},
		{"moves twice, in two cases", `{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1"}], "Moves": []}`, `appears twice in one object`},
		{"a rule twice", `{"parlour": 1, "game": "nim", "rules": {"pile": 3, "pile": 4}, "players": ["A"]}`, `the key "pile" appears twice in one object (at /rules/pile)`},
		{"a move's by twice", `{"parlour": 1, "game": "nim", "players": ["A", "B"], "moves": [{"by": "A", "move": "1", "by": "B"}]}`, `the key "by" appears twice in one object (at /moves/0/by)`},
	}
	for _, tt := range worded {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeBytes([]byte(tt.text))
			if err == nil || !errors.Is(err, ErrNotRecord) || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), "json:") || strings.Contains(err.Error(), "Go ") {
				t.Fatalf("err = %v, want ErrNotRecord containing %q", err, tt.err)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeBytes([]byte(tt.text))
			if err == nil || !errors.Is(err, ErrNotRecord) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want ErrNotRecord containing %q", err, tt.err)
			}
		})
	}
	big := bytes.Repeat([]byte(" "), MaxRecordSize+1)
	if _, err := Decode(bytes.NewReader(big)); !errors.Is(err, ErrNotRecord) {
		t.Fatalf("oversized record: err = %v", err)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	rec, err := DecodeBytes([]byte(goodRecord))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := DecodeBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	again.Encode(&b2)
	if buf.String() != b2.String() {
		t.Fatalf("round trip changed the record:\n%s\n%s", buf.String(), b2.String())
	}
	if again.Moves[1].At == nil || again.Moves[1].At.Hour() != 10 {
		t.Fatalf("move time lost: %+v", again.Moves[1])
	}
}

func TestRecordFor(t *testing.T) {
	rec, _ := DecodeBytes([]byte(goodRecord))
	rec.Moves = rec.Moves[:1]
	_, cfg, st, err := Start(testRegistry(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	mine := rec.For(nim{}, cfg, st.Result(), 1)
	if _, ok := mine.Setup["Ann"]; ok {
		t.Fatal("Ben's record holds Ann's setup mid-game")
	}
	if _, ok := mine.Setup["Ben"]; !ok {
		t.Fatal("Ben's record lost Ben's own setup")
	}
	if len(rec.Setup) != 2 {
		t.Fatal("For changed the original record")
	}
	spect := rec.For(nim{}, cfg, st.Result(), Spectator)
	if len(spect.Setup) != 0 {
		t.Fatalf("spectator record holds setups: %v", spect.Setup)
	}
	whole := rec.For(nim{}, cfg, Result{Status: Finished}, Spectator)
	if len(whole.Setup) != 2 {
		t.Fatal("finished record should be whole")
	}
}

// TestDecodeByteOrderMark: a record saved by an editor that starts its
// UTF-8 files with a byte order mark (Windows Notepad did) reads as the
// same record, as JSON's RFC lets a reader allow, instead of "invalid
// character 'ï'".
func TestDecodeByteOrderMark(t *testing.T) {
	t.Parallel()
	rec, err := DecodeBytes([]byte("\ufeff" + goodRecord + "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Game != "nim" || len(rec.Moves) != 3 {
		t.Errorf("read %+v", rec)
	}
	// Only at the start: anywhere else it is not JSON.
	if _, err := DecodeBytes([]byte(goodRecord + "\ufeff")); !errors.Is(err, ErrNotRecord) {
		t.Errorf("a mark after the record: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(goodRecord))
	f.Add([]byte(`{"parlour": 1, "game": "nim", "players": ["A", "B"], "setup": {"A": {"lucky": 1}, "B": {"lucky": 2}}, "moves": [{"by": "A", "move": "3"}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"parlour": 1, "game": "nim", "rules": {"pile": "x"}, "players": ["A"]}`))
	f.Add([]byte(`{"parlour": 1, "game": "nim", "players": ["σ", "ς"], "moves": [{"by": "ς", "move": "1"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := DecodeBytes(b)
		if err != nil {
			if !errors.Is(err, ErrNotRecord) {
				t.Fatalf("decode error does not wrap ErrNotRecord: %v", err)
			}
			return
		}
		// Whatever decodes must re-referee without panicking, and a
		// refusal must be a *Refusal.
		// Every player is found by their own name, as a move's "by"
		// finds its mover.
		cfg := Config{Players: rec.Players}
		for i, p := range rec.Players {
			if s, ok := cfg.SeatOf(p); !ok || int(s) != i {
				t.Fatalf("player %d, %q, is found as seat %d", i, p, s)
			}
		}
		_, _, _, err = Replay(testRegistry(), rec, nil)
		var ref *Refusal
		if err != nil && !errors.As(err, &ref) {
			t.Fatalf("replay error is not a refusal: %v", err)
		}
	})
}

// blindNim hides every setup from its owner too, as solitaire Quizl does.
type blindNim struct{ nim }

func (blindNim) HidesSetup(cfg Config, owner, viewer Seat) bool { return true }

func TestRecordForHidesOwnSetup(t *testing.T) {
	rec, _ := DecodeBytes([]byte(goodRecord))
	rec.Moves = rec.Moves[:1]
	_, cfg, st, err := Start(testRegistry(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.For(blindNim{}, cfg, st.Result(), 1); len(got.Setup) != 0 {
		t.Fatalf("a game that hides setups from their owners showed %v", got.Setup)
	}
}

// TestRecordEvent: a record of a tournament's game keeps its event through
// a round trip, and an event without an id is refused.
func TestRecordEvent(t *testing.T) {
	t.Parallel()
	text := `{"parlour": 1, "game": "nim", "players": ["A", "B"], "event": {"id": "t1", "name": "Hourly Nim", "round": 2}, "moves": []}`
	rec, err := DecodeBytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := Tournament{ID: "t1", Name: "Hourly Nim", Round: 2}
	if rec.Event == nil || *rec.Event != want {
		t.Fatalf("event = %+v, want %+v", rec.Event, want)
	}
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := DecodeBytes(buf.Bytes())
	if err != nil || again.Event == nil || *again.Event != want {
		t.Fatalf("after a round trip: %+v, %v", again, err)
	}
	for _, bad := range []string{`{"id": ""}`, `{"id": "t1", "round": -1}`, `{"id": "t1", "place": 1}`} {
		if _, err := DecodeBytes([]byte(`{"parlour": 1, "game": "nim", "players": ["A"], "event": ` + bad + `}`)); !errors.Is(err, ErrNotRecord) {
			t.Errorf("event %s: err = %v, want ErrNotRecord", bad, err)
		}
	}
}

// TestDecodeLowerCaseTimes: RFC 3339 lets a time's T and Z be written
// in lower case (its section 5.6), so a record whose times are is read,
// the times as the upper-case ones; a time otherwise malformed is still
// refused.
func TestDecodeLowerCaseTimes(t *testing.T) {
	t.Parallel()
	rec, err := DecodeBytes([]byte(`{"parlour": 1, "game": "nim", "players": ["A", "B"],
		"moves": [{"by": "A", "move": "1", "at": "2026-11-24t12:00:41z"}, {"by": "B", "move": "say \"at\": \"2026-11-24t12:00:41z\"", "At" : "2026-11-24t12:00:42.5+01:00"}],
		"aborted": {"by": "B", "at": "2026-11-24t12:01:00Z"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{time.Date(2026, 11, 24, 12, 0, 41, 0, time.UTC), time.Date(2026, 11, 24, 11, 0, 42, 5e8, time.UTC)}
	for i, w := range want {
		if at := rec.Moves[i].At; at == nil || !at.Equal(w) {
			t.Errorf("move %d at %v, want %v", i+1, at, w)
		}
	}
	if rec.Moves[1].Move != `say "at": "2026-11-24t12:00:41z"` {
		t.Errorf("a move's text changed: %q", rec.Moves[1].Move)
	}
	if a := rec.Aborted; a == nil || a.At == nil || !a.At.Equal(time.Date(2026, 11, 24, 12, 1, 0, 0, time.UTC)) {
		t.Errorf("aborted %+v", a)
	}
	if _, err := DecodeBytes([]byte(`{"parlour": 1, "game": "nim", "players": ["A"], "moves": [{"by": "A", "move": "1", "at": "2026-11-24x12:00:41z"}]}`)); !errors.Is(err, ErrNotRecord) {
		t.Errorf("a malformed time: %v", err)
	}
}

// TestUpperTimesLeavesUpperCase: a record written as the server writes
// it is read as it is, not copied.
func TestUpperTimesLeavesUpperCase(t *testing.T) {
	t.Parallel()
	b := []byte(`{"moves": [{"by": "A", "move": "1", "at": "2026-11-24T12:00:41.5Z"}, {"by": "B", "move": "2", "at": "2026-11-24T12:00:41+01:00"}]}`)
	if got := upperTimes(b); &got[0] != &b[0] {
		t.Errorf("copied: %s", got)
	}
}
