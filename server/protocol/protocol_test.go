package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
)

func FuzzDecodeClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type": "hello", "token": "abc", "version": 3}`,
		`{"type": "hello", "table": "k3x9q2m7c8v4r6tw", "token": "abc"}`, `{"type": "hello", "table": "../x"}`,
		`{"type": "move", "move": "72", "id": "m1", "version": 9}`,
		`{"type": "setup", "auto": true, "computer": "strong"}`,
		`{"type": "setup", "setup": {"grid": ["ABCDE"]}}`,
		`{"type": "chat", "channel": "players", "text": "hi"}`, `{"type": "mute", "channel": "spectators", "muted": true}`,
		`{"type": "mute", "channel": "players"}`,
		`{"type": "chat", "channel": "all", "text": "hi"}`, `{"type": "hello", "chat": 4}`,
		`{"type": "ping"}`, `{"type": "leave", "id": "l"}`, `{"type": "dance"}`, `{}`, `[]`, `null`, `{"type": "move"`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeClientMessage(b)
		if err != nil {
			if refuse.Status(err) != http.StatusBadRequest || err.Error() == "" {
				t.Fatalf("error %v has status %d", err, refuse.Status(err))
			}
			return
		}
		switch m.Type {
		case "hello":
			if m.Table != "" && !auth.ValidID(m.Table) {
				t.Fatalf("accepted table %q", m.Table)
			}
		case "ping", "setup", "leave":
		case "chat", "mute":
			if m.Channel != table.ChannelPlayers && m.Channel != table.ChannelSpectators {
				t.Fatalf("accepted channel %q", m.Channel)
			}
			if m.Type == "mute" && m.Muted == nil {
				t.Fatalf("accepted a mute that does not say whether: %q", b)
			}
		case "move":
			if strings.TrimSpace(m.Move) == "" || len(m.Move) > table.MaxMoveLen {
				t.Fatalf("accepted move %q", m.Move)
			}
		default:
			t.Fatalf("accepted type %q", m.Type)
		}
	})
}

// TestRefusedMessageKeepsItsID: a socket message refused as it decodes
// (a field of the wrong type, one unknown or given twice) comes back
// with its id wherever the id stood, so that the client's answer names
// it; one whose id is not a string, or too long, or that is no JSON
// object, comes back with none.
func TestRefusedMessageKeepsItsID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg, id string
	}{
		{`{"type":"move","move":"able","version":"3","id":"m1"}`, "m1"},
		{`{"id":"m1","type":"move","move":"able","version":"3"}`, "m1"},
		{`{"type":"chat","channel":5,"text":"hi","id":"m1"}`, "m1"},
		{`{"type":"move","move":"able","move":"baker","id":"m1"}`, "m1"},
		{`{"type":"move","bogus":1,"move":"able","id":"m2"}`, "m2"},
		{`{"type":"move","move":"","id":"m3"}`, "m3"},
		{`{"type":"move","move":"able","version":"3","id":7}`, ""},
		{`{"type":"move","move":"able","version":"3","id":"` + strings.Repeat("x", maxClientID+1) + `"}`, ""},
		{`{"type":"move","id":"m1"`, ""},
		{`["m1"]`, ""},
	} {
		m, err := DecodeClientMessage([]byte(tc.msg))
		if err == nil || refuse.Status(err) != http.StatusBadRequest || m.ID != tc.id {
			t.Errorf("%s: id %q, %v; want %q and a 400", tc.msg, m.ID, err, tc.id)
		}
	}
}

