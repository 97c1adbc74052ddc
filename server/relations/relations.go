// Package relations is what one account keeps about another: whom it
// follows (to hear when they come online or start a game) and whom it
// blocks (to keep them away: no challenges, no pairing, no seat at its
// tables, no words in their chats nor any line read at another table, no
// sight of its online status). Both are private to the
// account that made them: nothing tells the player followed or blocked.
// It also keeps guests out of the chats of an account that takes chat
// from accounts only (its guest_chat setting), since a blocked or muted
// player can come back as a guest.
// The social side (server/social) tells followers their news and keeps
// blocked players away from challenges and the list of players online;
// the root hands Blocked to the seeks, and MayChat, Hidden, MayJoin and
// MayRematch to the tables.
package relations

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// MaxFollows and MaxBlocks cap the players one account may follow and
// block: enough for every friend and every nuisance, few enough that a
// follower's list is one page and a block check one small read.
const (
	MaxFollows = 200
	MaxBlocks  = 1000
)

// ChangesPerIdentity and ChangesBurst limit the follows, unfollows,
// blocks and unblocks one identity makes: twenty a minute, thirty at
// once, which a player clicking through a list never meets and a script
// following everybody online does.
const (
	ChangesPerIdentity = 20.0 / 60
	ChangesBurst       = 30
)

// maxFollowers bounds the followers told of one player's news at once.
const maxFollowers = 10000

// Config is what a Service is built from; all are required but Logger.
type Config struct {
	Players *players.Service
	Store   store.Store
	Logger  *slog.Logger
	// Now is the time follows and blocks are stamped with.
	Now func() time.Time
}

// Service keeps follows and blocks.
type Service struct {
	players *players.Service
	st      store.Store
	log     *slog.Logger
	now     func() time.Time
}

// New returns the relations of cfg.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{players: cfg.Players, st: cfg.Store, log: cfg.Logger, now: cfg.Now}
}

// Request names the player to follow or block.
type Request struct {
	Name string `json:"name"`
}

// Entry is one player followed or blocked, by their account name, and
// since when.
type Entry struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
	// Identity is the player's identity, for the server's own use.
	Identity string `json:"-"`
}

// kindWords are how a player says each relation.
var kindWords = map[store.Relation]struct{ do, doing, undo, list string }{
	store.Follow: {"follow", "following", "unfollow", "follows"},
	store.Block:  {"block", "blocking", "unblock", "blocks"},
}

// relations returns the store's relations, or a refusal when it keeps
// none.
func (s *Service) relations() (store.Relations, error) {
	rs, ok := s.st.(store.Relations)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no follows or blocks")
	}
	return rs, nil
}

// target resolves what p relates to: p's account, the account called
// name, and never p's own.
func (s *Service) target(ctx context.Context, p *auth.Principal, kind store.Relation, name string) (me, them store.Account, rs store.Relations, err error) {
	w := kindWords[kind]
	if me, err = s.players.AccountOnly(ctx, p, w.doing+" a player"); err != nil {
		return
	}
	if rs, err = s.relations(); err != nil {
		return
	}
	name = strings.TrimSpace(name)
	if name == "" {
		err = refuse.Bad(`say whom you %s: "name" is a player's account name`, w.do)
		return
	}
	if them, _, err = s.players.AccountNamed(ctx, name); err != nil {
		return
	}
	if them.Identity == me.Identity {
		err = refuse.Bad("you cannot %s yourself", w.do)
	}
	return
}

