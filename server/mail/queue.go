package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/url"
	"strings"
	"time"

	"parlour/account"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// kind is what a message is about.
type kind int

const (
	kindVerify kind = iota
	kindYourMove
	kindGameEnd
	kindChallenge
	kindReset
	// kindMoved tells a confirmed address that its account took
	// another: the reset links go there from then on.
	kindMoved
)

// unsubscribeKeep is how long a message's unsubscribe link works.
const unsubscribeKeep = 365 * 24 * time.Hour

// message is one mail waiting in the queue: what it is about, not yet
// its text. The sending goroutine reads the address and the consent when
// its turn comes, so that one withdrawn meanwhile is respected.
type message struct {
	kind     kind
	identity string
	// to, name and token are a confirmation mail's: the address, the
	// account's name and the link's token.
	to, name, token string
	// note and seat are the table's, result the seat's at a game's end.
	note      table.GameNote
	seat      int
	result    store.Result
	challenge social.Challenge
}

// enqueue adds m to the queue without waiting: a full queue drops it, and
// counts it.
func (s *Service) enqueue(m message) {
	select {
	case s.queue <- m:
	default:
		s.dropped.Inc()
		s.log.Warn("mail queue full: message dropped", "identity", m.identity)
	}
}

// run sends the queue's messages one at a time, in order, until Close.
func (s *Service) run() {
	defer close(s.done)
	for {
		select {
		case <-s.ctx.Done():
			return
		case m := <-s.queue:
			s.deliver(m)
		}
	}
}

// deliver writes m and sends it, trying again after each failure, waiting
// RetryDelay, then twice as long each time, up to Attempts tries.
func (s *Service) deliver(m message) {
	to, msg, err := s.compose(s.ctx, m)
	if err != nil {
		s.log.Error("writing a mail", "identity", m.identity, "err", err)
		s.failed.Inc()
		return
	}
	if msg == nil {
		return // not asked for (any more)
	}
	wait := s.cfg.RetryDelay
	for attempt := 1; ; attempt++ {
		err := s.smtp.send(to, msg)
		if err == nil {
			s.sent.Inc()
			return
		}
		if attempt >= s.cfg.Attempts {
			s.failed.Inc()
			s.log.Error("sending a mail failed: given up", "smtp", s.smtp.String(), "attempts", attempt, "err", err)
			return
		}
		s.retried.Inc()
		s.log.Warn("sending a mail failed: trying again", "smtp", s.smtp.String(), "attempt", attempt, "wait", wait, "err", err)
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// compose returns the recipient and the text of m, or a nil text when
// its recipient did not ask for it: no address, not confirmed, or not
// this kind.
func (s *Service) compose(ctx context.Context, m message) (string, []byte, error) {
	base := strings.TrimRight(s.cfg.BaseURL(), "/")
	if m.kind == kindVerify {
		link := base + "/api/v1/email/verify?token=" + url.QueryEscape(m.token)
		body := fmt.Sprintf("Hello %s,\n\n"+
			"Someone, we hope you, asked Parlour to send mail to this address for the account %s.\n"+
			"To confirm, open this link within %s:\n\n%s\n\n"+
			"If it was not you, ignore this message: nothing else will be sent here.\n",
			m.name, m.name, hours(s.cfg.VerifyTTL), link)
		return m.to, s.write(m.to, "Confirm your e-mail address for Parlour", body, ""), nil
	}
	if m.kind == kindReset {
		link := base + "/reset?token=" + url.QueryEscape(m.token)
		body := fmt.Sprintf("Hello %s,\n\n"+
			"Someone, we hope you, asked to choose a new password for the Parlour account %s.\n"+
			"To choose one, open this link within %s:\n\n%s\n\n"+
			"Choosing it signs the account out everywhere. If it was not you, ignore this\n"+
			"message: your password stays as it is.\n",
			m.name, m.name, hours(s.cfg.ResetTTL), link)
		return m.to, s.write(m.to, "Choose a new password for Parlour", body, ""), nil
	}
	if m.kind == kindMoved {
		body := fmt.Sprintf("Hello %s,\n\n"+
			"The Parlour account %s was given another e-mail address. Parlour will send\n"+
			"nothing more here, and the links to choose a new password go to the new one.\n\n"+
			"If it was not you, someone has your password: sign in, choose a new one, and\n"+
			"give this address again on your account page: %s/account\n",
			m.name, m.name, base)
		return m.to, s.write(m.to, "Your Parlour account has a new e-mail address", body, ""), nil
	}
	e, err := s.st.EmailOf(ctx, m.identity)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	var subject, body string
	switch m.kind {
	case kindYourMove:
		if !e.YourMove || !e.Verified {
			return "", nil, nil
		}
		title, against := s.table(ctx, m.note, m.seat)
		subject = fmt.Sprintf("Your move in %s%s", title, against)
		body = fmt.Sprintf("It is your move in %s%s.\n\nPlay it here: %s/t/%s\n", title, against, base, m.note.Table)
	case kindGameEnd:
		if !e.GameEnd || !e.Verified {
			return "", nil, nil
		}
		title, against := s.table(ctx, m.note, m.seat)
		subject = fmt.Sprintf("Your game of %s%s ended: %s", title, against, resultWords(m.result))
		body = fmt.Sprintf("Your game of %s%s ended: %s.\n\nSee it here: %s/t/%s\n", title, against, resultWords(m.result), base, m.note.Table)
	case kindChallenge:
		if !e.Challenge || !e.Verified {
			return "", nil, nil
		}
		c := m.challenge
		rated := "an unrated game"
		if c.Rated {
			rated = "a rated game"
		}
		title := s.title(c.Game)
		subject = fmt.Sprintf("%s challenges you to %s", c.From, title)
		body = fmt.Sprintf("%s challenges you to %s of %s.\n\nAnswer it on Parlour, before %s: %s/\n",
			c.From, rated, title, c.Expires.UTC().Format("2 January 2006, 15:04 UTC"), base)
	default:
		return "", nil, fmt.Errorf("mail: unknown kind %d", m.kind)
	}
	token, h := account.NewToken()
	now := s.cfg.Now().UTC()
	if err := s.st.AddUnsubscribe(ctx, m.identity, h[:], now, now.Add(-unsubscribeKeep)); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", nil, nil // the address was removed meanwhile
		}
		return "", nil, err
	}
	unsub := base + "/api/v1/email/unsubscribe?token=" + url.QueryEscape(token)
	body += "\nTo receive no more mail from Parlour, open " + unsub + "\n" +
		"(or choose what you receive on your account page: " + base + "/account).\n"
	return e.Address, s.write(e.Address, subject, body, unsub), nil
}

