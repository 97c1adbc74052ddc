// Command bot is an example of a program that plays at a Parlour server
// through its HTTP API alone (docs/protocol.md): plain net/http and
// encoding/json, nothing of Parlour's own packages. It opens a table
// against one of the server's computer players, plays Nymphabet, Quizl,
// Salvo or Sightless Word Fight to the end, one request per turn ("wait":
// true), and prints the result.
//
//	go run ./docs/examples/bot -server http://localhost:8080 -game quizl
//
// Its play is simple on purpose; it is a starting point, not a champion.
// Give it a word list (-words FILE, one word a line) to know more words
// than the few it carries.
//
// With -arena ID it plays in an arena instead (docs/tournaments.md): it
// signs in to the account -name with -password (or acts for -token, a
// session token, or, with neither, plays as a guest called -name, which
// a casual arena takes), opens the player stream (GET /api/v1/stream) so
// that the server counts it online, joins the arena (POST
// /api/v1/tournaments/ID/join, with -arena-password when it has one),
// and plays each game a "tournamentGame" line of the stream seats it at,
// to its end, until the arena is over (its status "finished"), then
// prints its place:
//
//	go run ./docs/examples/bot -server http://localhost:8080 -arena k3x9q2m7c8v4r6tw -name Robo -password 'a long secret'
//
// The arena's game must be one the bot plays: Nymphabet, Quizl, Salvo
// or Sightless Word Fight.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	server := flag.String("server", "http://localhost:8080", "the Parlour server")
	gameName := flag.String("game", "nymphabet", "nymphabet, quizl, salvo or wordfight")
	level := flag.String("level", "easy", "the computer's level: easy, medium or strong")
	wordFile := flag.String("words", "", "a word list, one word a line (default: the few words the bot carries)")
	arena := flag.String("arena", "", "an arena's id: join it and play its games until it ends")
	name := flag.String("name", "Example bot", "with -arena: the account to sign in to (with -password), or the guest's name")
	password := flag.String("password", "", "with -arena: the account's password")
	token := flag.String("token", "", "with -arena: a session token to act for, instead of -name and -password")
	arenaPassword := flag.String("arena-password", "", "with -arena: the arena's password, when it has one")
	flag.Parse()
	words := strings.Fields(builtinWords)
	if *wordFile != "" {
		var err error
		if words, err = readWords(*wordFile); err != nil {
			fmt.Fprintln(os.Stderr, "bot:", err)
			os.Exit(2)
		}
	}
	b := &Bot{Server: *server, Words: words, Log: os.Stdout}
	if *arena != "" {
		ctx := context.Background()
		err := b.SignIn(ctx, *name, *password, *token)
		var st Standing
		if err == nil {
			st, err = b.Arena(ctx, *arena, *arenaPassword)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bot:", err)
			os.Exit(1)
		}
		fmt.Printf("the arena is over: place %d with %d points from %d games\n", st.Rank, st.Score, st.Games)
		return
	}
	res, err := b.Play(context.Background(), *gameName, *level)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
	fmt.Printf("game over: winners %v, scores %v\n", res.Winners, res.Scores)
}

// Bot plays one table at a time.
type Bot struct {
	Server string
	Words  []string // lower case
	Log    io.Writer
	// Poll is how often Arena reads the arena while it waits for a game
	// (default: 5 seconds): to see it end, and a pairing the stream
	// missed.
	Poll  time.Duration
	table string
	token string
	// name is the name the bot plays under in an arena's standings.
	name string
}

// Event is one event of a move, as the server sends it.
type Event struct {
	Kind string          `json:"kind"`
	Text string          `json:"text"`
	Data json.RawMessage `json:"data"`
}

// Answer is the answer to a move or a setup asked with "wait": true.
type Answer struct {
	Version  int     `json:"version"`
	Status   string  `json:"status"`
	ToMove   []int   `json:"to_move"`
	Events   []Event `json:"events"`
	TimedOut bool    `json:"timed_out"`
}

// Result is the end of a game, as the table reports it.
type Result struct {
	Winners []int `json:"winners"`
	Scores  []int `json:"scores"`
}

// call POSTs body to path (or GETs when body is nil) and decodes the
// answer into out; a refusal comes back as an error with the server's
// words and its status.
func (b *Bot) call(ctx context.Context, path string, body, out any) error {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return err
		}
		method, rd = http.MethodPost, bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.Server+path, rd)
	if err != nil {
		return err
	}
	if b.token != "" {
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var e struct{ Error string }
		json.Unmarshal(raw, &e)
		return &Refusal{Status: res.StatusCode, Message: e.Error}
	}
	return json.Unmarshal(raw, out)
}