// Relate makes p follow or block (kind) the account called name, and
// answers the entry as p's list will show it. Doing it again changes
// nothing and answers the same.
func (s *Service) Relate(ctx context.Context, p *auth.Principal, kind store.Relation, name string) (Entry, error) {
	me, them, rs, err := s.target(ctx, p, kind, name)
	if err != nil {
		return Entry{}, err
	}
	limit := MaxFollows
	if kind == store.Block {
		limit = MaxBlocks
	}
	have, err := rs.RelatedFrom(ctx, kind, me.Identity, limit+1)
	if err != nil {
		return Entry{}, refuse.ReadFailed(s.log, "your "+kindWords[kind].list, err)
	}
	for _, r := range have {
		if r.To == them.Identity {
			return Entry{Name: them.Name, Since: r.Created, Identity: them.Identity}, nil
		}
	}
	if len(have) >= limit {
		return Entry{}, refuse.Conflict("you %s %d players already, the most one may: %s someone first", kindWords[kind].do, limit, kindWords[kind].undo)
	}
	at := s.now().UTC().Truncate(time.Microsecond)
	if _, err := rs.Relate(ctx, kind, me.Identity, them.Identity, at); err != nil {
		return Entry{}, refuse.SaveFailed(s.log, "your "+kindWords[kind].do, err)
	}
	s.log.Info("relation made", "kind", kind, "from", me.Identity, "to", them.Identity)
	return Entry{Name: them.Name, Since: at, Identity: them.Identity}, nil
}

// Unrelate undoes p's follow or block (kind) of the account called name.
// A player p does not follow (or block) is a refusal: not found.
func (s *Service) Unrelate(ctx context.Context, p *auth.Principal, kind store.Relation, name string) error {
	me, them, rs, err := s.target(ctx, p, kind, name)
	if err != nil {
		return err
	}
	removed, err := rs.Unrelate(ctx, kind, me.Identity, them.Identity)
	if err != nil {
		return refuse.SaveFailed(s.log, "your "+kindWords[kind].undo, err)
	}
	if !removed {
		return refuse.NotFound("you are not %s %s", kindWords[kind].doing, them.Name)
	}
	return nil
}

// List returns whom p follows or blocks (kind), oldest first, by their
// account names.
func (s *Service) List(ctx context.Context, p *auth.Principal, kind store.Relation) (_ []Entry, err error) {
	defer refuse.Reading(s.log, "your "+kindWords[kind].list, &err)
	me, err := s.players.AccountOnly(ctx, p, "the list of players you "+kindWords[kind].do)
	if err != nil {
		return nil, err
	}
	return s.ListOf(ctx, me.Identity, kind)
}

// ListOf returns whom identity follows or blocks (kind), oldest first,
// by their account names.
func (s *Service) ListOf(ctx context.Context, identity string, kind store.Relation) ([]Entry, error) {
	rs, err := s.relations()
	if err != nil {
		return nil, err
	}
	limit := MaxFollows
	if kind == store.Block {
		limit = MaxBlocks
	}
	have, err := rs.RelatedFrom(ctx, kind, identity, limit)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(have))
	for i, r := range have {
		ids[i] = r.To
	}
	names, err := s.names(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, r := range have {
		if n, ok := names[r.To]; ok {
			out = append(out, Entry{Name: n, Since: r.Created, Identity: r.To})
		}
	}
	return out, nil
}

func (s *Service) names(ctx context.Context, ids []string) (map[string]string, error) {
	ps, ok := s.st.(store.Players)
	if !ok || len(ids) == 0 {
		return map[string]string{}, nil
	}
	return ps.AccountNames(ctx, ids)
}

// Followers returns the identities that follow identity and may see its
// status: those it blocks are left out. A store without relations has
// none.
func (s *Service) Followers(ctx context.Context, identity string) ([]string, error) {
	rs, ok := s.st.(store.Relations)
	if !ok {
		return nil, nil
	}
	fs, err := rs.RelatedTo(ctx, store.Follow, identity, maxFollowers)
	if err != nil || len(fs) == 0 {
		return nil, err
	}
	blocked, err := s.blocks(ctx, rs, identity)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		if !blocked[f.From] {
			out = append(out, f.From)
		}
	}
	return out, nil
}

