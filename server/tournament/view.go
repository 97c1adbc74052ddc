package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlour/game"
	"parlour/glicko"
	"parlour/pairing"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Event is an event as the API shows it. Lists leave out Standings and
// Games.
type Event struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Game        string `json:"game"`
	// Mode is the choice of the game's rated mode, when it has one.
	Mode string `json:"mode,omitempty"`
	// Rules are the other rule options set away from their defaults.
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	Clock json.RawMessage            `json:"clock"`
	// ClockText is the clock as a player reads it ("3+2").
	ClockText string    `json:"clock_text"`
	Rated     bool      `json:"rated"`
	Starts    time.Time `json:"starts"`
	// Ends is when a started arena ends.
	Ends          *time.Time `json:"ends,omitempty"`
	Minutes       int        `json:"minutes,omitempty"`
	Rounds        int        `json:"rounds,omitempty"`
	Seats         int        `json:"seats"`
	Password      bool       `json:"password"`
	MinRatedGames int        `json:"min_rated_games,omitempty"`
	MaxPlayers    int        `json:"max_players"`
	// Creator is the name of the player who made it; empty for the
	// house's events.
	Creator string                 `json:"creator,omitempty"`
	Status  store.TournamentStatus `json:"status"`
	// Round is a Swiss's current round (0 before the first).
	Round   int `json:"round,omitempty"`
	Players int `json:"players"`
	// Winners are the names of the first Podium places, once finished.
	Winners []string `json:"winners,omitempty"`
	// Version counts the event's changes, for a page that follows it.
	Version int `json:"version"`
	// Joined says, to a reader who sent their token or session, whether
	// they are in the event (and not left); absent for a reader without.
	Joined *bool `json:"joined,omitempty"`
	// RatedGames tells a reader with an account who is not in an event
	// that asks for rated games (MinRatedGames) how many they have played
	// in its pool, so that a front end offers no join the event refuses.
	RatedGames *int `json:"rated_games,omitempty"`
	// CannotStart says, while a player's event waits for its start, why
	// its creator could not start it now (a Swiss whose field is too
	// small for its rounds), so that a page offers no start the event
	// refuses; empty when it could.
	CannotStart string `json:"cannot_start,omitempty"`

	Standings []Standing `json:"standings,omitempty"`
	// Playing are the games under way; Games every game, the newest
	// first.
	Playing []GameInfo `json:"playing,omitempty"`
	Games   []GameInfo `json:"games,omitempty"`

	// names are the entrants' names as the view shows them, by identity
	// (entrantNames), for markReader.
	names map[string]string
}

