package socket

import (
	"strconv"

	"parlour/game"
	"parlour/server/table"
)

// appendAck appends the socket's answer to a move, as json.Marshal
// encodes ServerMessage{Type: "ack", ID: id, Version: r.Version, Result: r}.
func appendAck(b []byte, id string, r *table.MoveResult) ([]byte, error) {
	b = append(b, `{"type":"ack"`...)
	if id != "" {
		b = append(b, `,"id":`...)
		b = game.AppendJSONString(b, id)
	}
	if r.Version != 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, int64(r.Version), 10)
	}
	b = append(b, `,"result":`...)
	b, err := r.AppendJSON(b)
	return append(b, '}'), err
}