// blocks returns the identities identity blocks.
func (s *Service) blocks(ctx context.Context, rs store.Relations, identity string) (map[string]bool, error) {
	bs, err := rs.RelatedFrom(ctx, store.Block, identity, MaxBlocks)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(bs))
	for _, b := range bs {
		out[b.To] = true
	}
	return out, nil
}

// Hidden returns the identities reader blocks, whose chat lines it does
// not see at any table. A store without relations has none.
func (s *Service) Hidden(ctx context.Context, reader string) (map[string]bool, error) {
	rs, ok := s.st.(store.Relations)
	if !ok || reader == "" {
		return nil, nil
	}
	return s.blocks(ctx, rs, reader)
}

// BlockersOf returns the identities that block identity: those whose
// online status it may not see. A store without relations has none.
func (s *Service) BlockersOf(ctx context.Context, identity string) (map[string]bool, error) {
	rs, ok := s.st.(store.Relations)
	if !ok || identity == "" {
		return map[string]bool{}, nil
	}
	bs, err := rs.RelatedTo(ctx, store.Block, identity, maxFollowers)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(bs))
	for _, b := range bs {
		out[b.From] = true
	}
	return out, nil
}

// Apart returns the identities identity blocks and those that block it:
// the players it is never brought together with, whose seeks its lobby
// leaves out. A store without relations has none.
func (s *Service) Apart(ctx context.Context, identity string) (map[string]bool, error) {
	rs, ok := s.st.(store.Relations)
	if !ok || identity == "" {
		return map[string]bool{}, nil
	}
	out, err := s.blocks(ctx, rs, identity)
	if err != nil {
		return nil, refuse.ReadFailed(s.log, "your blocks", err)
	}
	by, err := s.BlockersOf(ctx, identity)
	if err != nil {
		return nil, refuse.ReadFailed(s.log, "your blocks", err)
	}
	for id := range by {
		out[id] = true
	}
	return out, nil
}

// ApartNames returns the identities identity blocks and those that
// block it, as Apart does, and the names, in lower case, of those that
// are accounts: a join would seat it beside none of them, so its lobby
// leaves out their open tables, matched by identity where the seats'
// identities are at hand and by name where only the names are. A store
// without relations has none.
func (s *Service) ApartNames(ctx context.Context, identity string) (ids, names map[string]bool, err error) {
	ids, err = s.Apart(ctx, identity)
	if err != nil || len(ids) == 0 {
		return nil, nil, err
	}
	accounts, err := s.names(ctx, slices.Collect(maps.Keys(ids)))
	if err != nil {
		return nil, nil, refuse.ReadFailed(s.log, "your blocks", err)
	}
	names = make(map[string]bool, len(accounts))
	for _, n := range accounts {
		names[strings.ToLower(n)] = true
	}
	return ids, names, nil
}

// Blocks reports whether blocker blocks blocked.
func (s *Service) Blocks(ctx context.Context, blocker, blocked string) (bool, error) {
	rs, ok := s.st.(store.Relations)
	if !ok || blocker == "" || blocked == "" {
		return false, nil
	}
	bs, err := s.blocks(ctx, rs, blocker)
	return bs[blocked], err
}

// Blocking reports whether either of a and b blocks the other.
func (s *Service) Blocking(ctx context.Context, a, b string) (bool, error) {
	rs, ok := s.st.(store.Relations)
	if !ok || a == "" || b == "" || a == b {
		return false, nil
	}
	return rs.Blocking(ctx, a, b)
}

// Blocked reports whether either of a and b blocks the other, for those
// that must not bring them together (pairing two seeks). When the store
// cannot say it answers true: two players kept apart for a moment are
// better than a blocked one let through.
func (s *Service) Blocked(ctx context.Context, a, b string) bool {
	blocked, err := s.Blocking(ctx, a, b)
	if err != nil {
		s.log.Warn("reading blocks", "err", err)
		return true
	}
	return blocked
}

