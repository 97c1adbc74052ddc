package nats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"parlour/bus"
)

// The bus frames its own messages rather than use NATS headers: a frame
// is a few bytes, needs no parsing of text, and its first byte, the
// format, lets a node refuse a message from a newer node in words during
// a rolling upgrade instead of misreading it.
//
//	change:  format | uvarint version | data
//	request: format | kind | uvarint milliseconds left | uvarint len(from) | from | data
//	reply:   format | kind | uvarint len(node) | node | data (or the error's text)
const format byte = 1

// Request kinds.
const (
	reqCall byte = iota // for the handler
	reqPing             // answered by the bus itself: is this name taken?
)

// Reply kinds.
const (
	replyOK    byte = iota
	replyError      // the handler failed: data is its text
	replyGone       // the node is closing and did not run the handler
)

// frameRoom is the most a frame adds to its data.
const frameRoom = 2 + 2*binary.MaxVarintLen64 + bus.MaxName

var (
	errShort  = errors.New("the message is cut short")
	errFormat = errors.New("the message is in a format this node does not know (a newer node's?)")
)

func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// uvarint reads a uvarint from b and returns it and the rest.
func uvarint(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	switch {
	case n <= 0:
		return 0, nil, errShort
	case n > 1 && b[n-1] == 0:
		// A number has one encoding: a message is read one way only.
		return 0, nil, errors.New("a number is padded with zeros")
	}
	return v, b[n:], nil
}

// name reads a length and a name from b.
func name(b []byte, kind string) (string, []byte, error) {
	n, b, err := uvarint(b)
	if err != nil {
		return "", nil, err
	}
	if n > uint64(len(b)) {
		return "", nil, errShort
	}
	s := string(b[:n])
	if err := bus.CheckName(kind, s); err != nil {
		return "", nil, err
	}
	return s, b[n:], nil
}

func checkFormat(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, errShort
	}
	if b[0] != format {
		return nil, errFormat
	}
	return b[1:], nil
}

func encodeChange(version int, data []byte) []byte {
	b := make([]byte, 0, 1+binary.MaxVarintLen64+len(data))
	b = append(b, format)
	b = appendUvarint(b, uint64(version))
	return append(b, data...)
}

// decodeChange reads a change. Data shares b's memory.
func decodeChange(b []byte) (version int, data []byte, err error) {
	b, err = checkFormat(b)
	if err != nil {
		return 0, nil, fmt.Errorf("reading a change: %w", err)
	}
	v, b, err := uvarint(b)
	if err != nil {
		return 0, nil, fmt.Errorf("reading a change: %w", err)
	}
	if v < 1 || v > math.MaxInt {
		return 0, nil, fmt.Errorf("reading a change: version %d is out of range", v)
	}
	if len(b) > bus.MaxData {
		return 0, nil, fmt.Errorf("reading a change: %w", bus.ErrTooLarge)
	}
	return int(v), b, nil
}

// request is a request as it travels.
type request struct {
	kind byte
	left time.Duration // until the requester's deadline
	from string
	data []byte
}

func encodeRequest(r request) []byte {
	ms := max(1, r.left.Milliseconds()) // a deadline is never "none"
	b := make([]byte, 0, frameRoom+len(r.data))
	b = append(b, format, r.kind)
	b = appendUvarint(b, uint64(ms))
	b = appendUvarint(b, uint64(len(r.from)))
	b = append(b, r.from...)
	return append(b, r.data...)
}

// maxLeft bounds the time a request may say is left: a handler never
// gets a deadline further off than a requester could mean.
const maxLeft = 24 * time.Hour

// decodeRequest reads a request. Data shares b's memory.
func decodeRequest(b []byte) (request, error) {
	r, err := readRequest(b)
	if err != nil {
		return request{}, fmt.Errorf("reading a request: %w", err)
	}
	return r, nil
}

func readRequest(b []byte) (r request, err error) {
	if b, err = checkFormat(b); err != nil {
		return r, err
	}
	if len(b) == 0 {
		return r, errShort
	}
	r.kind, b = b[0], b[1:]
	if r.kind != reqCall && r.kind != reqPing {
		return r, fmt.Errorf("unknown kind %d", r.kind)
	}
	ms, b, err := uvarint(b)
	if err != nil {
		return r, err
	}
	if ms == 0 || ms > uint64(maxLeft.Milliseconds()) {
		return r, fmt.Errorf("%d ms left is out of range", ms)
	}
	r.left = time.Duration(ms) * time.Millisecond
	if r.from, b, err = name(b, "node"); err != nil {
		return r, err
	}
	if len(b) > bus.MaxData {
		return r, bus.ErrTooLarge
	}
	r.data = b
	return r, nil
}

// reply is an answer as it travels.
type reply struct {
	kind byte
	node string
	data []byte
}

func encodeReply(r reply) []byte {
	b := make([]byte, 0, frameRoom+len(r.data))
	b = append(b, format, r.kind)
	b = appendUvarint(b, uint64(len(r.node)))
	b = append(b, r.node...)
	return append(b, r.data...)
}

// decodeReply reads an answer. Data shares b's memory.
func decodeReply(b []byte) (reply, error) {
	r, err := readReply(b)
	if err != nil {
		return reply{}, fmt.Errorf("reading an answer: %w", err)
	}
	return r, nil
}

func readReply(b []byte) (r reply, err error) {
	if b, err = checkFormat(b); err != nil {
		return r, err
	}
	if len(b) == 0 {
		return r, errShort
	}
	r.kind, b = b[0], b[1:]
	if r.kind > replyGone {
		return r, fmt.Errorf("unknown kind %d", r.kind)
	}
	if r.node, b, err = name(b, "node"); err != nil {
		return r, err
	}
	if len(b) > bus.MaxData {
		return r, bus.ErrTooLarge
	}
	r.data = b
	return r, nil
}
