package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"parlour/game"
)

// decodeJSON reads exactly one JSON object from r into v, refusing a body
// larger than limit bytes, fields v does not have, and anything after the
// object. Its errors say what is wrong with the body.
func decodeJSON(r io.Reader, limit int64, v any) error {
	b, err := readBody(r, limit)
	if err != nil {
		return err
	}
	return decodeBytes(b, v)
}

// readBody reads a request body of at most limit bytes.
func readBody(r io.Reader, limit int64) ([]byte, error) {
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
		if tooSlow(err) {
			return nil, refuse(http.StatusRequestTimeout, "the body took too long to arrive: send it all at once")
		}
		if err != nil {
			return nil, badRequest("reading the body: %v", err)
		}
	}
	if len(b) > int(limit) {
		return nil, refuse(http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", limit)
	}
	return b, nil
}

// decodeMoveRequest decodes the body of a move, as decodeJSON would. The
// plain form clients send, {"move": "TEXT"} with TEXT of printable ASCII
// without quotes or backslashes, is read directly: it is the request a
// busy server answers thousands of times a second, and reflection-based
// decoding was a good part of its cost. Any other body goes through
// decodeBytes and means the same either way.
func decodeMoveRequest(r io.Reader, limit int64) (MoveRequest, error) {
	var req MoveRequest
	b, err := readBody(r, limit)
	if err != nil {
		return req, err
	}
	if mv, ok := plainMove(b); ok {
		req.Move = mv
		return req, nil
	}
	return req, decodeBytes(b, &req)
}

// plainMove reads a body of the form {"move": "TEXT"} (JSON whitespace
// allowed between the tokens), where TEXT holds only printable ASCII
// other than quotes and backslashes. It reports false for anything else.
func plainMove(b []byte) (string, bool) {
	i := 0
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	lit := func(s string) bool {
		skip()
		if !bytes.HasPrefix(b[i:], []byte(s)) {
			return false
		}
		i += len(s)
		return true
	}
	if !lit("{") || !lit(`"move"`) || !lit(":") || !lit(`"`) {
		return "", false
	}
	start := i
	for i < len(b) && b[i] != '"' {
		if c := b[i]; c < 0x20 || c > 0x7e || c == '\\' {
			return "", false
		}
		i++
	}
	text := b[start:i]
	if !lit(`"`) || !lit("}") {
		return "", false
	}
	skip()
	if i != len(b) {
		return "", false
	}
	return string(text), true
}

// decodeBytes is decodeJSON for a message already in memory. It decodes
// strictly, through game.DecodeJSON (encoding/json/v2 semantics): keys
// match field names exactly, in case too ({"MOVE": ...} is an unknown
// field, not a move); a key given twice in one object, at any depth, is
// refused rather than the last one winning; unknown fields, invalid
// UTF-8 and anything after the object are refused.
func decodeBytes(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return badRequest("the body is empty: send a JSON object")
	}
	if b[0] != '{' {
		return badRequest("the body must be a JSON object")
	}
	if err := game.DecodeJSON(b, v); err != nil {
		var je *game.JSONError
		if errors.As(err, &je) && je.Trailing {
			return badRequest("the body has something after its JSON object")
		}
		return badRequest("the body is not what was expected: %v", err)
	}
	return nil
}

// MoveRequest is the body of POST /api/v1/tables/{id}/moves.
type MoveRequest struct {
	Move string `json:"move"`
	// Version, when given, makes the move conditional on the table being
	// at that version (see Service.Move).
	Version *int `json:"version,omitempty"`
	// Wait asks for the answer once it is the mover's turn again or the
	// game is over (see Service.MoveWait).
	Wait bool `json:"wait,omitempty"`
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
	Muted   bool   `json:"muted,omitempty"`
	// ViewTails, in a hello, says the client puts a view's log back
	// together from tails (Update.ViewTail): after the first, an update
	// then carries only the log's new entries.
	ViewTails bool `json:"view_tails,omitempty"`
}

// maxClientID caps the id a client gives a message.
const maxClientID = 64

// decodeClientMessage parses and checks one WebSocket message.
func decodeClientMessage(b []byte) (ClientMessage, error) {
	var m ClientMessage
	if err := decodeBytes(b, &m); err != nil {
		return m, err
	}
	if len(m.ID) > maxClientID {
		return m, badRequest("a message id may be at most %d characters", maxClientID)
	}
	switch m.Type {
	case "hello", "ping":
	case "move":
		if strings.TrimSpace(m.Move) == "" {
			return m, badRequest(`a "move" message needs a "move"`)
		}
		if len(m.Move) > MaxMoveLen {
			return m, badRequest("a move may be at most %d characters", MaxMoveLen)
		}
	case "setup":
		if m.Auto == (len(m.Setup) > 0) {
			return m, badRequest(`a "setup" message needs either "setup" or "auto": true`)
		}
	case "chat", "mute":
		if err := checkChannel(m.Channel); err != nil {
			return m, err
		}
	case "":
		return m, badRequest(`the message has no "type"`)
	default:
		return m, badRequest(`unknown message type %q (want hello, move, setup, chat, mute or ping)`, clip(m.Type))
	}
	return m, nil
}
