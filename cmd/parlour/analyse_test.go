package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nymphabetGame is a finished standard game of a medium player (first)
// against the strong one; its first word throws the first player's win
// away.
const nymphabetGame = `{"parlour":1,"game":"nymphabet","rules":{},"lexicon":"en","seed":3,"players":["P1-medium","P2-strong"],"moves":[{"by":"P1-medium","move":"abler"},{"by":"P2-strong","move":"candlefish"},{"by":"P1-medium","move":"garden"},{"by":"P2-strong","move":"hijabs"},{"by":"P1-medium","move":"keeping"},{"by":"P2-strong","move":"lymphadenopathy"},{"by":"P1-medium","move":"quartz"},{"by":"P2-strong","move":"simultaneous"},{"by":"P1-medium","move":"vague"},{"by":"P2-strong","move":"waxy"},{"by":"P1-medium","move":"zoom"}]}`

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestAnalyseAgreesWithSolve runs `parlour analyse --json` and `parlour
// nymphabet solve --json` and checks every position of the game against
// the solver's table.
func TestAnalyseAgreesWithSolve(t *testing.T) {
	code, out, errs := runCmd(t, "", "nymphabet", "solve", "--json")
	if code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errs)
	}
	var rep struct {
		Positions []struct{ Letter, Value string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Positions) != 26 {
		t.Fatalf("solve output: %v", err)
	}
	code, out, errs = runCmd(t, nymphabetGame, "analyse", "--json", "-")
	if code != 0 {
		t.Fatalf("analyse: exit %d: %s", code, errs)
	}
	var a struct {
		Game      string
		Nymphabet struct {
			Moves []struct {
				Letter, Before, After, Best string
				Mistake                     bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Game != "nymphabet" || len(a.Nymphabet.Moves) != 11 {
		t.Fatalf("analysis: %s", out)
	}
	for i, m := range a.Nymphabet.Moves {
		want := rep.Positions[m.Letter[0]-'A'].Value
		if m.Before != want {
			t.Errorf("move %d from %s: analysis says %s, the solver %s", i+1, m.Letter, m.Before, want)
		}
	}
	if m := a.Nymphabet.Moves[0]; !m.Mistake || m.Before != "win" || m.After != "loss" || m.Best == "" {
		t.Errorf("ABLER threw the win away: %+v", m)
	}
}

func TestAnalyseCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(file, []byte(nymphabetGame), 0o644); err != nil {
		t.Fatal(err)
	}
	inProgress := strings.Replace(nymphabetGame, `,{"by":"P1-medium","move":"zoom"}`, "", 1)
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		out   string // part of stdout
		err   string // part of stderr
	}{
		{"text", []string{"analyse", file}, "", 0, "  1. P1-medium: ABLER (from A, 26 left): win -> loss  MISTAKE", ""},
		{"text result", []string{"analyse", file}, "", 0, "Result: P2-strong won.", ""},
		{"json", []string{"analyse", "--json", file}, "", 0, `"first_player":"win"`, ""},
		{"in progress", []string{"analyse", "-"}, inProgress, 1, "", "still in progress after 10 moves"},
		{"refused", []string{"analyse", "-"}, strings.Replace(nymphabetGame, "garden", "zebra", 1), 1, "", "move 3 by P1-medium refused"},
		{"not a record", []string{"analyse", "-"}, `{"hello": 1}`, 2, "", "not a Parlour game record"},
		{"unknown lexicon", []string{"analyse", "-"}, strings.Replace(nymphabetGame, `"en"`, `"/etc/passwd"`, 1), 1, "", "give its word list with --lexicon"},
		{"missing file", []string{"analyse", filepath.Join(t.TempDir(), "none.json")}, "", 2, "", "no such file"},
		{"no file", []string{"analyse"}, "", 2, "", "usage: parlour analyse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCmd(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errs, tt.err) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s\nwant %q / %q", code, tt.code, out, errs, tt.out, tt.err)
			}
		})
	}
}