// Refusal is a request the server refused.
type Refusal struct {
	Status  int
	Message string
}

func (r *Refusal) Error() string { return fmt.Sprintf("%d: %s", r.Status, r.Message) }

// move plays one move and waits for our next turn or the end: one
// request, unless the server's longest wait passes first.
func (b *Bot) move(ctx context.Context, move string) (Answer, error) {
	var a Answer
	err := b.call(ctx, "/api/v1/tables/"+b.table+"/moves", map[string]any{"move": move, "wait": true}, &a)
	if err != nil {
		return a, err
	}
	fmt.Fprintf(b.Log, "%s: %d events, %s\n", move, len(a.Events), a.Status)
	if a.TimedOut {
		err = b.awaitTurn(ctx, &a)
	}
	return a, err
}

// awaitTurn follows the table's event stream after a wait that timed out,
// until it is our turn or the game is over, adding the events of the
// moves it reads to a.
func (b *Bot) awaitTurn(ctx context.Context, a *Answer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/api/v1/tables/%s/events?from=%d", b.Server, b.table, a.Version), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var u struct {
			Version int `json:"version"`
			Seat    int `json:"seat"`
			Table   struct {
				Status string `json:"status"`
				ToMove []int  `json:"to_move"`
			} `json:"table"`
			Moves []struct {
				Events []Event `json:"events"`
			} `json:"moves"`
		}
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return err
		}
		for _, m := range u.Moves {
			a.Events = append(a.Events, m.Events...)
		}
		a.Version, a.Status, a.ToMove = u.Version, u.Table.Status, u.Table.ToMove
		if a.Status == "finished" || slices.Contains(a.ToMove, u.Seat) {
			a.TimedOut = false
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the event stream ended before our turn")
}

// Play opens a table of gameName against the computer at level and plays
// it to the end.
func (b *Bot) Play(ctx context.Context, gameName, level string) (Result, error) {
	// Refused before the table is opened: a table of a game the bot cannot
	// play would wait for its moves, against the computer, until claimed.
	if !plays(gameName) {
		return Result{}, errNotPlayable(gameName)
	}
	var seated struct{ Table, Token string }
	b.token = ""
	err := b.call(ctx, "/api/v1/tables", map[string]any{
		"game": gameName, "seats": []string{"me", "computer:" + level}, "name": "Example bot", "private": true,
	}, &seated)
	if err != nil {
		return Result{}, err
	}
	b.table, b.token = seated.Table, seated.Token
	fmt.Fprintf(b.Log, "table %s: %s against the computer (%s)\n", b.table, gameName, level)
	switch gameName {
	case "nymphabet":
		err = b.nymphabet(ctx, Answer{})
	case "quizl":
		err = b.quizl(ctx)
	case "salvo":
		var a Answer
		if a, err = b.setUp(ctx); err == nil {
			err = b.salvo(ctx, newSalvo(0, 2), a)
		}
	case "wordfight":
		err = b.wordfight(ctx)
	}
	if err != nil {
		return Result{}, err
	}
	var u struct {
		Table struct {
			Result Result `json:"result"`
		} `json:"table"`
	}
	err = b.call(ctx, "/api/v1/tables/"+b.table, nil, &u)
	return u.Table.Result, err
}

// nymphabet writes, on each turn, the known word that begins with the
// current letter and deletes the most letters short of Z (whoever deletes
// Z loses), and resigns when it knows none.
func (b *Bot) nymphabet(ctx context.Context, so Answer) error {
	// Letters deleted so far (the current letter is 'a'+deleted), by
	// the moves before the bot's first.
	deleted := wordDeletes(so.Events)
	tried := map[string]bool{}
	for deleted < 26 {
		cur := byte('a' + deleted)
		best, bestN := "", -1
		for _, w := range b.Words {
			if w[0] != cur || tried[w] {
				continue
			}
			n := deletes(w, cur)
			if deleted+n == 26 {
				n = 0 // takes Z: only if nothing else will do
			}
			if n > bestN {
				best, bestN = w, n
			}
		}
		if best == "" {
			best = "resign"
		}
		tried[best] = true
		a, err := b.move(ctx, best)
		var r *Refusal
		if errors.As(err, &r) && r.Status == http.StatusUnprocessableEntity {
			continue // not a word here, or repeated: try another
		}
		if err != nil {
			return err
		}
		deleted += wordDeletes(a.Events)
		if a.Status == "finished" {
			return nil
		}
	}
	return nil
}

