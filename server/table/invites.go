package table

import (
	"context"
	"errors"

	"parlour/invite"
	"parlour/server/refuse"
	"parlour/store"
)

// Invitation answers an invite code: the table it stands for, its link,
// and what anybody may know of it.
type Invitation struct {
	Code   string `json:"code"`
	Table  string `json:"table"`
	Invite string `json:"invite"`
	Info   Info   `json:"info"`
}

// wantsCode reports whether a new table gets an invite code: one with
// more than one seat, in a store that keeps codes, that is not private.
// A private table has none: codes are short enough to read aloud, so a
// patient scan of them could find a table its link alone should reach.
// A public table's code leads nowhere its lobby row does not.
func (s *Service) wantsCode(t *table) bool {
	_, ok := s.st.(store.Invites)
	return ok && len(t.m.Seats) > 1 && t.m.Daily == "" && !t.m.Private
}

// maxCodeTries bounds the codes a new table tries before giving up: with
// close to 900 million codes, a second try is already rare.
const maxCodeTries = 8

// Invitation resolves an invite code as a player types it (any case,
// spaces and dashes ignored) to its table while the table is under way.
func (s *Service) Invitation(ctx context.Context, raw string) (_ Invitation, err error) {
	defer s.reading("the invite code", &err)
	code, err := invite.Parse(raw)
	if err != nil {
		return Invitation{}, refuse.Bad("%v", err)
	}
	is, ok := s.st.(store.Invites)
	if !ok {
		return Invitation{}, refuse.NotFound("this server has no invite codes; ask for the table's link instead")
	}
	id, err := is.TableByCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		return Invitation{}, refuse.NotFound("no table has the invite code %s; check the code with whoever gave it to you", invite.Format(code))
	}
	if err != nil {
		return Invitation{}, err
	}
	u, err := s.View(ctx, nil, id)
	if err != nil {
		return Invitation{}, err
	}
	if u.Table.Status == store.Finished {
		return Invitation{}, refuse.NotFound("the game with invite code %s is over; the code has expired", invite.Format(code))
	}
	if u.Table.Private {
		// Made before private tables stopped taking codes: only its
		// link leads to it now.
		return Invitation{}, refuse.NotFound("no table has the invite code %s; check the code with whoever gave it to you", invite.Format(code))
	}
	return Invitation{Code: code, Table: id, Invite: s.invite(id), Info: u.Table}, nil
}

// CodeMisses and CodeMissesBurst bound the invite codes one address may
// look up in vain: 20 at once, then one every 10 seconds. A person who
// mistypes a code tries again a few times; a scan of the 900 million
// codes at that pace finds nothing worth the wait.
const (
	CodeMisses      = 0.1
	CodeMissesBurst = 20
)
