package quizl

import "parlour/game"

// AppendJSON appends v as json.Marshal encodes it, without reflection:
// a server encodes a view for every seat at every move
// (TestViewAppendJSON holds the two to the same bytes).
func (v View) AppendJSON(b []byte) []byte { return v.appendJSON(b, 0) }

// LogName is "moves": a view's Moves only grow while a play lasts, each
// entry unchanged once in, for as long as the viewer keeps its seat
// (TestViewLogGrows).
func (v View) LogName() string { return "moves" }

// LogLen is len(v.Moves).
func (v View) LogLen() int { return len(v.Moves) }

// AppendJSONTail appends v as AppendJSON does, with only the moves from
// index from on.
func (v View) AppendJSONTail(b []byte, from int) []byte {
	return v.appendJSON(b, max(from, 0))
}

func (v View) appendJSON(b []byte, from int) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, v.Seat)
	b = append(b, `,"players":`...)
	b = game.AppendJSONStrings(b, v.Players)
	if v.Solitaire {
		b = append(b, `,"solitaire":true`...)
	}
	if len(v.Grid) > 0 {
		b = append(b, `,"grid":`...)
		b = game.AppendJSONStrings(b, v.Grid)
	}
	if v.Password != "" {
		b = append(b, `,"password":`...)
		b = game.AppendJSONString(b, v.Password)
	}
	if len(v.Called) > 0 {
		b = append(b, `,"called":`...)
		b = game.AppendJSONStrings(b, v.Called)
	}
	b = append(b, `,"boards":`...)
	b = game.AppendJSONSlice(b, v.Boards, appendBoard)
	b = append(b, `,"to_move":`...)
	b = game.AppendJSONInt(b, v.ToMove)
	b = append(b, `,"done":`...)
	b = game.AppendJSONBools(b, v.Done)
	b = append(b, `,"resigned":`...)
	b = game.AppendJSONBools(b, v.Resigned)
	b = append(b, `,"scores":`...)
	b = game.AppendJSONInts(b, v.Scores)
	b = append(b, `,"moves":`...)
	b = game.AppendJSONSlice(b, v.Moves[min(from, len(v.Moves)):], appendSeen)
	b = append(b, `,"finished":`...)
	b = game.AppendJSONBool(b, v.Finished)
	if len(v.Winners) > 0 {
		b = append(b, `,"winners":`...)
		b = game.AppendJSONInts(b, v.Winners)
	}
	return append(b, '}')
}

func appendBoard(b []byte, bd Board) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, bd.Seat)
	b = append(b, `,"name":`...)
	b = game.AppendJSONString(b, bd.Name)
	b = append(b, `,"grid":`...)
	b = game.AppendJSONStrings(b, bd.Grid)
	if bd.Password != "" {
		b = append(b, `,"password":`...)
		b = game.AppendJSONString(b, bd.Password)
	}
	if bd.Outcome != "" {
		b = append(b, `,"outcome":`...)
		b = game.AppendJSONString(b, string(bd.Outcome))
	}
	if bd.Points != 0 {
		b = append(b, `,"points":`...)
		b = game.AppendJSONInt(b, bd.Points)
	}
	if bd.Penalty != 0 {
		b = append(b, `,"penalty":`...)
		b = game.AppendJSONInt(b, bd.Penalty)
	}
	if len(bd.Wrong) > 0 {
		b = append(b, `,"wrong":`...)
		b = game.AppendJSONStrings(b, bd.Wrong)
	}
	return append(b, '}')
}

func appendSeen(b []byte, m Seen) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, m.Seat)
	b = append(b, `,"move":`...)
	b = game.AppendJSONString(b, m.Move)
	b = append(b, `,"text":`...)
	b = game.AppendJSONString(b, m.Text)
	if len(m.Revealed) > 0 {
		b = append(b, `,"revealed":`...)
		b = game.AppendJSONSlice(b, m.Revealed, appendLetter)
	}
	return append(b, '}')
}

// AppendJSON appends d as json.Marshal encodes it: a call's data goes
// out in every answer and update (TestEventsAppendJSON).
func (d Called) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, d.Seat)
	b = append(b, `,"square":`...)
	b = game.AppendJSONString(b, d.Square)
	return append(b, '}')
}

// AppendJSON appends d as json.Marshal encodes it.
func (d Revealed) AppendJSON(b []byte) []byte {
	b = append(b, `{"square":`...)
	b = game.AppendJSONString(b, d.Square)
	b = append(b, `,"letters":`...)
	b = game.AppendJSONSlice(b, d.Letters, appendLetter)
	return append(b, '}')
}

func appendLetter(b []byte, l Letter) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, l.Seat)
	b = append(b, `,"name":`...)
	b = game.AppendJSONString(b, l.Name)
	b = append(b, `,"square":`...)
	b = game.AppendJSONString(b, l.Square)
	b = append(b, `,"letter":`...)
	b = game.AppendJSONString(b, l.Letter)
	return append(b, '}')
}

// AppendJSON appends d as json.Marshal encodes it.
func (d Finished) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, d.Seat)
	b = append(b, `,"against":`...)
	b = game.AppendJSONInt(b, d.Against)
	b = append(b, `,"outcome":`...)
	b = game.AppendJSONString(b, string(d.Outcome))
	b = append(b, `,"points":`...)
	b = game.AppendJSONInt(b, d.Points)
	return append(b, '}')
}

// AppendJSON appends d as json.Marshal encodes it.
func (d Announced) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = game.AppendJSONInt(b, d.Seat)
	b = append(b, `,"against":`...)
	b = game.AppendJSONInt(b, d.Against)
	b = append(b, `,"word":`...)
	b = game.AppendJSONString(b, d.Word)
	b = append(b, `,"right":`...)
	b = game.AppendJSONBool(b, d.Right)
	if d.Points != 0 {
		b = append(b, `,"points":`...)
		b = game.AppendJSONInt(b, d.Points)
	}
	if d.Penalty != 0 {
		b = append(b, `,"penalty":`...)
		b = game.AppendJSONInt(b, d.Penalty)
	}
	if d.Award != 0 {
		b = append(b, `,"award":`...)
		b = game.AppendJSONInt(b, d.Award)
	}
	return append(b, '}')
}
