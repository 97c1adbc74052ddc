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

func nymRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestNymphabetSolveJSON(t *testing.T) {
	type entry struct {
		Letter string  `json:"letter"`
		Value  string  `json:"value"`
		Word   *string `json:"word"`
	}
	type report struct {
		Mode        string  `json:"mode"`
		FirstPlayer string  `json:"first_player"`
		Positions   []entry `json:"positions"`
		Starts      []entry `json:"starts"`
		QThroughU   *bool   `json:"q_through_u"`
	}
	for _, mode := range []string{"standard", "cyclic", "scoring"} {
		code, out, errs := nymRun(t, "nymphabet", "solve", "--mode", mode, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, code, errs)
		}
		d := json.NewDecoder(strings.NewReader(out))
		d.DisallowUnknownFields()
		var r report
		if err := d.Decode(&r); err != nil {
			// q_through_u_words may appear for other lexicons; en has none.
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		if r.Mode != mode || r.FirstPlayer != "win" || r.QThroughU == nil || *r.QThroughU {
			t.Errorf("%s: %+v", mode, r)
		}
		es := r.Starts
		if mode == "standard" {
			es = r.Positions
			if r.Starts != nil {
				t.Errorf("standard report has starts")
			}
		} else if r.Positions != nil {
			t.Errorf("%s report has positions", mode)
		}
		if len(es) != 26 {
			t.Fatalf("%s: %d entries", mode, len(es))
		}
		for i, e := range es {
			if e.Letter != string(rune('A'+i)) || (e.Value == "loss") != (e.Word == nil) {
				t.Errorf("%s: entry %+v", mode, e)
			}
			if e.Word != nil && (*e.Word)[0] != byte('a'+i) {
				t.Errorf("%s: %s's word %s", mode, e.Letter, *e.Word)
			}
		}
		if mode == "standard" {
			if es[21].Value != "loss" || es[16].Value != "loss" || es[17].Value != "win" {
				t.Errorf("standard: V %s, Q %s, R %s", es[21].Value, es[16].Value, es[17].Value)
			}
		}
	}
}

func TestNymphabetSolveText(t *testing.T) {
	code, out, errs := nymRun(t, "nymphabet", "solve")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"standard mode, lexicon en", "the first player wins", "  V  loss  -", "No word beginning with Q deletes Q through U."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = nymRun(t, "nymphabet", "solve", "--mode", "CYCLIC", "--all")
	if code != 0 || !strings.Contains(out, "Every position") || !strings.Contains(out, "Z,  1 left: win Z") {
		t.Errorf("cyclic --all: exit %d\n%s", code, out)
	}
}

func TestNymphabetSolveHouseList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(path, []byte("# a house list\nqrstu\nabc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := nymRun(t, "nymphabet", "solve", "--lexicon", path, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r["q_through_u"] != true || !strings.Contains(out, `"qrstu"`) {
		t.Errorf("house list: %s", out)
	}
}

func TestNymphabetSolveBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"nymphabet"},
		{"nymphabet", "play"},
		{"nymphabet", "solve", "--mode", "spiral"},
		{"nymphabet", "solve", "--lexicon", "/no/such/file"},
		{"nymphabet", "solve", "extra"},
		{"nymphabet", "solve", "--colour"},
	} {
		if code, _, errs := nymRun(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	// A command that is not solve is named as unknown before the usage.
	if _, _, errs := nymRun(t, "nymphabet", "play"); !strings.HasPrefix(errs, `parlour nymphabet: unknown command "play"`) {
		t.Errorf("nymphabet play: stderr %q", errs)
	}
}
