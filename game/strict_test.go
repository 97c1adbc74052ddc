package game

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

type strictThing struct {
	Name  string         `json:"name"`
	Count *int           `json:"count,omitempty"`
	Seats uint8          `json:"seats,omitempty"`
	List  []string       `json:"list,omitempty"`
	Rules map[string]any `json:"rules,omitempty"`
}

// TestDecodeJSON: keys match exactly, a key twice is refused at any depth,
// and each refusal says what is wrong in words, trailing data marked so.
func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		trailing bool
	}{
		{`{"name": "Ann", "count": 2, "list": ["a"], "rules": {"x": 1}}`, "", false},
		{`{"NAME": "Ann"}`, `unknown field "NAME" (field names are lower case, as documented)`, false},
		{`{"Name": "Ann"}`, `unknown field "Name"`, false},
		{`{"name": "Ann", "colour": "red"}`, `unknown field "colour": here the fields are "name", "count", "seats", "list" and "rules"`, false},
		{`{"name": "Ann", "name": "Bob"}`, `the key "name" appears twice in one object (at /name): give each key once`, false},
		{`{"name": "Ann", "rules": {"x": 1, "x": 2}}`, `the key "x" appears twice in one object (at /rules/x)`, false},
		{"{\"name\": \"A\xffn\"}", "a string is not valid UTF-8", false},
		{`{"name": "Ann"`, "the JSON ends too early", false},
		{`{"name": "Ann"} {}`, "there is more after the JSON value", true},
		{`{"name": 5}`, `field "name" should be a string, not a number`, false},
		{`{"count": "5"}`, `field "count" should be a whole number, not a string`, false},
		{`{"list": "a"}`, `field "list" should be a list, not a string`, false},
		{`[1]`, "want an object, not a list", false},
		{`{"name": ["Ann"]}`, `field "name" should be a string, not a list`, false},
		{`{"count": {}}`, `field "count" should be a whole number, not an object`, false},
		{`{"name": true}`, `field "name" should be a string, not true or false`, false},
		{`{"name": }`, "malformed JSON at byte", false},
		{`{"count": 99999999999999999999}`, `field "count" is too large a number (99999999999999999999)`, false},
		{`{"count": -99999999999999999999}`, `field "count" is too far below zero (-99999999999999999999)`, false},
		{`{"seats": 300}`, `field "seats" is too large a number (300)`, false},
		{`{"count": 1.5}`, `field "count" should be a whole number, not 1.5`, false},
		{`{"count": 1e3}`, `field "count" should be a whole number, not 1e3`, false},
		{`{"seats": -1}`, `field "seats" should be a whole number of 0 or more, not -1`, false},
		{`{"count": 1` + strings.Repeat("0", 200) + `}`, `field "count" is too large a number (100000000000000000000…)`, false},
	} {
		var v strictThing
		err := DecodeJSON([]byte(tc.in), &v)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
			}
			continue
		}
		je, ok := errors.AsType[*JSONError](err)
		if !ok || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a *JSONError saying %q", tc.in, err, tc.want)
			continue
		}
		if je.Trailing != tc.trailing || je.Err == nil {
			t.Errorf("%s: Trailing %v, Err %v; want Trailing %v and the decoder's error", tc.in, je.Trailing, je.Err, tc.trailing)
		}
	}
}

// FuzzDecodeJSON: DecodeJSON never panics, refuses with a worded
// *JSONError, and what it takes encoding/json takes too, to the same
// value, and holds no key twice or in another case.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"name": "Ann", "count": 2, "list": ["a"], "rules": {"x": 1}}`, `{"NAME": "Ann"}`, `{"name": "A", "name": "B"}`,
		`{"rules": {"x": 1, "x": 2}}`, `{"name": "A"} {}`, `{"count": 1.5}`, `[]`, `null`, "", "{\"name\": \"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v strictThing
		err := DecodeJSON(b, &v)
		if err != nil {
			if _, ok := errors.AsType[*JSONError](err); !ok || err.Error() == "" {
				t.Fatalf("%q: refused with %T %v, want a worded *JSONError", b, err, err)
			}
			return
		}
		if !utf8.Valid(b) {
			t.Fatalf("%q: invalid UTF-8 taken", b)
		}
		var loose strictThing
		if err := json.Unmarshal(b, &loose); err != nil {
			t.Fatalf("%q: taken strictly, refused by encoding/json: %v", b, err)
		}
		got, _ := json.Marshal(v)
		want, _ := json.Marshal(loose)
		if string(got) != string(want) {
			t.Fatalf("%q: read as %s strictly, %s by encoding/json", b, got, want)
		}
	})
}

// TestUnknownFieldWords: the hint that field names are lower case is
// given only where it could be the mistake, for a name with a capital in
// a body read in exact case; a record's names match in any case.
func TestUnknownFieldWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"name": "Ann", "colour": "red"}`, `unknown field "colour": here the fields are "name", "count", "seats", "list" and "rules"`},
		{`{"NAME": "Ann"}`, `unknown field "NAME" (field names are lower case, as documented): here the fields are "name", "count", "seats", "list" and "rules"`},
	} {
		var v strictThing
		if err := DecodeJSON([]byte(tc.in), &v); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
	for _, in := range []string{
		`{"parlour": 1, "game": "nim", "players": ["A"], "colour": 1}`,
		`{"parlour": 1, "game": "nim", "players": ["A"], "Colour": 1}`,
	} {
		_, err := DecodeBytes([]byte(in))
		if err == nil || !strings.Contains(err.Error(), "unknown field") || strings.Contains(err.Error(), "lower case") {
			t.Errorf("%s: %v, want an unknown field without a word on case", in, err)
		}
	}
}
