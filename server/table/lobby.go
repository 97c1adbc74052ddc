package table

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// View returns the asker's current view of table id (a spectator's when p
// holds no seat there).
func (s *Service) View(ctx context.Context, p *auth.Principal, id string) (_ Update, err error) {
	defer s.reading("the table", &err)
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return Update{}, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return Update{}, err
	}
	hidden := s.hiddenFrom(ctx, p)
	t.mu.Lock()
	defer t.unlock()
	if err := t.closed(); err != nil {
		return Update{}, err // cancelled while this request waited for it
	}
	t.lastUse = time.Now()
	seat := t.seatOf(p)
	t.touch(seat, s.now())
	u, err := t.update(s.games, seat, -1)
	identity := ""
	if p != nil {
		identity = p.Identity
	}
	u.Chat, _ = t.chatAfter(0, seat, identity, hidden)
	u.Muted = t.ch.MutedBy(identity)
	return u, err
}

// Record returns table id's record as the asker may see it.
func (s *Service) Record(ctx context.Context, p *auth.Principal, id string) (_ *game.Record, err error) {
	defer s.reading("the table's record", &err)
	t, err := s.read(ctx, p, id, true)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.unlock()
	return t.recordFor(t.seatOf(p)), nil
}

// Lobby lists the tables in status (open by default): open and playing
// tables from memory, finished ones from the store, newest first. Private
// tables are never listed.
func (s *Service) Lobby(ctx context.Context, status store.Status, limit int) ([]Info, error) {
	return s.LobbyGame(ctx, status, "", limit)
}

// LobbyFor is LobbyGame as reader (an identity; "" for none) may take
// the tables: the open tables where someone sits whom a block keeps
// apart from reader (Config.Apart) are left out. Blocks that cannot be
// read leave the list whole: it comes from memory, and a join there is
// still refused.
func (s *Service) LobbyFor(ctx context.Context, reader string, status store.Status, gameName string, limit int) ([]Info, error) {
	if reader == "" || s.cfg.Apart == nil || (status != "" && status != store.Open) {
		return s.LobbyGame(ctx, status, gameName, limit)
	}
	ids, names, err := s.cfg.Apart(ctx, reader)
	if err != nil {
		s.log.Warn("the lobby lists every open table: the reader's blocks could not be read", "err", err)
		return s.LobbyGame(ctx, status, gameName, limit)
	}
	if len(ids) == 0 && len(names) == 0 {
		return s.LobbyGame(ctx, status, gameName, limit)
	}
	return s.lobby(ctx, status, gameName, limit, apart{ids: ids, names: names})
}

// apart is who a reader's lobby leaves out: ids, the identities a block
// keeps from the reader, matched against the seats of the tables this
// node holds (a guest who signed up after sitting down keeps the guest's
// name there until the game ends); names, those of them that are
// accounts, in lower case, matched against the seats other nodes list,
// which carry no identities.
type apart struct {
	ids, names map[string]bool
}

// holds reports whether identity is kept apart.
func (a apart) holds(identity string) bool {
	return identity != "" && a.ids[identity]
}

// named reports whether a seat of in is an account kept apart.
func (a apart) named(in Info) bool {
	return len(a.names) > 0 && slices.ContainsFunc(in.Seats, func(st SeatInfo) bool { return st.Player == "account" && a.names[strings.ToLower(st.Name)] })
}

// LobbyGame is Lobby for the tables of one game (every game's for "").
// The tables from memory carry their spectators, and rated games in play
// their rating (live.go).
func (s *Service) LobbyGame(ctx context.Context, status store.Status, gameName string, limit int) ([]Info, error) {
	return s.lobby(ctx, status, gameName, limit, apart{})
}