// wordDeletes counts the letters the words of events deleted.
func wordDeletes(events []Event) int {
	n := 0
	for _, e := range events {
		if e.Kind == "word" {
			var d struct{ Deleted string }
			json.Unmarshal(e.Data, &d)
			n += len(strings.Split(d.Deleted, ", "))
		}
	}
	return n
}

// deletes counts the letters word deletes from the current letter cur:
// cur, then each next letter of the alphabet found later in the word.
func deletes(word string, cur byte) int {
	n, at := 0, -1
	for c := cur; c <= 'z'; c++ {
		i := strings.IndexByte(word[at+1:], c)
		if i < 0 {
			break
		}
		at += i + 1
		n++
	}
	return n
}

// quizl calls squares and reads what they reveal of the computer's grid;
// when a line's known letters fit exactly one known password, it
// announces it. It stops being asked once it is done with the grid
// (announced right, or uncovered the password unannounced).
func (b *Bot) quizl(ctx context.Context) error {
	a, err := b.setUp(ctx)
	if err != nil {
		return err
	}
	var grid [5][5]byte // grid[row-5][column], 0 while unknown
	said := map[string]bool{}
	next := 0
	for a.Status != "finished" {
		for _, e := range a.Events {
			if e.Kind != "revealed" {
				continue
			}
			var d struct {
				Letters []struct{ Square, Letter string }
			}
			json.Unmarshal(e.Data, &d)
			for _, l := range d.Letters {
				grid[l.Square[0]-'5'][l.Square[1]-'0'] = strings.ToLower(l.Letter)[0]
			}
		}
		move := ""
		if w := b.guess(&grid, said); w != "" {
			said[w] = true
			move = "say " + w
		} else if next < 25 {
			// Every other square first: a spread of letters over every line.
			sq := (next * 2) % 25
			if next >= 13 {
				sq = ((next-13)*2 + 1) % 25
			}
			move = fmt.Sprintf("%d%d", 5+sq/5, sq%5)
			next++
		} else {
			move = "resign"
		}
		var err error
		if a, err = b.move(ctx, move); err != nil {
			return err
		}
	}
	return nil
}

// setUp hands in a setup the server draws at random (a Quizl grid, a
// Salvo fleet) and waits for play to start and the bot's turn.
func (b *Bot) setUp(ctx context.Context) (Answer, error) {
	var a Answer
	if err := b.call(ctx, "/api/v1/tables/"+b.table+"/setup", map[string]any{"auto": true, "wait": true}, &a); err != nil {
		return a, err
	}
	if a.TimedOut {
		// A person may take longer over a setup than the server's
		// longest wait: wait on for play to start and our turn.
		if err := b.awaitTurn(ctx, &a); err != nil {
			return a, err
		}
	}
	return a, nil
}

// plays reports whether the bot plays gameName.
func plays(gameName string) bool {
	switch gameName {
	case "nymphabet", "quizl", "salvo", "wordfight":
		return true
	}
	return false
}

// errNotPlayable refuses a game the bot does not play.
func errNotPlayable(gameName string) error {
	return fmt.Errorf("this bot plays nymphabet, quizl, salvo and wordfight, not %q", gameName)
}

// guess returns a password to announce: a word fitting the known letters
// of some line, the only one to fit it, with at least three known.
func (b *Bot) guess(grid *[5][5]byte, said map[string]bool) string {
	for l := range 10 {
		var line [5]byte
		known := 0
		for i := range 5 {
			if l < 5 {
				line[i] = grid[l][i]
			} else {
				line[i] = grid[i][l-5]
			}
			if line[i] != 0 {
				known++
			}
		}
		if known < 3 {
			continue
		}
		var fits []string
		for _, w := range b.Words {
			if len(w) == 5 && !said[w] && fitsLine(w, line) {
				fits = append(fits, w)
			}
		}
		if len(fits) == 1 {
			return fits[0]
		}
	}
	return ""
}

func fitsLine(w string, line [5]byte) bool {
	for i := range 5 {
		if line[i] != 0 && line[i] != w[i] {
			return false
		}
		if strings.IndexByte(w[i+1:], w[i]) >= 0 {
			return false // a password has five different letters
		}
	}
	return true
}

func readWords(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.ToLower(strings.TrimSpace(sc.Text()))
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
			out = append(out, w)
		}
	}
	return out, sc.Err()
}

