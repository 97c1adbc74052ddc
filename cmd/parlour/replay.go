package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
)

// isEmbeddedLexicon reports whether a record may name lexicon name: any
// other comes only from a word list given with --lexicon, so that a record
// never makes us read a file.
func isEmbeddedLexicon(name string) bool {
	switch name {
	case "en", "en-common", "en-large":
		return true
	}
	return false
}

// replayJSON is the object `parlour replay --json` prints (RECORDS.md).
type replayJSON struct {
	Status  string         `json:"status"`
	Winners []string       `json:"winners"`
	Scores  map[string]int `json:"scores,omitempty"`
	Moves   int            `json:"moves"`
	ToMove  []string       `json:"to_move,omitempty"`
}

// refusalJSON is the refusal object of `parlour replay --json`.
type refusalJSON struct {
	Status string `json:"status"`
	Move   int    `json:"move"`
	By     string `json:"by,omitempty"`
	Error  string `json:"error"`
}

func runReplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("replay", flag.ContinueOnError)
	fl.SetOutput(stderr)
	asJSON := fl.Bool("json", false, "print the result as one JSON object")
	lexName := fl.String("lexicon", "", "referee with this lexicon (a name, or a word-list file) instead of the record's")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour replay [--json] [--lexicon WORDLIST] FILE|-")
		fl.PrintDefaults()
	}
	if err := parseFlags(fl, args); err != nil {
		return flagsFailed(err)
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "parlour replay: %v\n", err)
		return code
	}
	rec, err := readRecord(fl.Arg(0), stdin)
	if err != nil {
		return fail(2, err)
	}
	var lex *lexicon.Lexicon
	if *lexName != "" {
		lex, err = lexicon.Load(*lexName)
		if err != nil {
			return fail(2, err) // the lexicon package names itself
		}
	} else {
		name := rec.Lexicon
		if name == "" {
			name = "en"
		}
		if !isEmbeddedLexicon(name) {
			return refuse(stdout, stderr, *asJSON, &game.Refusal{Err: fmt.Errorf("the record uses lexicon %q; give its word list with --lexicon", name)})
		}
		lex, err = lexicon.Load(name)
		if err != nil {
			return fail(2, err) // the lexicon package names itself
		}
	}
	cfg, st, steps, err := game.Replay(games.Registry(), rec, lex)
	var ref *game.Refusal
	if errors.As(err, &ref) {
		if !*asJSON {
			printSteps(stdout, cfg, steps)
		}
		return refuse(stdout, stderr, *asJSON, ref)
	}
	if err != nil {
		return fail(2, err)
	}
	res := st.Result()
	out := replayJSON{Status: string(res.Status), Winners: []string{}, Moves: len(steps)}
	for _, w := range res.Winners {
		out.Winners = append(out.Winners, cfg.Name(w))
	}
	if res.Scores != nil {
		out.Scores = map[string]int{}
		for i, s := range res.Scores {
			out.Scores[cfg.Name(game.Seat(i))] = s
		}
	}
	if res.Status == game.InProgress {
		for _, s := range st.ToMove() {
			out.ToMove = append(out.ToMove, cfg.Name(s))
		}
	}
	if *asJSON {
		return writeJSON(stdout, stderr, out, 0)
	}
	printBoards(stdout, cfg, st)
	printSteps(stdout, cfg, steps)
	if by, ok := game.AbortedBy(st); ok {
		fmt.Fprintf(stdout, "\nAborted by %s after %s: no result.\n", cfg.Name(by), game.Count(len(steps), "move", "moves"))
		return 0
	}
	label := "scores"
	if g, err := games.Registry().Lookup(rec.Game); err == nil {
		label = game.ScoresLabel(g, cfg.Rules)
	}
	printResult(stdout, cfg, out, label)
	return 0
}

func refuse(stdout, stderr io.Writer, asJSON bool, ref *game.Refusal) int {
	if asJSON {
		return writeJSON(stdout, stderr, refusalJSON{Status: "refused", Move: ref.Move, By: ref.By, Error: ref.Err.Error()}, 1)
	}
	fmt.Fprintf(stdout, "\nRefused: %v\n", ref)
	return 1
}

func writeJSON(stdout, stderr io.Writer, v any, code int) int {
	e := json.NewEncoder(stdout)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		fmt.Fprintf(stderr, "parlour replay: %v\n", err)
		return 2
	}
	return code
}

// printBoards prints what a spectator sees at the end; a finished game's
// views reveal everything.
func printBoards(w io.Writer, cfg game.Config, st game.State) {
	v := st.View(game.Spectator)
	if s, ok := v.(fmt.Stringer); ok {
		fmt.Fprintln(w, s.String())
		return
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		fmt.Fprintf(w, "%s\n", b)
	}
}

func printSteps(w io.Writer, cfg game.Config, steps []game.Step) {
	if len(steps) == 0 {
		return
	}
	fmt.Fprintln(w, "\nMoves:")
	for i, s := range steps {
		fmt.Fprintf(w, "%4d. %s: %s\n", i+1, cfg.Name(s.Seat), strings.ToUpper(strings.TrimSpace(s.Move.Move)))
		for _, e := range s.Events {
			if e.Text == "" {
				continue
			}
			to := "everyone"
			if e.To != nil {
				names := make([]string, len(e.To))
				for j, t := range e.To {
					names[j] = cfg.Name(t)
				}
				to = strings.Join(names, ", ")
			}
			fmt.Fprintf(w, "        %s (to %s)\n", e.Text, to)
		}
	}
}

// printResult says how the game stands or ended, then the scores, named
// by label (game.ScoresLabel).
func printResult(w io.Writer, cfg game.Config, r replayJSON, label string) {
	fmt.Fprintln(w)
	switch r.Status {
	case string(game.Finished):
		switch {
		case len(r.Winners) == 0 && len(cfg.Players) == 1:
			// Alone against the computer's grid or fleet, nobody
			// to draw with: no winner is a loss.
			fmt.Fprintf(w, "Finished after %s: %s did not win.\n", game.Count(r.Moves, "move", "moves"), cfg.Players[0])
		case len(r.Winners) == 0:
			fmt.Fprintf(w, "Finished after %s: a draw.\n", game.Count(r.Moves, "move", "moves"))
		default:
			fmt.Fprintf(w, "Finished after %s: %s won.\n", game.Count(r.Moves, "move", "moves"), strings.Join(r.Winners, " and "))
		}
	default:
		fmt.Fprintf(w, "In progress after %s; to move: %s.\n", game.Count(r.Moves, "move", "moves"), strings.Join(r.ToMove, ", "))
	}
	if r.Scores != nil {
		scores := make([]string, len(cfg.Players))
		for i, n := range cfg.Players {
			scores[i] = fmt.Sprintf("%s %d", n, r.Scores[n])
		}
		fmt.Fprintf(w, "%s%s: %s\n", strings.ToUpper(label[:1]), label[1:], strings.Join(scores, ", "))
	}
}

// readRecord decodes the game record in the file name, or on stdin when
// name is "-", for the commands that take a record.
func readRecord(name string, stdin io.Reader) (*game.Record, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	return game.Decode(in)
}