// TestNegativeVersionRefused: a version below 0, in a move's body or a
// socket's move or hello, is refused as bad input (400, naming the
// version), not taken as no version or answered as a conflict with the
// table's version; 0 and above pass.
func TestNegativeVersionRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		ok   bool
	}{
		{`{"move": "able", "version": -1}`, false},
		{`{"move": "able", "version": 0}`, true},
		{`{"move": "able", "version": 3, "wait": true}`, true},
	} {
		_, err := DecodeMoveRequest(strings.NewReader(tc.body), 1<<16)
		if (err == nil) != tc.ok || (err != nil && (refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "version"))) {
			t.Errorf("move body %s: %v", tc.body, err)
		}
	}
	for _, tc := range []struct {
		msg string
		ok  bool
	}{
		{`{"type": "move", "move": "able", "version": -1, "id": "m1"}`, false},
		{`{"type": "hello", "token": "abc", "version": -1}`, false},
		{`{"type": "hello", "token": "abc", "version": 0}`, true},
		{`{"type": "move", "move": "able", "version": 12}`, true},
	} {
		_, err := DecodeClientMessage([]byte(tc.msg))
		if (err == nil) != tc.ok || (err != nil && (refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "version"))) {
			t.Errorf("socket message %s: %v", tc.msg, err)
		}
	}
}

// FuzzDecodeRequests feeds one body to the decoder of every HTTP request
// body: each must answer a value or a 400/413 error, never panic.
func FuzzDecodeRequests(f *testing.F) {
	for _, s := range []string{
		`{"game": "quizl", "rules": {"set_target": 50}, "seats": ["me", "open", "computer:strong"], "name": "Ann"}`,
		`{"name": "Ben", "seat": 1}`,
		`{"setup": {"fleet": ["B2-B6"]}}`, `{"auto": true}`,
		`{"move": "fire A1 B2", "version": 12}`,
		`{"rules": {"x": [1, 2, {"y": null}]}}`, `{"seats": "me"}`, `{"move": "\u0000"}`, `{"a":1}{"b":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(err error) {
			if err != nil && refuse.Status(err) != http.StatusBadRequest && refuse.Status(err) != http.StatusRequestEntityTooLarge {
				t.Fatalf("error %v has status %d", err, refuse.Status(err))
			}
		}
		var c table.CreateRequest
		check(DecodeJSON(strings.NewReader(string(b)), 4096, &c))
		var j table.JoinRequest
		check(DecodeJSON(strings.NewReader(string(b)), 4096, &j))
		var s table.SetupRequest
		check(DecodeJSON(strings.NewReader(string(b)), 4096, &s))
		var m table.MoveRequest
		check(DecodeJSON(strings.NewReader(string(b)), 4096, &m))
		var i IdentityRequest
		check(DecodeJSON(strings.NewReader(string(b)), 4096, &i))
		err := DecodeNone(strings.NewReader(string(b)), 4096)
		check(err)
		if trimmed := strings.TrimSpace(string(b)); err == nil && trimmed != "" && trimmed != "null" && !strings.HasPrefix(trimmed, "{") {
			t.Fatalf("DecodeNone took %q", b)
		}
	})
}

// FuzzDecodeMoveRequest checks that the direct reading of plain move
// bodies agrees with the general decoder on every body.
func FuzzDecodeMoveRequest(f *testing.F) {
	for _, s := range []string{
		`{"move":"72"}`, ` { "move" : "fire A1 B2" } `, `{"move":""}`, `{"move":"a\"b"}`,
		`{"move":"\u0037"}`, `{"move":"72","version":3}`, `{"MOVE":"72"}`, `{"move":"72"}x`,
		`{"move":"72"`, `{"move":72}`, "{\"move\":\"\xff\"}", `{"move":"é"}`, `{}`, ``,
		`{"move":"72","move":"73"}`, `{"Move":"72"}`, `{"mov\u0065":"72"}`, `{"move":"72","VERSION":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ferr := DecodeMoveRequest(bytes.NewReader(b), 4096)
		var slow table.MoveRequest
		serr := DecodeJSON(bytes.NewReader(b), 4096, &slow)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("%q: direct error %v, decoder error %v", b, ferr, serr)
		}
		if ferr != nil {
			return
		}
		if fast.Move != slow.Move || (fast.Version == nil) != (slow.Version == nil) || (fast.Version != nil && *fast.Version != *slow.Version) {
			t.Fatalf("%q: direct %+v, decoder %+v", b, fast, slow)
		}
		// What is accepted has each key once, spelt exactly.
		keys := topLevelKeys(t, b)
		seen := map[string]bool{}
		for _, k := range keys {
			if (k != "move" && k != "version") || seen[k] {
				t.Fatalf("%q accepted with keys %q", b, keys)
			}
			seen[k] = true
		}
	})
}

