package tournament

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"parlour/account"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/store"
)

// Room returns event id's chat room (chat.Rooms' second kind of room,
// beside a table's): everybody reads it; players with an account, and
// the event's own players, guests among them, write in it; the event's
// creator mutes writers in it (the house's events are moderated by the
// site's moderators alone). A server built without rooms answers 501, an
// unknown event 404.
func (s *Service) Room(ctx context.Context, id string) (*chat.Room, error) {
	if s.cfg.Rooms == nil {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no chat for events")
	}
	e, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	creator := s.creator(ctx, id)
	return s.cfg.Rooms.Room("tournament:"+e.ID, chat.Policy{
		MayPost: func(ctx context.Context, w chat.Writer) error {
			if w.Account {
				return nil
			}
			in, err := s.GetFor(ctx, &auth.Principal{Identity: w.Identity}, id)
			if err != nil {
				return err
			}
			if in.Joined == nil || !*in.Joined {
				return refuse.Forbidden("sign in, or join the event, to write in its chat")
			}
			return nil
		},
		MayModerate: func(_ context.Context, identity string) error {
			if creator == "" || identity != creator {
				return refuse.Forbidden("only the event's creator mutes players in its chat")
			}
			return nil
		},
		Named: func(ctx context.Context, w chat.Writer) string {
			return s.shownName(ctx, id, w)
		},
	}), nil
}

// shownName is the name writer w goes by in event id's chat: the one its
// standings give them when they play in it, else their own.
func (s *Service) shownName(ctx context.Context, id string, w chat.Writer) string {
	t, err := s.current(ctx, id)
	if err != nil {
		return w.Name
	}
	if n, ok := entrantNames(t.Entrants)[w.Identity]; ok {
		return n
	}
	return w.Name
}

// creator returns the identity that made event id ("" for the house's).
func (s *Service) creator(ctx context.Context, id string) string {
	t, err := s.current(ctx, id)
	if err != nil {
		return ""
	}
	return t.Creator
}

// WriterNamed returns the identity of the player called name (in any
// case), for a mute of event id's chat that names them: one of the
// event's players (a guest among them) by the name the standings give
// them ("Kit 2", the second guest called Kit) or their own, else the
// account of that name.
func (s *Service) WriterNamed(ctx context.Context, id, name string) (string, error) {
	t, err := s.current(ctx, id)
	if err != nil {
		return "", err
	}
	for identity, shown := range entrantNames(t.Entrants) {
		if strings.EqualFold(shown, name) {
			return identity, nil
		}
	}
	for _, en := range t.Entrants {
		if strings.EqualFold(en.Name, name) {
			return en.Identity, nil
		}
	}
	a, err := s.pl.AccountByKey(ctx, account.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse.NotFound("there is no player called %q", refuse.Clip(name))
	}
	return a.Identity, err
}

// current returns event id as this node knows it: its copy in memory
// while it is live, else the store's.
func (s *Service) current(ctx context.Context, id string) (store.Tournament, error) {
	if ev := s.event(id); ev != nil {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		t := ev.t
		t.Entrants = slices.Clone(t.Entrants)
		return t, nil
	}
	return s.stored(ctx, id)
}
