package table

import (
	"strconv"

	"parlour/game"
)

// Every move is answered with its MoveResult (an HTTP body or a socket's
// ack) and shown to every seat in an update's moves, so these encode
// them without reflection, to json.Marshal's bytes (TestResultAppendJSON).

// AppendJSON appends r as json.Marshal encodes it.
func (r *MoveResult) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"status":`...)
	b = game.AppendJSONString(b, string(r.Status))
	b = append(b, `,"to_move":`...)
	b = game.AppendJSONSeats(b, r.ToMove)
	b = append(b, `,"events":`...)
	b, err := game.AppendJSONEvents(b, r.Events)
	if err != nil {
		return b, err
	}
	if r.TimedOut {
		b = append(b, `,"timed_out":true`...)
	}
	if r.Repeated {
		b = append(b, `,"repeated":true`...)
	}
	return append(b, '}'), nil
}

// appendMoves appends ms as json.Marshal encodes them.
func appendMoves(b []byte, ms []MoveInfo) ([]byte, error) {
	if ms == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range ms {
		m := &ms[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"version":`...)
		b = strconv.AppendInt(b, int64(m.Version), 10)
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(m.Seat), 10)
		b = append(b, `,"player":`...)
		b = game.AppendJSONString(b, m.Player)
		b = append(b, `,"move":`...)
		b = game.AppendJSONString(b, m.Move)
		b = append(b, `,"events":`...)
		var err error
		if b, err = game.AppendJSONEvents(b, m.Events); err != nil {
			return b, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}
