// Package protocol is what clients send, decoded strictly: request bodies
// of the HTTP API (one JSON object, no unknown field, no field twice, no
// trailing data, within a size) and the WebSocket's messages. The hot
// forms (a move's body, a socket's move) are read by hand, without
// reflection, to the same effect as encoding/json; the fuzz targets hold
// the two readings to each other. A body that does not decode is refused
// in a player's words (refuse.Bad, or 413 for one too large).
package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
)

// DecodeJSON reads exactly one JSON object from r into v, refusing a body
// larger than limit bytes, fields v does not have, and anything after the
// object. Its errors say what is wrong with the body.
func DecodeJSON(r io.Reader, limit int64, v any) error {
	b, err := ReadBody(r, limit)
	if err != nil {
		return err
	}
	return DecodeBytes(b, v)
}

// DecodeNone reads the body of a request that takes none: nothing, an
// empty JSON object or JSON's null, which many clients send with every
// POST (null is what a Go program's json.Marshal(nil) sends). Anything
// else is refused, for a client that sends fields believes it says
// something, and a request that acts (an abort, a day's one attempt)
// must not act on what it did not read.
func DecodeNone(r io.Reader, limit int64) error {
	b, err := ReadBody(r, limit)
	if err != nil {
		return err
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || string(t) == "null" {
		return nil
	}
	var none struct{}
	if err := DecodeBytes(b, &none); err != nil {
		return refuse.Bad("this request takes no body (send none, or {}): %s", err.Error())
	}
	return nil
}

// ReadBody reads a request body of at most limit bytes.
func ReadBody(r io.Reader, limit int64) ([]byte, error) {
	// No body is let past 1 GiB, whatever the limit says.
	limit = min(max(limit, 0), 1<<30)
	// Most bodies are a move of a few dozen bytes: start with room for
	// one, not io.ReadAll's 512, and grow by doubling up to limit+1 (one
	// byte past the limit tells a body that is too large).
	stop := int(limit) + 1
	b := make([]byte, 0, min(stop, 64))
	for len(b) < stop {
		if len(b) == cap(b) {
			b = slices.Grow(b, 1)
		}
		n, err := r.Read(b[len(b):min(cap(b), stop)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if errors.Is(err, os.ErrDeadlineExceeded) { // the body's deadline (the door sets one)
			return nil, refuse.With(http.StatusRequestTimeout, "the body took too long to arrive: send it all at once")
		}
		if err != nil {
			return nil, refuse.Bad("reading the body: %v", err)
		}
	}
	if len(b) > int(limit) {
		return nil, refuse.With(http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", limit)
	}
	return b, nil
}

// DecodeMoveRequest decodes the body of a move, as DecodeJSON would. The
// plain form clients send, {"move": "TEXT"} with TEXT of printable ASCII
// without quotes or backslashes, is read directly: it is the request a
// busy server answers thousands of times a second, and reflection-based
// decoding was a good part of its cost. Any other body goes through
// DecodeBytes and means the same either way.
func DecodeMoveRequest(r io.Reader, limit int64) (table.MoveRequest, error) {
	var req table.MoveRequest
	b, err := ReadBody(r, limit)
	if err != nil {
		return req, err
	}
	if mv, ok := plainMove(b); ok {
		req.Move = mv
		return req, nil
	}
	if err := DecodeBytes(b, &req); err != nil {
		return req, err
	}
	return req, checkVersion(req.Version)
}

// checkVersion refuses a version below 0, which no table is at: a move
// conditional on one, or a socket's hello that says it saw one, is a
// mistake to say so, not a move refused for the table having moved on.
func checkVersion(v *int) error {
	if v != nil && *v < 0 {
		return refuse.Bad(`"version" must be a table's version (0 or more), not %d`, *v)
	}
	return nil
}

// plainMove reads a body of the form {"move": "TEXT"} (JSON whitespace
// allowed between the tokens), where TEXT holds only printable ASCII
// other than quotes and backslashes. It reports false for anything else.
func plainMove(b []byte) (string, bool) {
	var move []byte
	seen := false
	ok := plainObject(b, func(key, val []byte, str bool) bool {
		if string(key) != "move" || !str || seen {
			return false
		}
		move, seen = val, true
		return true
	})
	if !ok || !seen {
		return "", false
	}
	return string(move), true
}

// plainClientMessage reads the socket messages sent most, a move above
// all ({"type": "move", "id": "m7", "move": "72", "version": 12}),
// directly: a flat object of the keys type, id and move with plain
// strings (see plainObject) and version with a plain number, each once.
// It reports false for anything else, which DecodeBytes then reads, to
// the same effect.
func plainClientMessage(b []byte) (ClientMessage, bool) {
	var m ClientMessage
	var seen [4]bool // type, id, move, version
	ok := plainObject(b, func(key, val []byte, str bool) bool {
		var to *string
		i := 0
		switch string(key) {
		case "type":
			to = &m.Type
		case "id":
			to, i = &m.ID, 1
		case "move":
			to, i = &m.Move, 2
		case "version":
			i = 3
		default:
			return false
		}
		if seen[i] || str != (to != nil) {
			return false
		}
		seen[i] = true
		switch {
		case i == 0 && string(val) == "move":
			m.Type = "move" // the type of most messages, without a copy
		case to != nil:
			*to = string(val)
		default:
			v, ok := plainInt(val)
			m.Version = &v
			return ok
		}
		return true
	})
	return m, ok
}

// plainInt reads a JSON number of at most nine digits, with no sign, no
// fraction and no leading zero.
func plainInt(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// plainObject reads b as one flat JSON object (whitespace allowed between
// its tokens and around it) whose keys and string values hold only
// printable ASCII other than quotes and backslashes, and whose other
// values are runs of the characters numbers are made of. It calls field
// for each key and value in turn (str: the value was a string, given
// without its quotes), and reports false at anything else, or as soon as
// field does. What it accepts reads the same through encoding/json;
// whether a number is a valid one is field's to check.
func plainObject(b []byte, field func(key, val []byte, str bool) bool) bool {
	i := 0
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	str := func() ([]byte, bool) {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		i++
		start := i
		for i < len(b) && b[i] != '"' {
			if c := b[i]; c < 0x20 || c > 0x7e || c == '\\' {
				return nil, false
			}
			i++
		}
		if i == len(b) {
			return nil, false
		}
		i++
		return b[start : i-1], true
	}
	skip()
	if i == len(b) || b[i] != '{' {
		return false
	}
	i++
	skip()
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			skip()
			key, ok := str()
			if !ok {
				return false
			}
			skip()
			if i == len(b) || b[i] != ':' {
				return false
			}
			i++
			skip()
			var val []byte
			quoted := i < len(b) && b[i] == '"'
			if quoted {
				if val, ok = str(); !ok {
					return false
				}
			} else {
				start := i
				for i < len(b) && strings.IndexByte("0123456789-+.eE", b[i]) >= 0 {
					i++
				}
				val = b[start:i]
				if len(val) == 0 {
					return false
				}
			}
			if !field(key, val, quoted) {
				return false
			}
			skip()
			if i == len(b) {
				return false
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return false
			}
			i++
		}
	}
	skip()
	return i == len(b)
}

// DecodeBytes is DecodeJSON for a message already in memory. It decodes
// strictly, through game.DecodeJSON (encoding/json/v2 semantics): keys
// match field names exactly, in case too ({"MOVE": ...} is an unknown
// field, not a move); a key given twice in one object, at any depth, is
// refused rather than the last one winning; unknown fields, invalid
// UTF-8 and anything after the object are refused.
func DecodeBytes(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return refuse.Bad("the body is empty: send a JSON object")
	}
	if b[0] != '{' {
		return refuse.Bad("the body must be a JSON object")
	}
	if err := game.DecodeJSON(b, v); err != nil {
		var je *game.JSONError
		if errors.As(err, &je) && je.Trailing {
			return refuse.Bad("the body has something after its JSON object")
		}
		return refuse.Bad("the body is not what was expected: %v", err)
	}
	return nil
}

// IdentityRequest is the body of POST /api/v1/identity.
type IdentityRequest struct {
	Name string `json:"name,omitempty"`
}

// ClientMessage is one message a browser sends over the WebSocket.
type ClientMessage struct {
	// Type is "hello" (first: token and the last version seen), "move",
	// "setup" or "ping".
	Type    string          `json:"type"`
	ID      string          `json:"id,omitempty"`
	Token   string          `json:"token,omitempty"`
	Version *int            `json:"version,omitempty"`
	Move    string          `json:"move,omitempty"`
	Setup   json.RawMessage `json:"setup,omitempty"`
	Auto    bool            `json:"auto,omitempty"`
	// Computer asks for the computer's setup at that level (with Auto).
	Computer string `json:"computer,omitempty"`
	// Chat, in a hello, is the number of the last chat message the client
	// saw. Channel and Text are a "chat" message's; Channel and Muted a
	// "mute" message's (chat.go).
	Chat    *int   `json:"chat,omitempty"`
	Channel string `json:"channel,omitempty"`
	Text    string `json:"text,omitempty"`
	Muted   *bool  `json:"muted,omitempty"`
	// ViewTails, in a hello, says the client puts a view's log back
	// together from tails (Update.ViewTail): after the first, an update
	// then carries only the log's new entries.
	ViewTails bool `json:"view_tails,omitempty"`
	// Table, in a hello, is the table the socket is to follow. A later
	// hello that names one moves the open socket on to that table (a
	// rematch, the next game) instead of closing it and opening another.
	Table string `json:"table,omitempty"`
}

// maxClientID caps the id a client gives a message.
const maxClientID = 64

// refusedID returns the id of a message refused as it decoded, read
// leniently, since the fields around it may be what is wrong: the
// refusal then names the message it answers, wherever the id stood in
// it. It is "" when the message has none, or none that is a string of at
// most maxClientID bytes.
func refusedID(b []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.ID) > maxClientID {
		return ""
	}
	return m.ID
}

// DecodeClientMessage parses and checks one WebSocket message. A message
// it refuses comes back with its id, if it gave one, for the answer.
func DecodeClientMessage(b []byte) (ClientMessage, error) {
	m, plain := plainClientMessage(b)
	if !plain {
		m = ClientMessage{}
		if err := DecodeBytes(b, &m); err != nil {
			return ClientMessage{ID: refusedID(b)}, err
		}
	}
	if len(m.ID) > maxClientID {
		return m, refuse.Bad("a message id may be at most %d characters", maxClientID)
	}
	if err := checkVersion(m.Version); err != nil {
		return m, err
	}
	switch m.Type {
	case "hello":
		if m.Table != "" && !auth.ValidID(m.Table) {
			return m, refuse.Bad(`"table" must be a table's id, as its address gives it`)
		}
	case "ping", "leave":
	case "move":
		if strings.TrimSpace(m.Move) == "" {
			return m, refuse.Bad(`a "move" message needs a "move"`)
		}
		if len(m.Move) > table.MaxMoveLen {
			return m, refuse.Bad("a move may be at most %d characters", table.MaxMoveLen)
		}
	case "setup":
		if m.Auto == (len(m.Setup) > 0) {
			return m, refuse.Bad(`a "setup" message needs either "setup" or "auto": true`)
		}
	case "chat", "mute":
		if err := table.CheckChannel(m.Channel); err != nil {
			return m, err
		}
		if m.Type == "mute" && m.Muted == nil {
			return m, refuse.Bad(`a "mute" message needs "muted": true to mute the channel, or false to hear it again`)
		}
	case "":
		return m, refuse.Bad(`the message has no "type"`)
	default:
		return m, refuse.Bad(`unknown message type %q (want hello, move, setup, chat, mute, ping or leave)`, refuse.Clip(m.Type))
	}
	return m, nil
}