// FuzzPlainClientMessage checks that the direct reading of plain socket
// messages agrees with the general decoder on every message it takes.
func FuzzPlainClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","move":"72"}`, ` { "type" : "move", "id": "m1", "move" : "fire A1 B2", "version": 12 } `,
		`{"type":"move","move":""}`, `{"type":"move","move":"a\"b"}`, `{"type":"ping","id":"p"}`,
		`{"type":"move","version":0}`, `{"type":"move","version":012}`, `{"type":"move","version":-1}`,
		`{"type":"move","version":1.5}`, `{"type":"move","version":1e3}`, `{"type":"move","version":"3"}`,
		`{"type":"move","move":72}`, `{"type":"move","type":"move"}`, `{"Type":"move"}`, `{"type":"move"}x`,
		`{"type":"move"`, "{\"type\":\"\xff\"}", `{}`, ``, `{"type":"move",}`, `{,}`, `{"type" "move"}`,
		`{"type":"hello","token":"abc"}`, `{"version":1234567890}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := plainClientMessage(b)
		if !ok {
			return
		}
		var slow ClientMessage
		if err := DecodeBytes(b, &slow); err != nil {
			t.Fatalf("%q: read directly as %+v, refused by the decoder: %v", b, fast, err)
		}
		if fast.Type != slow.Type || fast.ID != slow.ID || fast.Move != slow.Move ||
			(fast.Version == nil) != (slow.Version == nil) || (fast.Version != nil && *fast.Version != *slow.Version) {
			t.Fatalf("%q: direct %+v, decoder %+v", b, fast, slow)
		}
		slow.Type, slow.ID, slow.Move, slow.Version = "", "", "", nil
		if !reflect.DeepEqual(slow, ClientMessage{}) {
			t.Fatalf("%q: the decoder found more: %+v", b, slow)
		}
	})
}

// BenchmarkDecodeClientMessage reads a move as the browser sends it.
func BenchmarkDecodeClientMessage(b *testing.B) {
	for _, tc := range []struct{ name, msg string }{
		{"plain", `{"type":"move","move":"72","version":12,"id":"m7"}`},
		{"escaped", `{"type":"move","move":"7\u0032","version":12,"id":"m7"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			msg := []byte(tc.msg)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeClientMessage(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestReadBody(t *testing.T) {
	t.Parallel()
	const limit = 100
	readers := map[string]func(string) io.Reader{
		"plain":        func(s string) io.Reader { return strings.NewReader(s) },
		"one byte":     func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"data and EOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
	}
	for _, n := range []int{0, 1, 63, 64, 65, limit - 1, limit, limit + 1, 10 * limit} {
		body := strings.Repeat("x", n)
		for name, mk := range readers {
			b, err := ReadBody(mk(body), limit)
			switch {
			case n > limit:
				if refuse.Status(err) != http.StatusRequestEntityTooLarge {
					t.Errorf("%s, %d bytes: got %v, want a 413", name, n, err)
				}
			case err != nil:
				t.Errorf("%s, %d bytes: %v", name, n, err)
			case string(b) != body:
				t.Errorf("%s, %d bytes: read %d bytes", name, n, len(b))
			}
		}
	}
	if _, err := ReadBody(iotest.ErrReader(errors.New("connection reset")), limit); refuse.Status(err) != http.StatusBadRequest {
		t.Errorf("a failing reader: got %v, want a 400", err)
	}
}

// TestStrictJSON: keys match exactly, in case too, and no key may appear
// twice in one object, at any depth; both for the direct reading of plain
// moves and for every other body.
func TestStrictJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		into any
		want string
	}{
		{`{"MOVE":"72"}`, nil, `unknown field "MOVE"`},
		{`{"Move": "72"}`, nil, `unknown field "Move"`},
		{`{"move":"72","move":"73"}`, nil, `the key "move" appears twice`},
		{`{"move":"72", "version": 3, "version": 4}`, nil, "appears twice"},
		{"{\"move\":\"7\xff\"}", nil, "not valid UTF-8"},
		{`{"move":"72"} {}`, nil, "after its JSON object"},
		{`{"move": 72}`, nil, `field "move" should be a string, not a number`},
		{`{"move": "72", "version": "3"}`, nil, `field "version" should be a whole number, not a string`},
		{`{"Game": "guess", "seats": ["me"]}`, &table.CreateRequest{}, `unknown field "Game"`},
		{`{"game": "guess", "game": "quizl", "seats": ["me"]}`, &table.CreateRequest{}, "appears twice"},
		{`{"game": "guess", "seats": ["me"], "rules": {"max": 10, "max": 20}}`, &table.CreateRequest{}, `the key "max" appears twice in one object (at /rules/max)`},
		{`{"seats": "me"}`, &table.CreateRequest{}, `field "seats" should be a list, not a string`},
		{`{"setup": {"number": 5, "number": 6}}`, &table.SetupRequest{}, `"number" appears twice in one object (at /setup/number)`},
		{`{"Auto": true}`, &table.SetupRequest{}, `unknown field "Auto"`},
		{`{"NAME": "Ann"}`, &table.JoinRequest{}, `unknown field "NAME"`},
		{`{"name": "Ann", "name": "Bob"}`, &IdentityRequest{}, "appears twice"},
	} {
		var err error
		if tc.into == nil {
			_, err = DecodeMoveRequest(strings.NewReader(tc.body), 4096)
		} else {
			err = DecodeJSON(strings.NewReader(tc.body), 4096, tc.into)
		}
		if err == nil || refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a 400 saying %q", tc.body, err, tc.want)
		}
	}
	if _, err := DecodeClientMessage([]byte(`{"type": "move", "Move": "72"}`)); err == nil {
		t.Error("a socket message with a key in the wrong case was taken")
	}
	if _, err := DecodeClientMessage([]byte(`{"type": "move", "move": "72", "move": "73"}`)); err == nil {
		t.Error("a socket message with a key twice was taken")
	}
	// Exact keys still work, escaped or not.
	if m, err := DecodeMoveRequest(strings.NewReader(`{"mov\u0065": "72"}`), 4096); err != nil || m.Move != "72" {
		t.Errorf("an escaped key: %+v, %v", m, err)
	}
}

