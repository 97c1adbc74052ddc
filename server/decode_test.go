package server

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

func FuzzDecodeClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type": "hello", "token": "abc", "version": 3}`,
		`{"type": "move", "move": "72", "id": "m1", "version": 9}`,
		`{"type": "setup", "auto": true, "computer": "strong"}`,
		`{"type": "setup", "setup": {"grid": ["ABCDE"]}}`,
		`{"type": "ping"}`, `{"type": "dance"}`, `{}`, `[]`, `null`, `{"type": "move"`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeClientMessage(b)
		if err != nil {
			if StatusOf(err) != http.StatusBadRequest || err.Error() == "" {
				t.Fatalf("error %v has status %d", err, StatusOf(err))
			}
			return
		}
		switch m.Type {
		case "hello", "ping", "setup":
		case "move":
			if strings.TrimSpace(m.Move) == "" || len(m.Move) > MaxMoveLen {
				t.Fatalf("accepted move %q", m.Move)
			}
		default:
			t.Fatalf("accepted type %q", m.Type)
		}
	})
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
			if err != nil && StatusOf(err) != http.StatusBadRequest && StatusOf(err) != http.StatusRequestEntityTooLarge {
				t.Fatalf("error %v has status %d", err, StatusOf(err))
			}
		}
		var c CreateRequest
		check(decodeJSON(strings.NewReader(string(b)), 4096, &c))
		var j JoinRequest
		check(decodeJSON(strings.NewReader(string(b)), 4096, &j))
		var s SetupRequest
		check(decodeJSON(strings.NewReader(string(b)), 4096, &s))
		var m MoveRequest
		check(decodeJSON(strings.NewReader(string(b)), 4096, &m))
		var i IdentityRequest
		check(decodeJSON(strings.NewReader(string(b)), 4096, &i))
	})
}

func FuzzParseFrom(f *testing.F) {
	for _, s := range []string{"0", "17", "-1", "x", "99999999999999999999", " 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Last-Event-ID", s)
		n, err := parseFrom(r)
		if err == nil && s != "" && n < 0 {
			t.Fatalf("parseFrom(%q) = %d", s, n)
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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ferr := decodeMoveRequest(bytes.NewReader(b), 4096)
		var slow MoveRequest
		serr := decodeJSON(bytes.NewReader(b), 4096, &slow)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("%q: direct error %v, decoder error %v", b, ferr, serr)
		}
		if ferr != nil {
			return
		}
		if fast.Move != slow.Move || (fast.Version == nil) != (slow.Version == nil) || (fast.Version != nil && *fast.Version != *slow.Version) {
			t.Fatalf("%q: direct %+v, decoder %+v", b, fast, slow)
		}
	})
}

func TestReadBody(t *testing.T) {
	const limit = 100
	readers := map[string]func(string) io.Reader{
		"plain":        func(s string) io.Reader { return strings.NewReader(s) },
		"one byte":     func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"data and EOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
	}
	for _, n := range []int{0, 1, 63, 64, 65, limit - 1, limit, limit + 1, 10 * limit} {
		body := strings.Repeat("x", n)
		for name, mk := range readers {
			b, err := readBody(mk(body), limit)
			switch {
			case n > limit:
				if StatusOf(err) != http.StatusRequestEntityTooLarge {
					t.Errorf("%s, %d bytes: got %v, want a 413", name, n, err)
				}
			case err != nil:
				t.Errorf("%s, %d bytes: %v", name, n, err)
			case string(b) != body:
				t.Errorf("%s, %d bytes: read %d bytes", name, n, len(b))
			}
		}
	}
	if _, err := readBody(iotest.ErrReader(errors.New("connection reset")), limit); StatusOf(err) != http.StatusBadRequest {
		t.Errorf("a failing reader: got %v, want a 400", err)
	}
}
