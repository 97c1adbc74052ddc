package game

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// JSONAppender is implemented by views that can write themselves as
// JSON faster than encoding/json can by reflection. AppendJSON appends
// to b exactly the bytes json.Marshal would give for the value (tests in
// each game hold it to that), so that a server may use either. Views are
// encoded at every change for every seat watching, which makes their
// encoding the most frequent work of a busy server.
type JSONAppender interface {
	AppendJSON(b []byte) []byte
}

// TailAppender is implemented by views that hold a log: a list, the
// field LogName of the view's JSON, that only grows while a play lasts,
// each entry unchanged once in, for as long as the viewer keeps its seat.
// A connection that was sent a seat's view whole can then be sent only
// the log's new entries (a socket's "view_tail", docs/protocol.md), and a
// long game's updates stay short instead of growing with every move.
type TailAppender interface {
	JSONAppender
	// LogName is the log's field in the view's JSON.
	LogName() string
	// LogLen is how many entries the log holds.
	LogLen() int
	// AppendJSONTail appends the view as AppendJSON does, except that
	// the log holds only its entries from index from on (none when from
	// is at or past LogLen).
	AppendJSONTail(b []byte, from int) []byte
}

// TailViewer is implemented by states whose views are TailAppenders and
// that can encode a view with only its log's tail straight from the
// state, without building the entries the connection already has.
type TailViewer interface {
	// LogName is the log's field, as the views' LogName.
	LogName() string
	// AppendViewTail appends seat's view as
	// View(seat).(TailAppender).AppendJSONTail(b, from) does, and
	// returns the length of the view's whole log.
	AppendViewTail(b []byte, seat Seat, from int) ([]byte, int)
}

// AppendJSONString appends s as encoding/json encodes a string (with
// its HTML-safe escapes).
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if plainJSON[s[i]] != '1' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainJSON marks with a 1 each byte that encoding/json writes in a
// string as it is: printable ASCII but for the quote, the backslash and
// the HTML-sensitive <, > and &.
const plainJSON = "0000000000000000000000000000000011011101111111111111111111110101" +
	"1111111111111111111111111111011111111111111111111111111111111110" +
	"0000000000000000000000000000000000000000000000000000000000000000" +
	"0000000000000000000000000000000000000000000000000000000000000000"

// AppendJSONStrings appends ss as encoding/json encodes a []string (nil
// as null).
func AppendJSONStrings(b []byte, ss []string) []byte { return AppendJSONSlice(b, ss, AppendJSONString) }

// AppendJSONInts appends xs as encoding/json encodes a []int (nil as
// null).
func AppendJSONInts(b []byte, xs []int) []byte { return AppendJSONSlice(b, xs, AppendJSONInt) }

// AppendJSONBools appends xs as encoding/json encodes a []bool (nil as
// null).
func AppendJSONBools(b []byte, xs []bool) []byte { return AppendJSONSlice(b, xs, AppendJSONBool) }

// AppendJSONSeats appends seats as json.Marshal encodes them (nil as
// null).
func AppendJSONSeats(b []byte, seats []Seat) []byte {
	return AppendJSONSlice(b, seats, func(b []byte, s Seat) []byte { return AppendJSONInt(b, int(s)) })
}

// AppendJSONSlice appends xs as json.Marshal encodes a slice (nil as
// null), each element as each appends it.
func AppendJSONSlice[T any](b []byte, xs []T, each func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, x)
	}
	return append(b, ']')
}

// AppendJSONBool appends true or false.
func AppendJSONBool(b []byte, x bool) []byte {
	if x {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// AppendJSONInt appends x in decimal.
func AppendJSONInt(b []byte, x int) []byte {
	if x >= 0 && x < 10 {
		return append(b, byte('0'+x))
	}
	return strconv.AppendInt(b, int64(x), 10)
}

// AppendJSONEvents appends evs as json.Marshal encodes them (null for
// none), each event's data through its own AppendJSON when it has one
// (JSONAppender) and by json.Marshal otherwise: every move's answer and
// update carries its events.
func AppendJSONEvents(b []byte, evs []Event) ([]byte, error) {
	if evs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, e := range evs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendJSONEvent(b, e); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendJSONEvent appends e as json.Marshal encodes it (see
// AppendJSONEvents).
func appendJSONEvent(b []byte, e Event) ([]byte, error) {
	b = append(b, '{')
	if len(e.To) > 0 {
		b = append(b, `"to":`...)
		b = append(AppendJSONSeats(b, e.To), ',')
	}
	b = append(b, `"kind":`...)
	b = AppendJSONString(b, e.Kind)
	b = append(b, `,"text":`...)
	b = AppendJSONString(b, e.Text)
	if e.Data != nil {
		b = append(b, `,"data":`...)
		if a, ok := e.Data.(JSONAppender); ok {
			b = a.AppendJSON(b)
		} else {
			d, err := json.Marshal(e.Data)
			if err != nil {
				return b, fmt.Errorf("encoding the data of a %q event: %w", e.Kind, err)
			}
			b = append(b, d...)
		}
	}
	return append(b, '}'), nil
}