// Standing is one player's line of an event's standings, best first.
type Standing struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Score is the player's points: 2 a win, 1 a draw (4 and 2 on an
	// arena streak); a Swiss bye scores a win; a multi-seat table scores
	// by place.
	Score  int     `json:"score"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Rating float64 `json:"rating"`
	// Streak is set while an arena player is on a streak (their wins
	// score double).
	Streak   bool `json:"streak,omitempty"`
	Byes     int  `json:"byes,omitempty"`
	Forfeits int  `json:"forfeits,omitempty"`
	// Buchholz and SonnebornBerger are a Swiss's tie-breaks.
	Buchholz        int `json:"buchholz"`
	SonnebornBerger int `json:"sonneborn_berger"`
	// Left is set for a player who left or was withdrawn: they keep
	// their points and are paired no more.
	Left bool `json:"left,omitempty"`
	// Playing is the table where they play now.
	Playing string `json:"playing,omitempty"`
	// Bye is set while a Swiss player sits out its round under way with
	// a bye: a player left waiting for the round's end is told apart
	// from one whose game of it is over, or one who came back after it
	// was paired.
	Bye bool `json:"bye,omitempty"`
	// You marks the reader's own line, to a reader who sent their token
	// or session: a guest's name is not theirs alone, so a client cannot
	// find its player's line by the name.
	You bool `json:"you,omitempty"`
}

// GameInfo is one game of an event: its table (watchable while under way
// at /api/v1/tables/{table}), its round (a Swiss's), its players in seat
// order and, once it ended, each one's points.
type GameInfo struct {
	Table   string     `json:"table"`
	Round   int        `json:"round,omitempty"`
	Players []string   `json:"players"`
	Points  []int      `json:"points,omitempty"`
	Started time.Time  `json:"started"`
	Ended   *time.Time `json:"ended,omitempty"`
}

// List returns up to 100 events in status ("" and "created": those to
// come, the soonest first; "started"; "finished", the newest first),
// without standings or games.
func (s *Service) List(ctx context.Context, status string) ([]Event, error) {
	st := store.TournamentStatus(status)
	switch st {
	case "":
		st = store.TournamentCreated
	case store.TournamentCreated, store.TournamentStarted, store.TournamentFinished:
	default:
		return nil, refuse.Bad(`the status is "created", "started" or "finished", not %q`, refuse.Clip(status))
	}
	ts, err := s.st.ListTournaments(ctx, st, 100)
	if err != nil {
		return nil, refuse.ReadFailed(s.log, "the events", err)
	}
	out := make([]Event, 0, len(ts))
	for _, t := range ts {
		if ev := s.event(t.ID); ev != nil {
			// Live: memory is the newer.
			ev.mu.Lock()
			e := s.view(ev.t, ev.g, ev.version, false)
			ev.mu.Unlock()
			out = append(out, e)
			continue
		}
		g, _ := s.cfg.Games.Lookup(t.Game)
		out = append(out, s.view(t, g, 0, false))
	}
	return out, nil
}

// Get returns event id with its standings and games; 404 for none.
func (s *Service) Get(ctx context.Context, id string) (Event, error) {
	return s.GetFor(ctx, nil, id)
}

// GetFor is Get for reader p, whom it tells whether they are in the event
// (Joined); p may be nil.
func (s *Service) GetFor(ctx context.Context, p *auth.Principal, id string) (Event, error) {
	var e Event
	var entrants []store.Entrant
	pool := ""
	if ev := s.event(id); ev != nil {
		ev.mu.Lock()
		e = s.view(ev.t, ev.g, ev.version, true)
		if p != nil {
			if me := ev.entrant(p.Identity); me != nil {
				entrants = []store.Entrant{*me}
			}
		}
		if ev.done() == nil {
			pool, _ = game.Pool(ev.g, ev.rules)
		}
		e.CannotStart = ev.cannotStart()
		ev.mu.Unlock()
	} else {
		t, err := s.stored(ctx, id)
		if err != nil {
			return Event{}, err
		}
		g, _ := s.cfg.Games.Lookup(t.Game)
		e, entrants = s.view(t, g, 0, true), t.Entrants
	}
	if p != nil {
		in := slices.ContainsFunc(entrants, func(en store.Entrant) bool { return en.Identity == p.Identity && !en.Left })
		e.Joined = &in
		markReader(&e, entrants, p.Identity)
		if !in && e.MinRatedGames > 0 && pool != "" {
			// A live event reads from memory: ratings that cannot be
			// read leave the count out, and a join still checks it.
			games, err := s.ratedGames(ctx, p, pool)
			if err != nil {
				s.log.Warn("an event read without the reader's rated games", "event", id, "err", err)
			}
			e.RatedGames = games
		}
	}
	return e, nil
}

// ratedGames returns how many rated games p has played in pool when p
// has an account; nil for a guest.
func (s *Service) ratedGames(ctx context.Context, p *auth.Principal, pool string) (*int, error) {
	_, acct, err := s.tables.NameOf(ctx, p)
	if err != nil || !acct {
		return nil, err
	}
	_, games, err := s.rating(ctx, p.Identity, pool)
	if err != nil {
		return nil, err
	}
	return &games, nil
}

// rating returns identity's rating in pool and the rated games they have
// played there: the default rating and none for a pool they have not
// played.
func (s *Service) rating(ctx context.Context, identity, pool string) (float64, int, error) {
	rs, err := s.pl.Ratings(ctx, identity)
	if err != nil {
		return 0, 0, refuse.ReadFailed(s.log, "your ratings", err)
	}
	for _, r := range rs {
		if r.Pool == pool {
			return r.Rating, r.Games, nil
		}
	}
	return glicko.DefaultRating, 0, nil
}

// markReader sets You on the standing of reader identity in e, the view
// of an event whose entrants include entrants (and the reader, when in
// it): the names of a view are its entrants' own (entrantNames), and a
// standing names no identity, which the API keeps to itself.
func markReader(e *Event, entrants []store.Entrant, identity string) {
	if !slices.ContainsFunc(entrants, func(en store.Entrant) bool { return en.Identity == identity }) {
		return
	}
	name := e.names[identity]
	for i := range e.Standings {
		if e.Standings[i].Name == name {
			e.Standings[i].You = true
			return
		}
	}
}

// viewFor is live event ev, whole, as the API shows it to p: with
// Joined, as GetFor tells it. ev.mu must be held.
func (s *Service) viewFor(ev *event, p *auth.Principal) Event {
	e := s.view(ev.t, ev.g, ev.version, true)
	e.CannotStart = ev.cannotStart()
	me := ev.entrant(p.Identity)
	in := me != nil && !me.Left
	e.Joined = &in
	if me != nil {
		markReader(&e, []store.Entrant{*me}, p.Identity)
	}
	return e
}

// view is t as the API shows it; whole adds the standings and games. g
// may be nil (a game no longer offered).
func (s *Service) view(t store.Tournament, g game.Game, version int, whole bool) Event {
	e := Event{ID: t.ID, Kind: t.Kind, Name: t.Name, Description: t.Description, Game: t.Game, Clock: json.RawMessage(t.Clock),
		Rated: t.Rated, Starts: t.Starts, Minutes: t.Minutes, Rounds: t.Rounds, Seats: t.Seats, Password: t.PasswordHash != "",
		MinRatedGames: t.MinRatedGames, MaxPlayers: t.MaxPlayers, Creator: t.CreatorName, Status: t.Status, Round: t.Round,
		Players: t.Players, Version: version}
	if !t.Ends.IsZero() {
		ends := t.Ends
		e.Ends = &ends
	}
	if len(t.Rules) > 0 {
		_ = json.Unmarshal(t.Rules, &e.Rules)
	}
	if g != nil {
		if r, ok := g.(game.Rated); ok && r.PoolOption() != "" {
			if m, ok := e.Rules[r.PoolOption()]; ok {
				_ = json.Unmarshal(m, &e.Mode)
				delete(e.Rules, r.PoolOption())
			}
		}
		if rules, err := game.ResolveFor(g, map[string]json.RawMessage{game.ClockOption: t.Clock}); err == nil {
			c, _ := game.ClockOf(rules)
			e.ClockText = c.String()
		}
	}
	if len(e.Rules) == 0 {
		e.Rules = nil
	}
	seated := seatedAt(t)
	if t.Entrants != nil {
		e.Players = 0
		for _, en := range t.Entrants {
			if counts(en, seated) {
				e.Players++
			}
		}
	}
	names := entrantNames(t.Entrants)
	e.names = names
	for i, id := range t.Winners {
		name, ok := names[id]
		if !ok && i < len(t.WinnerNames) {
			name = t.WinnerNames[i] // a list's event, read without its entrants
		}
		e.Winners = append(e.Winners, name)
	}
	if !whole {
		return e
	}
	// Standings: points, then the tie-breaks.
	field := make([]pairing.Entrant, 0, len(t.Entrants))
	games := tieGames(t)
	totals := map[string]int{}
	byID := map[string]store.Entrant{}
	for _, en := range t.Entrants {
		if !counts(en, seated) {
			continue // joined and left before playing: not in the event
		}
		field = append(field, pairing.Entrant{ID: en.Identity, Points: en.Points, Rating: en.Rating, Byes: en.Byes})
		totals[en.Identity] = en.Points
		byID[en.Identity] = en
	}
	wins, draws, losses := map[string]int{}, map[string]int{}, map[string]int{}
	playing := map[string]string{}
	// The newest first, as the store orders them (by start, then table).
	all := slices.SortedFunc(slices.Values(t.Games), func(a, b store.TournamentGame) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return strings.Compare(b.Table, a.Table)
	})
	for _, gm := range all {
		info := GameInfo{Table: gm.Table, Round: gm.Round, Players: make([]string, len(gm.Players)), Points: gm.Points, Started: gm.Started}
		for j, id := range gm.Players {
			info.Players[j] = names[id]
		}
		if gm.Points == nil {
			e.Playing = append(e.Playing, info)
			for _, id := range gm.Players {
				playing[id] = gm.Table
			}
		} else {
			ended := gm.Ended
			info.Ended = &ended
			for j, id := range gm.Players {
				switch best, worst := bounds(gm.Points); {
				case pairing.Unplayed(pairing.Game{Players: gm.Players, Points: gm.Points}):
					losses[id]++ // everybody forfeited it: no draw
				case best == worst:
					draws[id]++
				case gm.Points[j] == best:
					wins[id]++
				default:
					losses[id]++
				}
			}
		}
		e.Games = append(e.Games, info)
	}
	byes := roundByes(t)
	bh := pairing.Buchholz(games, totals)
	sb := pairing.SonnebornBerger(games, totals)
	for i, id := range pairing.Rank(field, games) {
		en := byID[id]
		e.Standings = append(e.Standings, Standing{Rank: i + 1, Name: names[id], Score: en.Points, Games: en.Games,
			Wins: wins[id], Draws: draws[id], Losses: losses[id], Rating: en.Rating, Streak: t.Kind == Arena && en.Streak >= 2,
			Byes: en.Byes, Forfeits: en.Forfeits, Buchholz: bh[id], SonnebornBerger: sb[id], Left: en.Left, Playing: playing[id], Bye: byes[id]})
	}
	return e
}

// roundByes returns the players who sit out the round of Swiss t under
// way with a bye: none once it is over.
func roundByes(t store.Tournament) map[string]bool {
	out := map[string]bool{}
	if t.Kind != Swiss || t.Status != store.TournamentStarted || len(t.Pairings) == 0 {
		return out
	}
	last := t.Pairings[len(t.Pairings)-1]
	var r pairing.Round
	if last.Number != t.Round || json.Unmarshal(last.Pairing, &r) != nil {
		return out
	}
	for _, id := range r.Byes {
		out[id] = true
	}
	return out
}

// entrantNames names each entrant by identity as the event shows them,
// so that no two lines of the standings or the games read alike: an
// account keeps its name (no other account holds it), and a guest, whose
// name is not unique, or a deleted account (every one is "deleted
// player") takes a number after it when the name is taken, in the order
// they joined.
func entrantNames(entrants []store.Entrant) map[string]string {
	names := make(map[string]string, len(entrants))
	accounts := make(map[string]int)
	for _, en := range entrants {
		if !en.Guest {
			accounts[strings.ToLower(en.Name)]++
		}
	}
	taken := make(map[string]bool, len(entrants))
	for _, en := range entrants {
		if !en.Guest && accounts[strings.ToLower(en.Name)] == 1 {
			names[en.Identity] = en.Name
			taken[strings.ToLower(en.Name)] = true
		}
	}
	for _, en := range entrants {
		if _, ok := names[en.Identity]; ok {
			continue
		}
		name := en.Name
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s %d", en.Name, n)
		}
		taken[strings.ToLower(name)] = true
		names[en.Identity] = name
	}
	return names
}

// bounds returns the most and least points of a game.
func bounds(points []int) (best, worst int) {
	for i, p := range points {
		if i == 0 || p > best {
			best = p
		}
		if i == 0 || p < worst {
			worst = p
		}
	}
	return best, worst
}
