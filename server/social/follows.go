// What followers hear: a followed player coming online or starting a
// game, on the follower's player stream and in the list of whom they
// follow. A player who hides from the list of players online, or blocks
// the follower, shows the follower nothing.

package social

import (
	"context"
	"slices"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// newsWait bounds the telling of one piece of news to the followers.
const newsWait = 10 * time.Second

// FollowNews is the followed player of a "followOnline" or
// "followPlaying" stream event, and for the second the game they began.
type FollowNews struct {
	Name  string       `json:"name"`
	Table *FollowTable `json:"table,omitempty"`
}

// FollowTable is a game a followed player plays: its table's id when the
// table is public, and its game.
type FollowTable struct {
	ID   string `json:"id,omitempty"`
	Game string `json:"game"`
}

// Followed is one player in the list of whom a player follows.
type Followed struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
	// Online and Playing are the player's status as the follower may
	// see it: offline, and no games, when the player hides from the list
	// of players online.
	Online  bool          `json:"online"`
	Playing []FollowTable `json:"playing"`
}

// cameOnline tells identity's followers, in the background, that it came
// online, unless it was online on another node already.
func (s *Service) cameOnline(identity string) {
	if s.rel == nil {
		return
	}
	go s.tellFollowers(identity, "followOnline", nil)
}

// startedForFollowers tells the followers of n's players, in the
// background, that they began a game.
func (s *Service) startedForFollowers(n table.GameNote) {
	if s.rel == nil {
		return
	}
	for _, id := range followable(n) {
		t := &FollowTable{Game: n.Game}
		if !n.Private {
			t.ID = n.Table
		}
		go s.tellFollowers(id, "followPlaying", t)
	}
}

// followable returns the identities at n's seats that may have
// followers: people who sat down with an account. Only accounts are
// followed, so a guest's seat costs no look at the followers.
func followable(n table.GameNote) []string {
	var out []string
	for i, id := range n.Seats {
		if id != "" && (n.Guests == nil || !n.Guests[i]) {
			out = append(out, id)
		}
	}
	return out
}

// tellFollowers tells identity's followers who are online, and may see
// its status, an event of type typ about it.
func (s *Service) tellFollowers(identity, typ string, t *FollowTable) {
	ctx, cancel := context.WithTimeout(s.ctx, newsWait)
	defer cancel()
	followers, err := s.rel.Followers(ctx, identity)
	if err != nil {
		s.log.Warn("reading a player's followers", "identity", identity, "err", err)
		return
	}
	if len(followers) == 0 {
		return
	}
	ps, ok := s.st.(store.Players)
	if !ok {
		return
	}
	names, err := ps.AccountNames(ctx, []string{identity})
	if err != nil || names[identity] == "" {
		return
	}
	if hides, err := s.hides(ctx, identity); err != nil || hides {
		return
	}
	here := s.presence.online(s.now())
	var elsewhere []string
	if s.peers != nil {
		elsewhere = s.peers.OnlineElsewhere(ctx)
		if typ == "followOnline" && slices.Contains(elsewhere, identity) {
			return // not news: the player was on another node already
		}
	}
	online := make(map[string]bool, len(here)+len(elsewhere))
	for _, id := range append(here, elsewhere...) {
		online[id] = true
	}
	ev := StreamEvent{Type: typ, Follow: &FollowNews{Name: names[identity], Table: t}}
	for _, f := range followers {
		if online[f] {
			s.Tell(f, ev)
		}
	}
}

// hides reports whether identity hides from the list of players online.
func (s *Service) hides(ctx context.Context, identity string) (bool, error) {
	cs, ok := s.st.(store.Challenges)
	if !ok {
		return false, nil
	}
	h, err := cs.Hidden(ctx, []string{identity})
	return h[identity], err
}

// blockersOf returns the identities that block viewer ("" for anybody:
// none).
func (s *Service) blockersOf(ctx context.Context, viewer string) (map[string]bool, error) {
	if s.rel == nil || viewer == "" {
		return map[string]bool{}, nil
	}
	return s.rel.BlockersOf(ctx, viewer)
}

// Follows returns whom p follows, oldest first, with whether each is
// online and the games each plays, as p may see them.
func (s *Service) Follows(ctx context.Context, p *auth.Principal) (_ []Followed, err error) {
	defer s.reading("whom you follow", &err)
	if s.rel == nil {
		if _, err := s.players.AccountOnly(ctx, p, "the list of players you follow"); err != nil {
			return nil, err
		}
		return []Followed{}, nil
	}
	list, err := s.rel.List(ctx, p, store.Follow)
	if err != nil {
		return nil, err
	}
	out := make([]Followed, 0, len(list))
	if len(list) == 0 {
		return out, nil
	}
	ids := make([]string, len(list))
	for i, e := range list {
		ids[i] = e.Identity
	}
	var hidden map[string]bool
	if cs, ok := s.st.(store.Challenges); ok {
		if hidden, err = cs.Hidden(ctx, ids); err != nil {
			return nil, err
		}
	}
	blockers, err := s.blockersOf(ctx, p.Identity)
	if err != nil {
		return nil, err
	}
	var closed map[string]bool
	if ps, ok := s.st.(store.Players); ok {
		names := make(map[string]string, len(list))
		for _, e := range list {
			names[e.Identity] = e.Name
		}
		if closed, err = closedAmong(ctx, ps, names); err != nil {
			return nil, err
		}
	}
	online := map[string]bool{}
	for _, id := range s.presence.online(s.now()) {
		online[id] = true
	}
	if s.peers != nil {
		for _, id := range s.peers.OnlineElsewhere(ctx) {
			online[id] = true
		}
	}
	for _, e := range list {
		f := Followed{Name: e.Name, Since: e.Since, Playing: []FollowTable{}}
		if !hidden[e.Identity] && !blockers[e.Identity] && !closed[e.Identity] && online[e.Identity] {
			f.Online = true
			// Tables on a node that does not answer now are left out.
			seated, _ := s.players.Seated(ctx, e.Identity)
			for _, t := range seated {
				if t.Status == store.Playing || t.Status == store.Setup {
					ft := FollowTable{Game: t.Game}
					if !t.Private {
						ft.ID = t.ID
					}
					f.Playing = append(f.Playing, ft)
				}
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// mayChallenge refuses a challenge from me to them when either blocks
// the other. The player blocked is not told why: blocking is private.
func (s *Service) mayChallenge(ctx context.Context, me, them store.Account) error {
	if s.rel == nil {
		return nil
	}
	if mine, err := s.rel.Blocks(ctx, me.Identity, them.Identity); err != nil {
		return refuse.ReadFailed(s.log, "your blocks", err)
	} else if mine {
		return refuse.Conflict("you have blocked %s: unblock them before you challenge them", them.Name)
	}
	if theirs, err := s.rel.Blocks(ctx, them.Identity, me.Identity); err != nil {
		return refuse.ReadFailed(s.log, "your challenge", err)
	} else if theirs {
		return refuse.Forbidden("%s is not taking challenges from you", them.Name)
	}
	return nil
}
