package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const scoringGame = `{"parlour":1,"game":"nymphabet","rules":{"mode":"scoring"},"lexicon":"en-large","players":["Ann","Ben"],"moves":[
{"by":"Ann","move":"queerest"},{"by":"Ben","move":"uvula"},{"by":"Ann","move":"waxy"},{"by":"Ben","move":"zabaglione"},
{"by":"Ann","move":"CeDE"},{"by":"Ben","move":"fighting"},{"by":"Ann","move":"jackal"},{"by":"Ben","move":"minorship"}]}`

const quizlGame = `{"parlour":1,"game":"quizl","players":["Ann","Ben"],
"setup":{"Ann":{"grid":["TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"},
         "Ben":{"grid":["TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"}},
"moves":[{"by":"Ann","move":"72"},{"by":"Ben","move":"54"},{"by":"Ann","move":"say psalm"}]}`

// practiceLost is Salvo practice, one seat against the computer's
// fleet, given up.
const practiceLost = `{"parlour":1,"game":"salvo","players":["Tess"],
"setup":{"Tess":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}},
"moves":[{"by":"Tess","move":"fire A1 A2 A3 A4 A5"},{"by":"Tess","move":"resign"}]}`

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	house := filepath.Join(dir, "house.txt")
	if err := os.WriteFile(house, []byte("# a house list\nqueerest\nUVULA\nwaxy\nzabaglione\ncede\nfighting\njackal\nminorship\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		record string
		code   int
		want   map[string]any // fields of the JSON output
		text   string         // part of the output (plain mode)
	}{
		{name: "scoring finished", args: []string{"--json"}, record: scoringGame, code: 0,
			want: map[string]any{"status": "finished", "winners": []any{"Ann"}, "scores": map[string]any{"Ann": 108.0, "Ben": 96.0}, "moves": 8.0}},
		{name: "house list", args: []string{"--json", "--lexicon", house}, record: strings.Replace(scoringGame, `"en-large"`, `"en"`, 1), code: 0,
			want: map[string]any{"status": "finished", "winners": []any{"Ann"}}},
		{name: "in progress", args: []string{"--json"}, record: strings.Replace(scoringGame, `,{"by":"Ann","move":"jackal"},{"by":"Ben","move":"minorship"}`, "", 1), code: 0,
			want: map[string]any{"status": "in_progress", "to_move": []any{"Ann"}, "moves": 6.0, "winners": []any{}}},
		{name: "word not in en", args: []string{"--json"}, record: strings.Replace(scoringGame, `"en-large"`, `"en"`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 8.0, "by": "Ben"}},
		{name: "out of turn", args: []string{"--json"}, record: strings.Replace(scoringGame, `{"by":"Ben","move":"uvula"}`, `{"by":"Ann","move":"uvula"}`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 2.0, "by": "Ann"}},
		{name: "unknown lexicon", args: []string{"--json"}, record: strings.Replace(scoringGame, `"en-large"`, `"/etc/passwd"`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 0.0}},
		{name: "quizl specimen", args: []string{"--json"}, record: quizlGame, code: 0,
			want: map[string]any{"status": "in_progress", "moves": 3.0, "to_move": []any{"Ben"}}},
		{name: "quizl bad grid", args: []string{"--json"}, record: strings.Replace(quizlGame, `"TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"},
         "Ben"`, `"TQUFP","WZVES","OGBRA","CHINL","KYXDP"],"password":"PSALM"},
         "Ben"`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 0.0, "by": "Ann"}},
		{name: "a clock, and a resign played for Ben", args: []string{"--json"}, record: strings.Replace(strings.Replace(scoringGame, `"mode":"scoring"`, `"mode":"scoring","clock":60`, 1), `{"by":"Ben","move":"minorship"}`, `{"by":"Ben","move":"resign","at":"2026-11-24T12:01:41Z"}`, 1), code: 0,
			want: map[string]any{"status": "finished", "winners": []any{"Ann"}, "moves": 8.0}},
		{name: "a clock out of range", args: []string{"--json"}, record: strings.Replace(scoringGame, `"mode":"scoring"`, `"mode":"scoring","clock":5`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 0.0}},
		{name: "aborted before Ben moved", args: []string{"--json"}, record: strings.Replace(quizlGame, `,{"by":"Ben","move":"54"},{"by":"Ann","move":"say psalm"}]`, `],"aborted":{"by":"Ben"}`, 1), code: 0,
			want: map[string]any{"status": "aborted", "winners": []any{}, "scores": nil, "moves": 1.0, "to_move": nil}},
		{name: "aborted after both moved", args: []string{"--json"}, record: strings.Replace(quizlGame, `,{"by":"Ann","move":"say psalm"}]`, `],"aborted":{"by":"Ben"}`, 1), code: 1,
			want: map[string]any{"status": "refused", "move": 3.0, "by": "Ben"}},
		{name: "plain abort", record: strings.Replace(quizlGame, `,{"by":"Ben","move":"54"},{"by":"Ann","move":"say psalm"}]`, `],"aborted":{"by":"Ben","at":"2026-11-24T12:01:41Z"}`, 1), code: 0, text: "Aborted by Ben after 1 move: no result."},
		{name: "plain late abort", record: strings.Replace(quizlGame, `,{"by":"Ann","move":"say psalm"}]`, `],"aborted":{"by":"ben"}`, 1), code: 1, text: "Refused: abort by Ben refused: every player has made a move"},
		{name: "not a record", args: []string{"--json"}, record: `{"hello": 1}`, code: 2},
		{name: "plain text", record: scoringGame, code: 0, text: "ZABAGLIONE"},
		// The scores are named for what they count, one player's apart
		// from the next.
		{name: "plain scoring scores", record: scoringGame, code: 0, text: "\nScores (the letters each turn deleted, multiplied): Ann 108, Ben 96\n"},
		{name: "plain letters deleted", record: strings.Replace(scoringGame, `"mode":"scoring"`, `"mode":"cyclic"`, 1), code: 0, text: "\nLetters deleted: Ann 13, Ben 13\n"},
		{name: "plain points", record: quizlGame, code: 0, text: "\nScores: Ann "},
		// A game of one seat without a winner was lost, not drawn.
		{name: "plain practice lost", record: practiceLost, code: 0, text: "\nFinished after 2 moves: Tess did not win.\n"},
		{name: "plain refusal", record: strings.Replace(scoringGame, `"en-large"`, `"en"`, 1), code: 1, text: "Refused: move 8 by Ben"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append(append([]string{"replay"}, tt.args...), "-")
			code := run(context.Background(), args, strings.NewReader(tt.record), &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout %s; stderr %s", code, tt.code, out.String(), errb.String())
			}
			if tt.text != "" && !strings.Contains(out.String(), tt.text) {
				t.Fatalf("output lacks %q:\n%s", tt.text, out.String())
			}
			if tt.want == nil {
				return
			}
			var got map[string]any
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out.String())
			}
			for k, v := range tt.want {
				gb, _ := json.Marshal(got[k])
				wb, _ := json.Marshal(v)
				if string(gb) != string(wb) {
					t.Errorf("%s = %s, want %s", k, gb, wb)
				}
			}
			if got["status"] == "refused" && got["error"] == "" {
				t.Error("refusal without an error")
			}
		})
	}
}

func TestReplayFileErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"replay", filepath.Join(t.TempDir(), "missing.json")}, nil, &out, &errb); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
	if code := run(context.Background(), []string{"replay"}, nil, &out, &errb); code != 2 {
		t.Fatalf("no file: exit %d", code)
	}
}

// TestRecordsDocExamples: every record docs/records.md shows replays, so
// that a reader who copies one to try parlour replay is not refused.
func TestRecordsDocExamples(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/records.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	n := 0
	for _, b := range blocks {
		if !bytes.Contains(b[1], []byte(`"parlour"`)) {
			continue
		}
		n++
		var out, errOut bytes.Buffer
		if code := runReplay(context.Background(), []string{"--json", "-"}, bytes.NewReader(b[1]), &out, &errOut); code != 0 {
			t.Errorf("exit %d for the example\n%s\n%s%s", code, b[1], out.String(), errOut.String())
		}
	}
	if n < 3 {
		t.Fatalf("found %d record examples in docs/records.md", n)
	}
}

// TestMistypedLexicon: a lexicon's name mistyped is told the names, once,
// by the commands that take a record.
func TestMistypedLexicon(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"replay", "analyse"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{cmd, "--lexicon", "en-lrage", "-"}, strings.NewReader(scoringGame), &out, &errb)
		want := "parlour " + cmd + `: lexicon: no lexicon "en-lrage" and no file of that name: the lexicons are en-common, en and en-large`
		if code != 2 || !strings.HasPrefix(errb.String(), want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", cmd, code, errb.String(), want)
		}
	}
}