// write returns the message, headers and body, to address to; unsub,
// when set, is the one-click unsubscribe link (RFC 8058).
func (s *Service) write(to, subject, body, unsub string) []byte {
	var b bytes.Buffer
	id := make([]byte, 12)
	rand.Read(id)
	domain := s.smtp.From[strings.LastIndexByte(s.smtp.From, '@')+1:]
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	h("From", mime.QEncoding.Encode("utf-8", "Parlour")+" <"+s.smtp.From+">")
	h("To", "<"+to+">")
	h("Subject", mime.QEncoding.Encode("utf-8", subject))
	h("Date", s.cfg.Now().Format(time.RFC1123Z))
	h("Message-ID", "<"+hex.EncodeToString(id)+"@"+domain+">")
	h("Auto-Submitted", "auto-generated")
	if unsub != "" {
		h("List-Unsubscribe", "<"+unsub+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n")))
	qp.Close()
	return b.Bytes()
}

// table returns the title of the note's game and " against NAMES" for
// the other players of seat (empty for a table of one).
func (s *Service) table(ctx context.Context, n table.GameNote, seat int) (title, against string) {
	title = s.title(n.Game)
	var names []string
	for i, id := range n.Seats {
		if i == seat {
			continue
		}
		if id == "" {
			names = append(names, "the computer")
			continue
		}
		if who, err := s.cfg.Store.Identity(ctx, id); err == nil {
			names = append(names, who.Name)
		}
	}
	switch len(names) {
	case 0:
		return title, ""
	case 1:
		return title, " against " + names[0]
	}
	return title, " against " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// title is the game's name as players know it.
func (s *Service) title(name string) string {
	if g, err := s.cfg.Games.Lookup(name); err == nil {
		return g.Title()
	}
	return name
}

// resultWords says a seat's result to its player.
func resultWords(r store.Result) string {
	switch r {
	case store.Win:
		return "you won"
	case store.Loss:
		return "you lost"
	case store.Draw:
		return "a draw"
	case store.Aborted:
		return "it was aborted"
	}
	return "it is over"
}