// builtinWords are a few common words: some for each letter (Nymphabet),
// and five-letter ones of five different letters (Quizl).
const builtinWords = `
	abdicated able about above black bench bad cede cod cut defy den dog
	egg elf end fig fog fun ghost gun gym hijack hot hum ink ill itch jam
	jokes jump key kiln kit lemon lid lump mind money mud nope nose nut
	opera odd opt pond pup pretty queen quit quiz rest rob rust stun sun sit
	tea tub tug up urn use van vet vow wax wet wit xylophone yak yes you
	zip zone zoo
	crane psalm blimp waves audio ghost jumpy vixen wharf plumb frock dwarf
	glyph nymph quick brown zebra mouse stare tears rates aster light fjord
	bumpy waltz house plant train clear heart world sound point water money
	night story young place right think great small large early third
`

// Arenas.

// Standing is a player's line of an event's standings: the little of it
// the bot reads.
type Standing struct {
	Rank  int    `json:"rank"`
	Name  string `json:"name"`
	Score int    `json:"score"`
	Games int    `json:"games"`
	// Playing is the table where they play now.
	Playing string `json:"playing"`
}

// Tournament is an event as GET /api/v1/tournaments/{id} answers it: the
// little of it the bot reads.
type Tournament struct {
	Name      string     `json:"name"`
	Game      string     `json:"game"`
	Status    string     `json:"status"` // created, started or finished
	Standings []Standing `json:"standings"`
}

// Pairing is what a "tournamentGame" line of the player stream says: the
// event, and the table and seat where the bot plays.
type Pairing struct {
	Event string `json:"event"`
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Game  string `json:"game"`
}

// SignIn gives the bot its token: token as given (a session's), or a
// session of the account name signed in with password, or, with
// neither, a new guest identity called name (POST /api/v1/identity).
func (b *Bot) SignIn(ctx context.Context, name, password, token string) error {
	b.token, b.name = "", name
	var who struct {
		Name  string `json:"name"`
		Token string `json:"token"`
	}
	switch {
	case token != "":
		b.token = token
		if err := b.call(ctx, "/api/v1/account", nil, &who); err != nil {
			return fmt.Errorf("the token signs in nobody: %w", err)
		}
		b.name = who.Name
		return nil
	case password != "":
		if err := b.call(ctx, "/api/v1/sessions", map[string]string{"name": name, "password": password}, &who); err != nil {
			return fmt.Errorf("signing in as %s: %w", name, err)
		}
	default:
		if err := b.call(ctx, "/api/v1/identity", map[string]string{"name": name}, &who); err != nil {
			return fmt.Errorf("making a guest called %s: %w", name, err)
		}
	}
	b.token, b.name = who.Token, who.Name
	return nil
}

