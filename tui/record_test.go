package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSaveSoFar: ctrl+s saves the record of a game under way as the
// player's seat may read it: their own grid, not the opponent's, into
// DIR/records (TestNoDiskRecordLink: over SSH it writes nothing).
func TestSaveSoFar(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	tm.key("ctrl+s")
	tm.waitFor("the record saved", has("the record so far saved to"))
	path := filepath.Join(tm.m.cfg.DataDir, "records", "quizl-"+tm.table().id+".json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Game    string
		Players []string
		Setup   map[string]struct{ Password string }
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("the saved record: %v\n%s", err, raw)
	}
	if rec.Game != "quizl" || len(rec.Players) != 2 {
		t.Errorf("the saved record is of %q with players %v", rec.Game, rec.Players)
	}
	if len(rec.Setup) != 1 || rec.Setup[rec.Players[0]].Password == "" {
		t.Errorf("the saved record's setups are %+v, want Ann's alone", rec.Setup)
	}
	// The record's values, not its keys, are searched: a password such
	// as LAYER or SWORD is spelt inside "players" and "password".
	// (twoPlayerQuizl gives Ann a password other than Ben's.)
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(stringValues(doc), func(v string) bool { return strings.EqualFold(v, ben.password) }) {
		t.Errorf("the record so far holds Ben's password %s:\n%s", ben.password, raw)
	}
	if tm.table().end.saved != "" {
		t.Errorf("the record so far counts as the end's saved record %s", tm.table().end.saved)
	}
}

// stringValues lists every string value in a decoded JSON document, the
// object keys left out.
func stringValues(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringValues(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range v {
			out = append(out, stringValues(e)...)
		}
		return out
	}
	return nil
}
