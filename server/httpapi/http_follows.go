package httpapi

import (
	"net/http"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/relations"
	"parlour/server/social"
	"parlour/store"
)

// relate makes or undoes (undo) p's follow or block of name, within the
// identity's budget of such changes: only those made count.
func (h *Handler) relate(r *http.Request, p *auth.Principal, kind store.Relation, name string, undo bool) (relations.Entry, error) {
	if p != nil && !h.relationsByID.OK(p.Identity) {
		h.tables.RateLimited()
		return relations.Entry{}, refuse.TooMany("too many follows and blocks made and undone: wait a minute")
	}
	var e relations.Entry
	var err error
	if undo {
		err = h.rel.Unrelate(r.Context(), p, kind, name)
	} else {
		e, err = h.rel.Relate(r.Context(), p, kind, name)
	}
	if err == nil {
		h.relationsByID.Allow(p.Identity)
	}
	return e, err
}

func (h *Handler) listFollows(r *http.Request, p *auth.Principal) (map[string][]social.Followed, error) {
	fs, err := h.social.Follows(r.Context(), p)
	return map[string][]social.Followed{"follows": fs}, err
}

func (h *Handler) follow(r *http.Request, p *auth.Principal, req relations.Request) (relations.Entry, error) {
	return h.relate(r, p, store.Follow, req.Name, false)
}

func (h *Handler) unfollow(r *http.Request, p *auth.Principal) (noContent, error) {
	_, err := h.relate(r, p, store.Follow, r.PathValue("name"), true)
	return noContent{}, err
}

func (h *Handler) listBlocks(r *http.Request, p *auth.Principal) (map[string][]relations.Entry, error) {
	bs, err := h.rel.List(r.Context(), p, store.Block)
	return map[string][]relations.Entry{"blocks": bs}, err
}

func (h *Handler) block(r *http.Request, p *auth.Principal, req relations.Request) (relations.Entry, error) {
	return h.relate(r, p, store.Block, req.Name, false)
}

func (h *Handler) unblock(r *http.Request, p *auth.Principal) (noContent, error) {
	_, err := h.relate(r, p, store.Block, r.PathValue("name"), true)
	return noContent{}, err
}