// Arena joins arena id (with its password, when it has one) and plays
// every game it is paired for until the arena is over; it returns the
// bot's line of the final standings. The player stream brings each
// pairing at once, and keeps the bot online, which an arena asks of the
// players it pairs; the arena is read every Poll besides, to see it end
// and to catch a pairing the stream missed while it reconnected.
func (b *Bot) Arena(ctx context.Context, id, password string) (Standing, error) {
	if b.token == "" {
		return Standing{}, errors.New("sign in first (SignIn)")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pairings, opened := make(chan Pairing, 16), make(chan error, 1)
	go b.follow(ctx, id, pairings, opened)
	if err := <-opened; err != nil {
		return Standing{}, fmt.Errorf("opening the player stream: %w", err)
	}
	body := map[string]string{}
	if password != "" {
		body["password"] = password
	}
	var ev Tournament
	if err := b.call(ctx, "/api/v1/tournaments/"+id+"/join", body, &ev); err != nil {
		return Standing{}, fmt.Errorf("joining the arena: %w", err)
	}
	fmt.Fprintf(b.Log, "joined %s (%s) as %s\n", ev.Name, ev.Status, b.name)
	poll := b.Poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	played := map[string]bool{}
	for {
		var table, gameName, by string
		select {
		case p := <-pairings:
			table, gameName, by = p.Table, p.Game, "the player stream"
		case <-tick.C:
			ev = Tournament{} // a field the answer leaves out is not the last one's
			if err := b.call(ctx, "/api/v1/tournaments/"+id, nil, &ev); err != nil {
				return Standing{}, fmt.Errorf("reading the arena: %w", err)
			}
			if ev.Status == "finished" {
				return b.mine(ev), nil
			}
			table, gameName, by = b.mine(ev).Playing, ev.Game, "the standings"
		case <-ctx.Done():
			return Standing{}, ctx.Err()
		}
		if table == "" || played[table] {
			continue
		}
		played[table] = true
		fmt.Fprintf(b.Log, "paired at table %s (%s said)\n", table, by)
		if err := b.playAt(ctx, table, gameName); err != nil {
			if ctx.Err() != nil {
				return Standing{}, ctx.Err()
			}
			// One game gone wrong (its clock ran out between two
			// requests, say) is one game: the arena goes on.
			fmt.Fprintf(b.Log, "table %s: %v\n", table, err)
		}
	}
}

// mine is the bot's line of ev's standings.
func (b *Bot) mine(ev Tournament) Standing {
	for _, s := range ev.Standings {
		if strings.EqualFold(s.Name, b.name) {
			return s
		}
	}
	return Standing{}
}

// follow reads the player stream until ctx ends, sending the pairings of
// event id on out; opened hears how its first connection went. A
// connection lost is opened again a second later.
func (b *Bot) follow(ctx context.Context, id string, out chan<- Pairing, opened chan<- error) {
	first := true
	for ctx.Err() == nil {
		err := b.streamOnce(ctx, id, out, func() {
			if first {
				first = false
				opened <- nil
			}
		})
		if first {
			opened <- err
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// streamOnce reads one connection of the player stream; ok is called
// once the server answers it.
func (b *Bot) streamOnce(ctx context.Context, id string, out chan<- Pairing, ok func()) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.Server+"/api/v1/stream", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		var e struct{ Error string }
		json.NewDecoder(res.Body).Decode(&e)
		return &Refusal{Status: res.StatusCode, Message: e.Error}
	}
	ok()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue // the stream's keep-alive
		}
		var line struct {
			Type       string   `json:"type"`
			Tournament *Pairing `json:"tournament"`
			Error      string   `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return err
		}
		if line.Error != "" {
			return errors.New(line.Error)
		}
		if line.Type == "tournamentGame" && line.Tournament != nil && line.Tournament.Event == id {
			select {
			case out <- *line.Tournament:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return sc.Err()
}

// playAt plays the bot's seat at table to the end of its game, from
// wherever the game stands: the opponent may have moved first.
func (b *Bot) playAt(ctx context.Context, table, gameName string) error {
	b.table = table
	var u struct {
		Version int `json:"version"`
		Seat    int `json:"seat"`
		Table   struct {
			Status string `json:"status"`
			ToMove []int  `json:"to_move"`
			Result Result `json:"result"`
			Seats  []struct {
				Seat int `json:"seat"`
			} `json:"seats"`
			// Rules are the table's rules: of them the bot reads
			// those of Salvo that change what it knows.
			Rules struct {
				ShotsLostBy string `json:"shots_lost_by"`
				Diagonal    bool   `json:"diagonal_ships"`
			} `json:"rules"`
		} `json:"table"`
	}
	if err := b.call(ctx, "/api/v1/tables/"+table, nil, &u); err != nil {
		return err
	}
	fmt.Fprintf(b.Log, "table %s: %s, seat %d\n", table, gameName, u.Seat)
	var err error
	switch {
	case u.Table.Status == "finished":
	case gameName == "nymphabet":
		a := Answer{Status: u.Table.Status, ToMove: u.Table.ToMove}
		if u.Version > 0 || !slices.Contains(u.Table.ToMove, u.Seat) {
			// The moves so far, up to the bot's turn.
			if err := b.awaitTurn(ctx, &a); err != nil {
				return err
			}
		}
		if a.Status != "finished" {
			err = b.nymphabet(ctx, a)
		}
	case gameName == "quizl":
		err = b.quizl(ctx)
	case gameName == "salvo":
		g := newSalvo(u.Seat, len(u.Table.Seats))
		g.lostBy, g.diagonal = u.Table.Rules.ShotsLostBy, u.Table.Rules.Diagonal
		var a Answer
		if a, err = b.setUp(ctx); err == nil {
			err = b.salvo(ctx, g, a)
		}
	case gameName == "wordfight":
		err = b.wordfight(ctx)
	default:
		err = errNotPlayable(gameName)
	}
	if err != nil {
		return err
	}
	if err := b.call(ctx, "/api/v1/tables/"+table, nil, &u); err != nil {
		return err
	}
	fmt.Fprintf(b.Log, "table %s: game over, winners %v, scores %v (the bot sat at %d)\n", table, u.Table.Result.Winners, u.Table.Result.Scores, u.Seat)
	return nil
}