// MayRematch refuses asker the next game of a table with others when
// asker blocks one of them, or one of them blocks asker: the rematch
// would seat them together, as a challenge would.
func (s *Service) MayRematch(ctx context.Context, asker string, others []table.PairedSeat) error {
	return s.apart(ctx, asker, others, "your rematch",
		"you have blocked %s: unblock them before you ask for a rematch", "%s is not taking a rematch from you")
}

// MayJoin refuses joiner a seat at a table beside others when joiner
// blocks one of them, or one of them blocks joiner: the join would seat
// them together, as a challenge would. A guest blocks nobody, and
// nobody blocks a guest.
func (s *Service) MayJoin(ctx context.Context, joiner string, others []table.PairedSeat) error {
	return s.apart(ctx, joiner, others, "your seat",
		"you have blocked %s: unblock them before you sit down with them", "%s is not taking a game with you")
}

// apart refuses asker a game with others when a block stands between
// asker and one of them: mine (a 409, the asker's own block, which they
// may lift) or theirs (a 403) says so, with the other's name; what names
// the asker's request in a failed read.
func (s *Service) apart(ctx context.Context, asker string, others []table.PairedSeat, what, mine, theirs string) error {
	for _, o := range others {
		if blocks, err := s.Blocks(ctx, asker, o.Identity); err != nil {
			return refuse.ReadFailed(s.log, "your blocks", err)
		} else if blocks {
			// Named as blocked: a guest who signed up after sitting
			// down holds the seat under the guest's name.
			name := o.Name
			if names, err := s.names(ctx, []string{o.Identity}); err == nil && names[o.Identity] != "" {
				name = names[o.Identity]
			}
			return refuse.Conflict(mine, name)
		}
		if blocked, err := s.Blocks(ctx, o.Identity, asker); err != nil {
			return refuse.ReadFailed(s.log, what, err)
		} else if blocked {
			return refuse.Forbidden(theirs, o.Name)
		}
	}
	return nil
}

// MayChat refuses writer in the chat of a table where seated sit when
// one of them blocks writer (the refusal does not say why: blocking is
// private), or when writer is a guest and one of them takes chat from
// players with accounts only (a setting the refusal names, so that the
// guest knows what would let them write).
func (s *Service) MayChat(ctx context.Context, writer string, seated []string) error {
	if err := s.guestMayChat(ctx, writer, seated); err != nil {
		return err
	}
	rs, ok := s.st.(store.Relations)
	if !ok {
		return nil
	}
	blockers, err := rs.RelatedTo(ctx, store.Block, writer, maxFollowers)
	if err != nil {
		return refuse.ReadFailed(s.log, "the table's chat", err)
	}
	for _, b := range blockers {
		for _, id := range seated {
			if id == b.From {
				return refuse.Forbidden("this table's chat is not open to you")
			}
		}
	}
	return nil
}

// guestMayChat refuses writer, a guest, in the chat of a table where one
// of seated takes no chat from guests. A writer with an account, and
// every writer at a table whose players all take chat from guests, pass
// without their identity being read.
func (s *Service) guestMayChat(ctx context.Context, writer string, seated []string) error {
	gs, ok := s.st.(store.GuestChat)
	if !ok {
		return nil
	}
	ids := make([]string, 0, len(seated))
	for _, id := range seated {
		if id != "" && id != writer {
			ids = append(ids, id)
		}
	}
	no, err := gs.NoGuestChat(ctx, ids)
	if err != nil {
		return refuse.ReadFailed(s.log, "the table's chat", err)
	}
	if len(no) == 0 {
		return nil
	}
	id, err := s.st.Identity(ctx, writer)
	if err != nil {
		return refuse.ReadFailed(s.log, "your identity", err)
	}
	if id.Account {
		return nil
	}
	for _, sid := range ids {
		if no[sid] {
			name := "a player at this table"
			if o, err := s.st.Identity(ctx, sid); err == nil {
				name = o.Name
			}
			return refuse.Forbidden("%s takes chat from players with accounts only: sign up or sign in to write here", name)
		}
	}
	return nil
}
