// Command bot is an example of a program that plays at a Parlour server
// through its HTTP API alone (docs/protocol.md): plain net/http and
// encoding/json, nothing of Parlour's own packages. It opens a table
// against one of the server's computer players, plays Nymphabet or Quizl
// to the end, one request per turn ("wait": true), and prints the result.
//
//	go run ./docs/examples/bot -server http://localhost:8080 -game quizl
//
// Its play is simple on purpose; it is a starting point, not a champion.
// Give it a word list (-words FILE, one word a line) to know more words
// than the few it carries.
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
)

func main() {
	server := flag.String("server", "http://localhost:8080", "the Parlour server")
	gameName := flag.String("game", "nymphabet", "nymphabet or quizl")
	level := flag.String("level", "easy", "the computer's level: easy, medium or strong")
	wordFile := flag.String("words", "", "a word list, one word a line (default: the few words the bot carries)")
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
	table  string
	token  string
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
		err = b.nymphabet(ctx)
	case "quizl":
		err = b.quizl(ctx)
	default:
		err = fmt.Errorf("this bot plays nymphabet and quizl, not %q", gameName)
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
func (b *Bot) nymphabet(ctx context.Context) error {
	deleted := 0 // letters deleted so far: the current letter is 'a'+deleted
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
		for _, e := range a.Events {
			if e.Kind == "word" {
				var d struct{ Deleted string }
				json.Unmarshal(e.Data, &d)
				deleted += len(strings.Split(d.Deleted, ", "))
			}
		}
		if a.Status == "finished" {
			return nil
		}
	}
	return nil
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
	var a Answer
	if err := b.call(ctx, "/api/v1/tables/"+b.table+"/setup", map[string]any{"auto": true, "wait": true}, &a); err != nil {
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
