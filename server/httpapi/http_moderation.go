package httpapi

import (
	"net/http"
	"strconv"

	"parlour/server/auth"
	"parlour/server/moderation"
	"parlour/server/refuse"
	"parlour/server/table"
)

// report serves POST /api/v1/reports. The reports that reach the queue,
// and those refused as made already, count against their identity's and
// their address's limits: a flood of the same report is a flood all the
// same.
func (h *Handler) report(r *http.Request, p *auth.Principal, req moderation.ReportRequest) (moderation.Report, error) {
	if h.moderation == nil {
		return moderation.Report{}, refuse.With(http.StatusNotImplemented, "this server keeps no reports")
	}
	addr := h.clientAddr(r)
	if !h.reportsByID.OK(p.Identity) || !h.reportsByAddr.OK(addr) {
		h.tables.RateLimited()
		return moderation.Report{}, refuse.TooMany("too many reports: wait a while before the next")
	}
	rep, err := h.moderation.Report(r.Context(), p, req)
	if err == nil || refuse.Status(err) == http.StatusConflict {
		h.reportsByID.Allow(p.Identity)
		h.reportsByAddr.Allow(addr)
	}
	return rep, err
}

// mod refuses every moderation request on a server without moderation.
func (h *Handler) mod() error {
	if h.moderation == nil {
		return refuse.With(http.StatusNotImplemented, "this server has no moderators")
	}
	return nil
}

func (h *Handler) reportQueue(r *http.Request, p *auth.Principal) ([]moderation.Report, error) {
	if err := h.mod(); err != nil {
		return nil, err
	}
	return h.moderation.Queue(r.Context(), p)
}

// closeReport serves POST /api/v1/moderation/reports/{id}/close, whose
// body, {"reason"}, may be left out.
func (h *Handler) closeReport(r *http.Request, p *auth.Principal, req moderation.ReasonRequest) (moderation.Report, error) {
	if err := h.mod(); err != nil {
		return moderation.Report{}, err
	}
	return h.moderation.CloseReport(r.Context(), p, r.PathValue("id"), req)
}

func (h *Handler) modMute(r *http.Request, p *auth.Principal, req moderation.MuteRequest) (moderation.Mute, error) {
	if err := h.mod(); err != nil {
		return moderation.Mute{}, err
	}
	return h.moderation.Mute(r.Context(), p, req)
}

func (h *Handler) modRename(r *http.Request, p *auth.Principal, req moderation.RenameRequest) (moderation.Renamed, error) {
	if err := h.mod(); err != nil {
		return moderation.Renamed{}, err
	}
	return h.moderation.Rename(r.Context(), p, req)
}

func (h *Handler) modClose(r *http.Request, p *auth.Principal, req moderation.CloseRequest) (moderation.Closed, error) {
	if err := h.mod(); err != nil {
		return moderation.Closed{}, err
	}
	return h.moderation.CloseAccount(r.Context(), p, req)
}

func (h *Handler) modReopen(r *http.Request, p *auth.Principal, req moderation.ReopenRequest) (moderation.Reopened, error) {
	if err := h.mod(); err != nil {
		return moderation.Reopened{}, err
	}
	return h.moderation.ReopenAccount(r.Context(), p, req)
}

// modTableChat serves GET /api/v1/moderation/tables/{id}/chat[?since=N]:
// a reported table's chat, both channels, for a moderator.
func (h *Handler) modTableChat(r *http.Request, p *auth.Principal) (table.ChatPage, error) {
	if err := h.mod(); err != nil {
		return table.ChatPage{}, err
	}
	since := 0
	if v := r.URL.Query().Get("since"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return table.ChatPage{}, refuse.Bad("since must be a message number (0 or more), not %q", refuse.Clip(v))
		}
		since = n
	}
	return h.moderation.TableChat(r.Context(), p, r.PathValue("id"), since)
}

func (h *Handler) modLog(r *http.Request, p *auth.Principal) ([]moderation.LogLine, error) {
	if err := h.mod(); err != nil {
		return nil, err
	}
	return h.moderation.Log(r.Context(), p)
}