// lobby is LobbyGame without the tables where someone kept apart sits.
func (s *Service) lobby(ctx context.Context, status store.Status, gameName string, limit int, away apart) (_ []Info, err error) {
	defer s.reading("the tables", &err)
	if status == "" {
		status = store.Open
	}
	if gameName != "" {
		g, err := s.games.Lookup(strings.ToLower(strings.TrimSpace(gameName)))
		if err != nil {
			return nil, refuse.Bad("%v", err)
		}
		gameName = g.Name()
	}
	var out []Info
	switch status {
	case store.Open, store.Setup, store.Playing:
		out = s.lobbyHere(status, gameName, limit, away)
		if s.lobbyPeers != nil {
			// The other nodes' tables; one a node lost and has not
			// noticed yet is listed by it and its new owner alike. They
			// are asked for every game's: with one game's asked for,
			// they are asked for as many as they list.
			ask := limit
			if gameName != "" || len(away.names) > 0 {
				ask = maxLive
			}
			for _, t := range s.lobbyPeers.LobbyElsewhere(ctx, status, ask) {
				if (gameName == "" || t.Game == gameName) && !away.named(t) && !slices.ContainsFunc(out, func(o Info) bool { return o.ID == t.ID }) {
					out = append(out, t)
				}
			}
			sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
		}
	case store.Finished:
		rows, err := s.st.Recent(ctx, store.Finished, limit*2)
		if err != nil {
			return nil, s.readFailed("the finished tables", err)
		}
		for _, r := range rows {
			t, err := s.table(ctx, r.ID)
			if err != nil {
				continue
			}
			t.mu.Lock()
			if !t.m.Private && (gameName == "" || t.m.Game == gameName) {
				out = append(out, t.info())
			}
			t.unlock()
		}
	default:
		return nil, refuse.Bad("status must be open, setup, playing or finished, not %q", refuse.Clip(string(status)))
	}
	if len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []Info{}
	}
	return out, nil
}

// lobbyHere returns at most limit public tables in status that this node
// holds, of game gameName ("" for every game), newest first, with their
// spectators and, for rated games in play, their rating. Games in play
// that everybody has walked away from are left out: nobody would see a
// move. So are the tables where someone away keeps apart sits.
func (s *Service) lobbyHere(status store.Status, gameName string, limit int, away apart) []Info {
	var rows []liveRow
	now := s.now()
	// Each table's lock is taken after s.mu, never under it (see loaded).
	s.mu.RLock()
	ts := s.loaded()
	for _, p := range s.parked {
		if p.in.Status == status && !p.in.Private && (gameName == "" || p.in.Game == gameName) && !(status == store.Playing && p.abandoned(now, s.cfg.WalkAway)) && !slices.ContainsFunc(p.who, away.holds) {
			rows = append(rows, liveRow{p: p, in: p.listed(now)})
		}
	}
	s.mu.RUnlock()
	for _, t := range ts {
		t.mu.Lock()
		if t.status == status && !t.m.Private && (gameName == "" || t.m.Game == gameName) && !(status == store.Playing && t.abandoned(now, s.cfg.WalkAway)) && !slices.ContainsFunc(t.m.Seats, func(st seatMeta) bool { return away.holds(st.Identity) }) {
			in := t.listed()
			*in.Spectators += s.spectatorsElsewhere(t.id, now)
			rows = append(rows, liveRow{t: t, in: in})
		}
		t.unlock()
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].in.Created.After(rows[j].in.Created) })
	if len(rows) > limit {
		rows = rows[:limit]
	}
	if status == store.Playing {
		s.rateLive(rows)
	}
	out := make([]Info, len(rows))
	for i, r := range rows {
		out[i] = r.in
	}
	return out
}

// asNow returns a person's seat of a finished game as its player is now,
// for the next game: a guest who has since signed up sits under the
// account's name, as an account. The finished game keeps its seats as
// they were played. A deleted account is refused: its seat could never
// move.
func (s *Service) asNow(ctx context.Context, st seatMeta) (seatMeta, error) {
	if st.Identity == "" || st.Computer != "" || st.Player == "" {
		return st, nil
	}
	id, err := s.st.Identity(ctx, st.Identity)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return st, nil
	case err != nil:
		return st, s.readFailed("a player's identity", err)
	case id.Account:
		st.Name, st.Player = id.Name, "account"
	case st.Player == "account":
		return st, refuse.Conflict("no rematch: a player of this game has deleted their account")
	}
	return st, nil
}

