package httpapi

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"strings"

	"parlour/server/auth"
	"parlour/server/mail"
	"parlour/server/refuse"
)

// emailSettings answers GET /api/v1/account/email: whether the server
// sends mail, and the account's address with what it asked for.
func (h *Handler) emailSettings(r *http.Request, p *auth.Principal) (mail.Settings, error) {
	return h.mail.Get(r.Context(), p)
}

// setEmail answers PUT /api/v1/account/email: gives (or changes) the
// address and chooses the mail; a new address is mailed a link to confirm.
func (h *Handler) setEmail(r *http.Request, p *auth.Principal, req mail.SetRequest) (mail.Settings, error) {
	if _, err := mail.ParseAddress(req.Address); err == nil && req.Password != "" {
		// The password it checks counts against the sign-in limits, as a
		// password change's does. An address refused before the password
		// is looked at costs nothing: a player fixing a typo must not be
		// told they tried to sign in too often.
		if err := h.passwordCheckAllowed(r, p); err != nil {
			return mail.Settings{}, err
		}
	}
	return h.mail.Set(r.Context(), p, req)
}

// deleteEmail answers DELETE /api/v1/account/email: forgets the address.
func (h *Handler) deleteEmail(r *http.Request, p *auth.Principal) (struct{}, error) {
	return struct{}{}, h.mail.Delete(r.Context(), p)
}

// resetOffered answers GET /api/v1/password-reset: whether this server
// mails password reset links at all, so that a page offers the form only
// where it works.
func (h *Handler) resetOffered(r *http.Request, _ *auth.Principal) (map[string]bool, error) {
	return map[string]bool{"offered": h.mail.Offered()}, nil
}

// askReset answers POST /api/v1/password-reset: a link to choose a new
// password goes to the account's confirmed address, and the answer is the
// same whether it did or not.
func (h *Handler) askReset(r *http.Request, _ *auth.Principal, req mail.ResetRequest) (map[string]string, error) {
	if err := h.mail.RequestReset(r.Context(), req.Name, h.clientAddr(r)); err != nil {
		return nil, err
	}
	return map[string]string{"status": h.mail.ResetAsked()}, nil
}

// confirmReset answers POST /api/v1/password-reset/confirm: the link's
// token and the new password, which signs the account out everywhere.
func (h *Handler) confirmReset(r *http.Request, _ *auth.Principal, req mail.ResetDone) (map[string]string, error) {
	name, err := h.mail.Reset(r.Context(), req)
	if err != nil {
		return nil, err
	}
	return map[string]string{"name": name}, nil
}

// verifyEmail answers the link of a confirmation mail,
// GET /api/v1/email/verify?token=…, with a small page.
func (h *Handler) verifyEmail(w http.ResponseWriter, r *http.Request) {
	h.emailPage(w, r, "E-mail address confirmed", h.mail.Verify, "")
}

// unsubscribeAsk answers a person's click on the unsubscribe link every
// message carries, GET /api/v1/email/unsubscribe?token=…, with a page
// that asks, its button posting the link. Opening the link changes
// nothing: the programs that guard mailboxes open every link of a
// message, and would unsubscribe its reader.
func (h *Handler) unsubscribeAsk(w http.ResponseWriter, r *http.Request) {
	h.emailPage(w, r, "Unsubscribe", func(ctx context.Context, token string) (string, error) {
		addr, err := h.mail.UnsubscribeAddress(ctx, token)
		if !strings.Contains(r.Header.Get("Accept"), "text/html") {
			return fmt.Sprintf("To have Parlour send no more mail to %s, POST this link (a mail program's unsubscribe button does).", addr), err
		}
		return fmt.Sprintf("Parlour mails %s about games. Press the button to have it send no more.", addr), err
	}, "Send no more mail")
}

// unsubscribe answers the unsubscribe link posted: the button of the
// page unsubscribeAsk shows, or a mail program's one click (RFC 8058),
// POST /api/v1/email/unsubscribe?token=…, with a small page.
func (h *Handler) unsubscribe(w http.ResponseWriter, r *http.Request) {
	h.emailPage(w, r, "Unsubscribed", h.mail.Unsubscribe, "")
}

// emailPage answers a mailed link with what f says of the token in the
// query: a small HTML page for a browser, plain text for other programs,
// with the refusal's status when f refuses. A button, when not empty, is
// the label of a button on the page that posts the link.
func (h *Handler) emailPage(w http.ResponseWriter, r *http.Request, title string, f func(context.Context, string) (string, error), button string) {
	msg, err := f(r.Context(), r.URL.Query().Get("token"))
	status := http.StatusOK
	if err != nil {
		status = refuse.Status(err)
		msg = err.Error()
		if status == http.StatusInternalServerError {
			h.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
			msg = "something went wrong on the server: try the link again later"
		}
		title = "This link did not work"
	}
	w.Header().Set("Cache-Control", "no-store")
	// The link's token goes to no other site. A page with a button keeps
	// the origin for its own post, which a browser would otherwise send
	// as "null", and the server refuse as another site's.
	if button != "" {
		w.Header().Set("Referrer-Policy", "same-origin")
	} else {
		w.Header().Set("Referrer-Policy", "no-referrer")
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintln(w, msg)
		return
	}
	form := ""
	if err == nil && button != "" {
		form = fmt.Sprintf("<form method=\"post\" action=\"%s\"><button type=\"submit\">%s</button></form>\n",
			html.EscapeString(r.URL.RequestURI()), html.EscapeString(button))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">"+
		"<title>%s · Parlour</title></head>\n<body><main><h1>%s</h1>\n<p>%s</p>\n%s<p><a href=\"/account\">Your account</a> · <a href=\"/\">Parlour</a></p></main></body></html>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(msg), form)
}
