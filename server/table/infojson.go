package table

import (
	"encoding/json"
	"strconv"
	"time"

	"parlour/game"
)

// appendJSON appends in as json.Marshal encodes it, with rules (the
// encoding of in.Rules, which never changes for a table) spliced in.
// Every update pushed to a socket carries the table's information, so it
// is encoded at every change; the common fields are written here without
// reflection, the rare ones (result, reveal, clock...) through
// json.Marshal. TestUpdateMessageBytes holds the bytes to json.Marshal's.
func (in *Info) appendJSON(b, rules []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = game.AppendJSONString(b, in.ID)
	b = append(b, `,"game":`...)
	b = game.AppendJSONString(b, in.Game)
	b = append(b, `,"title":`...)
	b = game.AppendJSONString(b, in.Title)
	b = append(b, `,"status":`...)
	b = game.AppendJSONString(b, string(in.Status))
	b = append(append(b, `,"rules":`...), rules...)
	b = append(b, `,"lexicon":`...)
	b = game.AppendJSONString(b, in.Lexicon)
	if in.Private {
		b = append(b, `,"private":true`...)
	}
	if in.Code != "" {
		b = append(b, `,"code":`...)
		b = game.AppendJSONString(b, in.Code)
	}
	b = append(b, `,"seats":`...)
	if in.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range in.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = in.Seats[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"to_move":`...)
	if in.ToMove == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range in.ToMove {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(s), 10)
		}
		b = append(b, ']')
	}
	if in.Abortable {
		b = append(b, `,"abortable":true`...)
	}
	if len(in.Commitments) > 0 {
		b = append(b, `,"commitments":`...)
		b = game.AppendJSONStrings(b, in.Commitments)
	}
	if len(in.Reveal) > 0 {
		if b, err = appendField(b, "reveal", in.Reveal); err != nil {
			return nil, err
		}
	}
	if in.Result != nil {
		if b, err = appendField(b, "result", in.Result); err != nil {
			return nil, err
		}
	}
	if in.Aborted != nil {
		if b, err = appendField(b, "aborted", in.Aborted); err != nil {
			return nil, err
		}
	}
	if in.Set != nil {
		if b, err = appendField(b, "set", in.Set); err != nil {
			return nil, err
		}
	}
	if in.Prev != "" {
		b = append(b, `,"prev":`...)
		b = game.AppendJSONString(b, in.Prev)
	}
	if in.Rematch != "" {
		b = append(b, `,"rematch":`...)
		b = game.AppendJSONString(b, in.Rematch)
	}
	if b, err = appendTime(b, "created", in.Created); err != nil {
		return nil, err
	}
	if in.Solitaire != nil {
		if b, err = appendField(b, "solitaire", in.Solitaire); err != nil {
			return nil, err
		}
	}
	if in.Daily != "" {
		b = append(b, `,"daily":`...)
		b = game.AppendJSONString(b, in.Daily)
	}
	if in.DayOver {
		b = append(b, `,"day_over":true`...)
	}
	if in.Event != nil {
		if b, err = appendField(b, "event", in.Event); err != nil {
			return nil, err
		}
	}
	if in.SetupBy != nil {
		if b, err = appendTime(b, "setup_by", *in.SetupBy); err != nil {
			return nil, err
		}
	}
	if in.Paired {
		b = append(b, `,"paired":true`...)
	}
	if in.Rated {
		b = append(b, `,"rated":true`...)
	}
	if in.Pool != "" {
		b = append(b, `,"pool":`...)
		b = game.AppendJSONString(b, in.Pool)
	}
	if in.Clock != nil {
		b = append(b, `,"clock":{"turn":`...)
		b = strconv.AppendInt(b, int64(in.Clock.Turn), 10)
		if b, err = appendTime(b, "now", in.Clock.Now); err != nil {
			return nil, err
		}
		if in.Clock.Kind != "" {
			b = append(b, `,"kind":`...)
			b = game.AppendJSONString(b, string(in.Clock.Kind))
		}
		if in.Clock.Initial != 0 {
			b = append(b, `,"initial":`...)
			b = strconv.AppendInt(b, int64(in.Clock.Initial), 10)
		}
		if in.Clock.Increment != nil {
			b = append(b, `,"increment":`...)
			b = strconv.AppendInt(b, int64(*in.Clock.Increment), 10)
		}
		if in.Clock.Days != 0 {
			b = append(b, `,"days":`...)
			b = strconv.AppendInt(b, int64(in.Clock.Days), 10)
		}
		b = append(b, '}')
	}
	if in.Spectators != nil {
		b = append(b, `,"spectators":`...)
		b = strconv.AppendInt(b, int64(*in.Spectators), 10)
	}
	if in.Rating != nil {
		if b, err = appendField(b, "rating", *in.Rating); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func (s *SeatInfo) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"name":`...)
	b = game.AppendJSONString(b, s.Name)
	b = append(b, `,"kind":`...)
	b = game.AppendJSONString(b, s.Kind)
	if s.Player != "" {
		b = append(b, `,"player":`...)
		b = game.AppendJSONString(b, s.Player)
	}
	if s.Level != "" {
		b = append(b, `,"level":`...)
		b = game.AppendJSONString(b, s.Level)
	}
	b = append(b, `,"ready":`...)
	b = game.AppendJSONBool(b, s.Ready)
	if s.Deadline != nil {
		if b, err = appendTime(b, "deadline", *s.Deadline); err != nil {
			return nil, err
		}
	}
	if s.TimeLeft != nil {
		if b, err = appendField(b, "time_left", *s.TimeLeft); err != nil {
			return nil, err
		}
	}
	if s.AwaySince != nil {
		if b, err = appendTime(b, "away_since", *s.AwaySince); err != nil {
			return nil, err
		}
	}
	if s.ClaimAt != nil {
		if b, err = appendTime(b, "claim_at", *s.ClaimAt); err != nil {
			return nil, err
		}
	}
	if s.ClaimIn != nil {
		if b, err = appendField(b, "claim_in", *s.ClaimIn); err != nil {
			return nil, err
		}
	}
	if s.Connected != nil {
		b = append(b, `,"connected":`...)
		b = game.AppendJSONBool(b, *s.Connected)
	}
	if s.AbsentSince != nil {
		if b, err = appendTime(b, "absent_since", *s.AbsentSince); err != nil {
			return nil, err
		}
	}
	if s.Out {
		b = append(b, `,"out":true`...)
	}
	return append(b, '}'), nil
}

// appendField appends ,"name": and v as json.Marshal encodes it (by its
// own AppendJSON when it has one).
func appendField(b []byte, name string, v any) ([]byte, error) {
	if a, ok := v.(game.JSONAppender); ok {
		return a.AppendJSON(append(append(append(b, `,"`...), name...), `":`...)), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = append(append(append(append(b, `,"`...), name...), `":`...), j...)
	return b, nil
}

// appendTime appends ,"name": and t as json.Marshal encodes a time
// (RFC 3339 with nanoseconds, quoted): directly for the years it can
// hold, through json.Marshal's error for the others.
func appendTime(b []byte, name string, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		return appendField(b, name, t)
	}
	b = append(append(append(b, `,"`...), name...), `":"`...)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}
