package protocol

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"parlour/game"
	"parlour/server/refuse"
)

// FuzzDecodeSeekRequest: a seek's body is refused with a 400 (or 413)
// that says something, or decoded to a request whose shape holds: a game,
// a compact clock that is a number or an object, a coherent rating
// range, a known opponent.
func FuzzDecodeSeekRequest(f *testing.F) {
	for _, s := range []string{
		`{"game": "salvo"}`, `{"game": "nymphabet", "mode": "cyclic", "rated": true, "clock": 60}`,
		`{"game": "quizl", "clock": {"kind": "fischer", "initial": 300, "increment": 3}}`,
		`{"game": "quizl", "rating_range": {"within": 200}}`, `{"game": "quizl", "rating_range": {"min": 1200, "max": 1800}}`,
		`{"game": "quizl", "rating_range": {"min": 1800, "max": 1200}}`, `{"game": "quizl", "rating_range": {}}`,
		`{"game": "quizl", "clock": "fast"}`, `{"game": "quizl", "clock": null}`, `{"game": "quizl", "opponent": "computer"}`,
		`{"game": "quizl", "lexicon": "en-large", "rules": {"set_target": 3}}`, `{"game": "quizl", "game": "salvo"}`, `{}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := DecodeSeekRequest(bytes.NewReader(b), 4096)
		if err != nil {
			if st := refuse.Status(err); st != http.StatusBadRequest && st != http.StatusRequestEntityTooLarge || err.Error() == "" {
				t.Fatalf("error %v has status %d", err, refuse.Status(err))
			}
			return
		}
		if req.Game == "" {
			t.Fatal("accepted a seek of no game")
		}
		if len(req.Clock) > 0 {
			var buf bytes.Buffer
			if json.Compact(&buf, req.Clock) != nil || !bytes.Equal(buf.Bytes(), req.Clock) || req.Clock[0] == '"' && !takenClock(req.Clock) || req.Clock[0] == '[' || string(req.Clock) == "null" {
				t.Fatalf("accepted clock %q", req.Clock)
			}
		}
		if rr := req.RatingRange; rr != nil {
			if rr.Within != nil && (rr.Min != nil || rr.Max != nil) || rr.Within == nil && rr.Min == nil && rr.Max == nil {
				t.Fatalf("accepted range %+v", rr)
			}
			if rr.Min != nil && rr.Max != nil && *rr.Min > *rr.Max {
				t.Fatalf("accepted range %d to %d", *rr.Min, *rr.Max)
			}
		}
		if req.Opponent != "" && req.Opponent != "anyone" && req.Opponent != "computer" {
			t.Fatalf("accepted opponent %q", req.Opponent)
		}
	})
}

// TestDecodeSeekRequest: the bodies a seek is refused for name what is
// wrong; a clock is compacted.
func TestDecodeSeekRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, says string }{
		{`{"game": "quizl", "clock": "fast"}`, `the clock: want "none"`},
		{`{"game": "quizl", "clock": "0+3"}`, `the clock: "0+3": a fischer clock's initial`},
		{`{"game": "quizl", "clock": [60]}`, "clock"},
		{`{"game": "quizl", "clock": true}`, "clock"},
		{`{"game": "quizl", "rating_range": {"within": 0}}`, "within"},
		{`{"game": "quizl", "rating_range": {"min": -1}}`, "bounds"},
		{`{"game": "quizl", "rating_range": {"min": 1800, "max": 1200}}`, "above"},
		{`{"game": "quizl", "rating_range": {"min": 1, "within": 5}}`, "not both"},
		// Either bound alone will do, so an empty range does not ask for both.
		{`{"game": "quizl", "rating_range": {}}`, "needs a min, a max or within"},
		{`{"game": "quizl", "opponent": "bot"}`, "opponent"},
		{`{"rated": true}`, "which game"},
		{`{"game": "quizl", "rated": true, "rated": false}`, "twice"},
	} {
		if _, err := DecodeSeekRequest(strings.NewReader(c.body), 4096); err == nil || refuse.Status(err) != 400 || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want a 400 saying %q", c.body, err, c.says)
		}
	}
	for body, want := range map[string]string{
		`{"game": "quizl", "clock": { "kind" : "turn", "seconds": 60 }}`: `{"kind":"turn","seconds":60}`,
		`{"game": "quizl", "clock": "3+2"}`:                              `"3+2"`,
		`{"game": "quizl", "clock": " none "}`:                           `" none "`,
	} {
		req, err := DecodeSeekRequest(strings.NewReader(body), 4096)
		if err != nil || string(req.Clock) != want {
			t.Errorf("%s: clock %q, %v; want %s", body, req.Clock, err, want)
		}
	}
}

// takenClock reports whether c, a clock in a string, is one the rules
// take.
func takenClock(c []byte) bool {
	_, err := game.DecodeClock(c)
	return err == nil
}