// TestDecodeNone: a request that takes no body takes nothing or an empty
// object, and refuses anything else in words that say so.
func TestDecodeNone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body, want string // want "" for taken
	}{
		{"", ""},
		{" \n\t", ""},
		{"{}", ""},
		{" { } ", ""},
		{" null\n", ""},
		{"nul", "the body must be a JSON object"},
		{`{"x": 1}`, `this request takes no body (send none, or {}): the body is not what was expected: unknown field "x"`},
		{"garbage", "this request takes no body (send none, or {}): the body must be a JSON object"},
		{"[]", "the body must be a JSON object"},
		{"{} {}", "after its JSON object"},
		{"{", "this request takes no body"},
		{strings.Repeat(" ", 5000), "larger than 4096 bytes"},
	} {
		err := DecodeNone(strings.NewReader(tc.body), 4096)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q refused: %v", tc.body, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want a refusal saying %q", tc.body, err, tc.want)
		case tc.want != "" && refuse.Status(err) != http.StatusBadRequest && refuse.Status(err) != http.StatusRequestEntityTooLarge:
			t.Errorf("%q: status %d", tc.body, refuse.Status(err))
		}
	}
}

// topLevelKeys returns the keys of the JSON object b, in order, repeats
// included, as encoding/json's tokenizer reads them.
func topLevelKeys(t *testing.T, b []byte) []string {
	d := json.NewDecoder(bytes.NewReader(b))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%q: not an object: %v %v", b, tok, err)
	}
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
	}
	return keys
}