// mayRematch refuses p, at seat, the next game of t when the root's
// MayPlay (an account a moderator closed, p's own included) or
// MayRematch (a block between any two of its players) refuses it, or,
// when the asking makes the next game's table (making), at a rated
// table, when two of its players have played as many rated games
// together today as the cap allows (under, from ratedUnderWay): a
// rematch starts a rated game as a join does. t.mu must be held.
func (s *Service) mayRematch(ctx context.Context, t *table, p *auth.Principal, seat game.Seat, making bool, under [][]string) error {
	var others []PairedSeat
	for i, st := range t.m.Seats {
		if game.Seat(i) != seat && st.Identity != "" && st.Computer == "" && st.Identity != p.Identity {
			others = append(others, PairedSeat{Identity: st.Identity, Name: st.Name, Guest: st.Player == "guest"})
		}
	}
	if s.cfg.MayPlay != nil {
		// The asker too: a closed account's seat tokens stay, so that
		// its games can end, not so that it starts new ones.
		me := t.m.Seats[seat]
		self := PairedSeat{Identity: p.Identity, Name: me.Name, Guest: me.Player == "guest"}
		if err := s.cfg.MayPlay(ctx, append([]PairedSeat{self}, others...)); err != nil {
			return err
		}
	}
	if s.cfg.MayRematch != nil {
		if err := s.cfg.MayRematch(ctx, p.Identity, others); err != nil {
			return err
		}
		// The next game seats the others together too: a block between
		// two of them keeps it from being made. Whose block is theirs,
		// not the asker's to learn.
		for i, a := range others {
			err := s.cfg.MayRematch(ctx, a.Identity, others[i+1:])
			if st := refuse.Status(err); st == http.StatusForbidden || st == http.StatusConflict {
				return refuse.Conflict("no rematch: two of this game's other players do not take games together")
			} else if err != nil {
				return err
			}
		}
	}
	if !making {
		return nil // the rematch's table is made: its game is counted
	}
	if t.m.Rated {
		people := append([]PairedSeat{{Identity: p.Identity}}, others...)
		for i, a := range people {
			for _, b := range people[i+1:] {
				if err := s.pairCap(ctx, a.Identity, b.Identity, under); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Rematch seats the asker at the next game of a finished table's series,
// making that table if nobody has yet: same game and rules, every player
// and computer one seat further on (the last seat comes first), scores of
// an unfinished set carried over.
func (s *Service) Rematch(ctx context.Context, p *auth.Principal, id string) (Seated, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Seated{}, err
	}
	// A rated rematch counts the rated games its players have under
	// way, which takes each table's lock, and the computer hides the
	// setup of a solitaire game's next, which may take seconds: both
	// before this table's lock is held, so that nobody waits for them.
	t.mu.Lock()
	rated := t.m.Rated
	seed := auth.RandomSeed()
	hides := t.hidesSetup() && t.seatOf(p) >= 0 && t.status == store.Finished && t.m.Event == nil && t.m.Rematch == ""
	level, cfg := t.maker(), game.Config{Players: t.cfg.Players, Rules: t.cfg.Rules, Lexicon: t.cfg.Lexicon, Seed: seed}
	t.unlock()
	var h *hidden
	if hides {
		made, err := s.makeHidden(ctx, t.g, cfg, level)
		if err != nil {
			return Seated{}, err
		}
		h = &made
	}
	var under [][]string
	if rated {
		s.ratedStart.Lock()
		under = s.ratedUnderWay()
	}
	t.mu.Lock()
	defer t.unlock()
	if rated {
		defer s.ratedStart.Unlock() // before t.unlock tells the observers
	}
	seat := t.seatOf(p)
	if seat < 0 {
		return Seated{}, refuse.Forbidden("you hold no seat at this table")
	}
	if t.status != store.Finished {
		return Seated{}, refuse.Conflict("the game is not over yet")
	}
	if e := t.m.Event; e != nil {
		// The event pairs its players again; a rematch made beside it
		// would be a game of the event's players that the event does
		// not count.
		return Seated{}, refuse.Conflict("%s pairs its own games: they have no rematch", e.Name)
	}
	n := len(t.m.Seats)
	newSeat := nextSeat(int(seat), n)
	next := t.m.Rematch
	if next != "" {
		// Its players may have left the last rematch before it began,
		// or aborted it: then this one offers another.
		gone, seats, err := s.cancelledRematch(ctx, next)
		if err != nil {
			return Seated{}, err
		}
		if gone {
			next = ""
		} else if newSeat < len(seats) && seats[newSeat].Identity != p.Identity {
			// The asker left it while another stayed: their seat is
			// open to anybody now, or taken, and a token for it would
			// seat them nowhere.
			return Seated{}, refuse.Conflict("you left the rematch (table %s) before it began: join it again while a seat is open", next)
		} else if err := s.mayRematch(ctx, t, p, seat, false, nil); err != nil {
			// A block, or a closing, since the rematch was offered.
			return Seated{}, err
		}
	}
	if next == "" {
		if err := s.mayRematch(ctx, t, p, seat, true, under); err != nil {
			return Seated{}, err
		}
		m := meta{Game: t.m.Game, Rules: t.m.Rules, Lexicon: t.m.Lexicon, Seed: seed, Private: t.m.Private, Prev: t.id, Maker: t.m.Maker, Rated: t.m.Rated, Pool: t.m.Pool, Paired: t.m.paired()}
		m.Seats = make([]seatMeta, n)
		for i, st := range t.m.Seats {
			st, err := s.asNow(ctx, st)
			if err != nil {
				return Seated{}, err
			}
			m.Seats[nextSeat(i, n)] = seatMeta{Name: st.Name, Identity: st.Identity, Computer: st.Computer, Player: st.Player}
		}
		// A daily puzzle is one attempt: the game after it starts no
		// set, even where its table holds one (an older data folder's).
		if t.m.Set != nil && t.m.Daily == "" {
			m.Set = game.NewSet(n, t.m.Set.Target)
			if !t.m.Set.Over {
				m.Set.Games = t.m.Set.Games
				for i, v := range t.m.Set.Totals {
					m.Set.Totals[nextSeat(i, n)] = v
				}
			}
		}
		nt := s.newTable(t.g, m, t.cfg.Rules, t.cfg.Lexicon)
		if h != nil && nt.hidesSetup() {
			nt.hide(*h)
		} else if err := s.solitaireSetup(ctx, nt); err != nil {
			// A rematch made again after its players left the last
			// one: rare enough to make its setup here.
			return Seated{}, err
		}
		// The new table, this one's link to it and the asker's seat
		// token are one write.
		old := t.m.clone()
		t.m.Rematch = nt.id
		t.m.Changes++
		t.status = t.deriveStatus()
		desc, err := json.Marshal(t.m)
		if err != nil {
			t.m = old
			return Seated{}, err
		}
		b, tok, cred := asker{identity: p.Identity}.seating(nt.id, newSeat)
		b.Update = &store.TableUpdate{ID: t.id, Status: t.status, Meta: desc, Epoch: t.epoch}
		if err := s.insert(ctx, nt, b); err != nil {
			t.m = old
			t.status = t.deriveStatus()
			return Seated{}, err
		}
		s.auth.Remember(cred)
		t.broadcast()
		// Every seat of the next game is taken as it is made, as at a
		// table made against the computer: its start is told now, with
		// this table's news, once t.mu is let go (the observers run
		// outside every table's lock).
		nt.mu.Lock()
		s.started(nt)
		t.after, nt.after = append(t.after, nt.after...), nil
		nt.mu.Unlock()
		s.rematched(t, nt.id, int(seat))
		return Seated{Table: nt.id, Seat: newSeat, Token: tok, Invite: s.invite(nt.id), Code: nt.m.Code}, nil
	}
	tok, err := s.seatToken(ctx, p.Identity, t.m.Rematch, newSeat)
	if err != nil {
		return Seated{}, err
	}
	code := ""
	s.mu.RLock()
	if nt := s.tables[t.m.Rematch]; nt != nil {
		code = nt.m.Code // set before the table is published, never changed
	} else if p := s.parked[t.m.Rematch]; p != nil {
		code = p.in.Code
	}
	s.mu.RUnlock()
	return Seated{Table: t.m.Rematch, Seat: newSeat, Token: tok, Invite: s.invite(t.m.Rematch), Code: code}, nil
}
