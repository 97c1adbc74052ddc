package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"parlour/invite"
	"parlour/store"
)

// otherTests are about the other optional interfaces: chat, challenges,
// daily puzzles, SSH keys, invite codes, analyses.
func otherTests() []test {
	return []test{
		{"ChatAndMutes", testChatAndMutes},
		{"Challenges", testChallenges},
		{"ChallengeInBatch", testChallengeInBatch},
		{"ChallengeDuplicates", testChallengeDuplicates},
		{"ChallengeCaps", testChallengeCaps},
		{"Hidden", testHidden},
		{"GuestChat", testGuestChat},
		{"Dailies", testDailies},
		{"Keys", testKeys},
		{"ConfirmKeys", testConfirmKeys},
		{"SSHGuests", testSSHGuests},
		{"HeldSeeks", testHeldSeeks},
		{"InviteCodes", testInviteCodes},
		{"Analyses", testAnalyses},
		{"Clock", testClock},
		{"Ping", testPing},
		{"Runs", testRuns},
		{"Relations", testRelations},
		{"RelationsOfDeleted", testRelationsOfDeleted},
	}
}

// testChatAndMutes: chat messages come back in order from any point, a
// message number is stored once, and mutes come and go.
func testChatAndMutes(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, text := range []string{"hello", "good luck", "«¡olé!»"} {
		m := store.ChatMessage{Table: "t1", Seq: i + 1, Channel: "players", Identity: "i1", Name: "Ann", Seat: 0, Text: text, At: at}
		if err := s.AddChat(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddChat(ctx, store.ChatMessage{Table: "t1", Seq: 4, Channel: "spectators", Identity: "i2", Name: "Bob", Seat: -1, Text: "go Ann", At: at}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddChat(ctx, store.ChatMessage{Table: "t1", Seq: 2, Channel: "players", Text: "again", At: at}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a message number stored twice: %v, want ErrConflict", err)
	}
	got, err := s.Chat(ctx, "t1", 1, 2)
	if err != nil || len(got) != 2 || got[0].Seq != 2 || got[0].Text != "good luck" || got[1].Text != "«¡olé!»" || !got[1].At.Equal(at) || got[0].Name != "Ann" || got[0].Table != "t1" || got[0].Identity != "i1" || got[0].Channel != "players" {
		t.Fatalf("Chat since 1: %+v, %v", got, err)
	}
	if n, err := s.LastChat(ctx, "t1"); n != 4 || err != nil {
		t.Errorf("LastChat = %d, %v", n, err)
	}
	if n, err := s.LastChat(ctx, "none"); n != 0 || err != nil {
		t.Errorf("LastChat of a table without chat = %d, %v", n, err)
	}
	if got, err := s.Chat(ctx, "none", 0, 10); err != nil || len(got) != 0 {
		t.Errorf("Chat of a table without chat = %+v, %v", got, err)
	}
	mu := store.Mute{Table: "t1", Identity: "i1", Channel: "spectators"}
	for range 2 { // twice: muting what is muted changes nothing
		if err := s.SetMute(ctx, mu, true); err != nil {
			t.Fatal(err)
		}
	}
	other := store.Mute{Table: "t1", Identity: "i2", Channel: "players"}
	if err := s.SetMute(ctx, other, true); err != nil {
		t.Fatal(err)
	}
	if ms, err := s.Mutes(ctx, "t1"); err != nil || len(ms) != 2 || ms[0] != mu || ms[1] != other {
		t.Fatalf("Mutes = %+v, %v", ms, err)
	}
	if err := s.SetMute(ctx, mu, false); err != nil {
		t.Fatal(err)
	}
	s = e.reopen()
	if ms, err := s.Mutes(ctx, "t1"); err != nil || len(ms) != 1 || ms[0] != other {
		t.Fatalf("Mutes after unmuting and reopening = %+v, %v", ms, err)
	}
	got, err = s.Chat(ctx, "t1", 0, 10)
	if err != nil || len(got) != 4 || got[0].Text != "hello" || got[3].Seat != -1 || got[3].Channel != "spectators" {
		t.Fatalf("Chat after reopening: %+v, %v", got, err)
	}
}

// testChallenges: a challenge is stored and read back, settles once (the
// second answer is ErrConflict and changes nothing), lists for both its
// players, and survives a restart.
func testChallenges(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Challenges](t, e.s)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := store.Challenge{ID: "c1", From: "ann", To: "bob", Game: "salvo", Rules: []byte(`{"placement":"free"}`), Rated: true, Lexicon: "en-common", Status: store.ChallengeOpen, Created: at, Expires: at.Add(10 * time.Minute)}
	if err := s.CreateChallenge(ctx, c, store.ChallengeCaps{}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateChallenge(ctx, c, store.ChallengeCaps{}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a challenge stored twice: %v, want ErrConflict", err)
	}
	plain := store.Challenge{ID: "c2", From: "cat", To: "ann", Game: "quizl", Created: at.Add(time.Second), Expires: at.Add(time.Hour)}
	if err := s.CreateChallenge(ctx, plain, store.ChallengeCaps{}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Challenge(ctx, "c1")
	if err != nil || got.From != "ann" || got.To != "bob" || got.Game != "salvo" || string(got.Rules) != `{"placement":"free"}` || !got.Rated || got.Lexicon != "en-common" || !got.Created.Equal(at) || !got.Expires.Equal(c.Expires) || got.Status != store.ChallengeOpen {
		t.Fatalf("Challenge = %+v, %v", got, err)
	}
	if got, err := s.Challenge(ctx, "c2"); err != nil || got.Rules != nil || got.Rated || got.Table != "" || got.Lexicon != "" {
		t.Fatalf("a challenge with the default rules = %+v, %v", got, err)
	}
	if _, err := s.Challenge(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a missing challenge: %v", err)
	}
	if l, err := s.OpenChallenges(ctx, "ann", 10); err != nil || len(l) != 2 || l[0].ID != "c2" || l[1].ID != "c1" {
		t.Errorf("OpenChallenges(ann), newest first = %+v, %v", l, err)
	}
	if l, err := s.OpenChallenges(ctx, "ann", 1); err != nil || len(l) != 1 || l[0].ID != "c2" {
		t.Errorf("OpenChallenges(ann, 1) = %+v, %v", l, err)
	}
	if l, err := s.OpenChallenges(ctx, "bob", 10); err != nil || len(l) != 1 {
		t.Errorf("OpenChallenges(bob) = %+v, %v", l, err)
	}
	if err := s.SettleChallenge(ctx, "c1", store.ChallengeAccepted, "t1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleChallenge(ctx, "c1", store.ChallengeDeclined, ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("settled twice: %v, want ErrConflict", err)
	}
	if err := s.SettleChallenge(ctx, "none", store.ChallengeDeclined, ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a missing challenge settled: %v, want ErrConflict", err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("after the refused second answer: %+v", got)
	}
	if l, _ := s.OpenChallenges(ctx, "bob", 10); len(l) != 0 {
		t.Errorf("an accepted challenge listed open: %+v", l)
	}
	if err := s.SettleChallenge(ctx, "c2", store.ChallengeDeclined, ""); err != nil {
		t.Fatal(err)
	}
	s = as[store.Challenges](t, e.reopen())
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("accepted, after a restart: %+v", got)
	}
	if got, _ := s.Challenge(ctx, "c2"); got.Status != store.ChallengeDeclined {
		t.Errorf("declined, after a restart: %+v", got)
	}
}

// testChallengeDuplicates: a challenge that repeats one still open and
// unexpired is ErrChallengeDuplicate and is not stored, even when many
// come at once; one that differs in any term, or repeats one answered or
// expired, is stored.
func testChallengeDuplicates(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Challenges](t, e.s)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := store.Challenge{From: "ann", To: "bob", Game: "salvo", Rules: []byte(`{"placement":"free"}`), Status: store.ChallengeOpen, Created: at, Expires: at.Add(10 * time.Minute)}
	with := func(id string, change func(*store.Challenge)) store.Challenge {
		c := base
		c.ID = id
		if change != nil {
			change(&c)
		}
		return c
	}
	if err := s.CreateChallenge(ctx, with("d1", nil), store.ChallengeCaps{}); err != nil {
		t.Fatal(err)
	}
	later := func(c *store.Challenge) { c.Created, c.Expires = at.Add(time.Minute), at.Add(11*time.Minute) }
	if err := s.CreateChallenge(ctx, with("d2", later), store.ChallengeCaps{}); !errors.Is(err, store.ErrChallengeDuplicate) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same challenge again: %v, want ErrChallengeDuplicate", err)
	}
	if _, err := s.Challenge(ctx, "d2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused duplicate was stored: %v", err)
	}
	for _, tc := range []struct {
		id     string
		change func(*store.Challenge)
	}{
		{"to-cat", func(c *store.Challenge) { c.To = "cat" }},
		{"from-cat", func(c *store.Challenge) { c.From = "cat" }},
		{"quizl", func(c *store.Challenge) { c.Game = "quizl" }},
		{"rules", func(c *store.Challenge) { c.Rules = []byte(`{"placement":"apart"}`) }},
		{"defaults", func(c *store.Challenge) { c.Rules = nil }},
		{"rated", func(c *store.Challenge) { c.Rated = true }},
		{"lexicon", func(c *store.Challenge) { c.Lexicon = "en-large" }},
	} {
		if err := s.CreateChallenge(ctx, with(tc.id, tc.change), store.ChallengeCaps{}); err != nil {
			t.Errorf("a challenge differing in %s: %v", tc.id, err)
		}
	}
	// The default rules are a term like any other.
	if err := s.CreateChallenge(ctx, with("defaults-again", func(c *store.Challenge) { c.Rules = nil }), store.ChallengeCaps{}); !errors.Is(err, store.ErrChallengeDuplicate) {
		t.Errorf("the same challenge with the default rules again: %v, want ErrChallengeDuplicate", err)
	}
	// Answered, it may be made again.
	if err := s.SettleChallenge(ctx, "d1", store.ChallengeDeclined, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateChallenge(ctx, with("d3", later), store.ChallengeCaps{}); err != nil {
		t.Errorf("the same challenge after a decline: %v", err)
	}
	// Expired (d3 at the minute it expires), it may be made again.
	if err := s.CreateChallenge(ctx, with("d4", func(c *store.Challenge) { c.Created, c.Expires = at.Add(11*time.Minute), at.Add(21*time.Minute) }), store.ChallengeCaps{}); err != nil {
		t.Errorf("the same challenge once the first expired: %v", err)
	}
	// Many at once: one is stored.
	errs := make(chan error, 8)
	for i := range cap(errs) {
		go func() {
			errs <- s.CreateChallenge(ctx, with(fmt.Sprintf("race%d", i), func(c *store.Challenge) { c.To = "dan" }), store.ChallengeCaps{})
		}()
	}
	stored := 0
	for range cap(errs) {
		switch err := <-errs; {
		case err == nil:
			stored++
		case !errors.Is(err, store.ErrChallengeDuplicate):
			t.Errorf("one of many at once: %v", err)
		}
	}
	if stored != 1 {
		t.Errorf("%d of %d identical challenges made at once were stored, want 1", stored, cap(errs))
	}
}

// testChallengeCaps: the caps on open challenges from one challenger and
// to one player hold under many made at once, expired and answered
// challenges do not count, and a refused challenge is not stored.
func testChallengeCaps(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Challenges](t, e.s)
	at := now()
	caps := store.ChallengeCaps{From: 3, To: 4}
	mk := func(id, from, to string, created time.Time) store.Challenge {
		return store.Challenge{ID: id, From: from, To: to, Game: "salvo", Rules: []byte(`{"n":"` + id + `"}`), Status: store.ChallengeOpen, Created: created, Expires: created.Add(10 * time.Minute)}
	}
	// An expired one and an answered one count for nothing.
	if err := s.CreateChallenge(ctx, mk("old", "ann", "bob", at.Add(-time.Hour)), caps); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateChallenge(ctx, mk("done", "ann", "bob", at), caps); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleChallenge(ctx, "done", store.ChallengeDeclined, ""); err != nil {
		t.Fatal(err)
	}
	// Many from Ann at once: caps.From stored.
	errs := make(chan error, 12)
	for i := range cap(errs) {
		go func() {
			errs <- s.CreateChallenge(ctx, mk(fmt.Sprintf("a%d", i), "ann", fmt.Sprintf("p%d", i), at), caps)
		}()
	}
	stored := 0
	for range cap(errs) {
		switch err := <-errs; {
		case err == nil:
			stored++
		case !errors.Is(err, store.ErrChallengesFrom):
			t.Errorf("one of many from one challenger: %v", err)
		}
	}
	if stored != caps.From {
		t.Errorf("%d challenges from one challenger at once were stored, want %d", stored, caps.From)
	}
	// Many to Cat at once, from many: caps.To stored.
	for i := range cap(errs) {
		go func() {
			errs <- s.CreateChallenge(ctx, mk(fmt.Sprintf("c%d", i), fmt.Sprintf("q%d", i), "cat", at), caps)
		}()
	}
	stored = 0
	for range cap(errs) {
		switch err := <-errs; {
		case err == nil:
			stored++
		case !errors.Is(err, store.ErrChallengesTo):
			t.Errorf("one of many to one player: %v", err)
		}
	}
	if stored != caps.To {
		t.Errorf("%d challenges to one player at once were stored, want %d", stored, caps.To)
	}
	if _, err := s.Challenge(ctx, "c11"); err == nil {
		if c, _ := s.OpenChallenges(ctx, "cat", 100); len(c) != caps.To {
			t.Errorf("Cat has %d open challenges, want %d", len(c), caps.To)
		}
	}
	// No caps: no bound.
	if err := s.CreateChallenge(ctx, mk("free", "ann", "zed", at), store.ChallengeCaps{}); err != nil {
		t.Errorf("a challenge with no caps: %v", err)
	}
}

// testChallengeInBatch: an acceptance written with the table it opens
// stands or falls with it: a challenge no longer open fails the batch
// (ErrChallengeNotOpen) and no table is stored; a table that cannot be
// stored leaves the challenge open.
func testChallengeInBatch(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Challenges](t, e.s)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, id := range []string{"c1", "c2"} {
		if err := s.CreateChallenge(ctx, store.Challenge{ID: id, From: "ann", To: "bob", Game: "salvo", Rated: i == 1, Status: store.ChallengeOpen, Created: at, Expires: at.Add(time.Hour)}, store.ChallengeCaps{}); err != nil {
			t.Fatal(err)
		}
	}
	table := func(id string) *store.Table {
		return &store.Table{ID: id, Game: "salvo", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}
	}
	accept := func(c, tb string) *store.ChallengeAnswer {
		return &store.ChallengeAnswer{ID: c, Status: store.ChallengeAccepted, Table: tb}
	}
	if err := e.s.Write(ctx, store.Batch{Challenge: accept("c1", "t1"), NewTable: table("t1")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("accepted in a batch: %+v", got)
	}
	if _, err := e.s.Table(ctx, "t1"); err != nil {
		t.Errorf("the table of the batch: %v", err)
	}
	// Accepted twice: the second batch fails whole.
	err := e.s.Write(ctx, store.Batch{Challenge: accept("c1", "t2"), NewTable: table("t2")})
	if !errors.Is(err, store.ErrChallengeNotOpen) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("accepted twice: %v, want ErrChallengeNotOpen", err)
	}
	if _, err := e.s.Table(ctx, "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused batch stored its table: %v", err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Table != "t1" {
		t.Errorf("the refused batch changed the challenge: %+v", got)
	}
	// A table that cannot be stored (its id is taken) leaves c2 open.
	if err := e.s.Write(ctx, store.Batch{Challenge: accept("c2", "t1"), NewTable: table("t1")}); err == nil {
		t.Fatal("a table stored twice")
	}
	if got, _ := s.Challenge(ctx, "c2"); got.Status != store.ChallengeOpen || got.Table != "" {
		t.Errorf("a failed batch settled its challenge: %+v", got)
	}
	if err := s.SettleChallenge(ctx, "c2", store.ChallengeDeclined, ""); err != nil {
		t.Errorf("declining the challenge the failed batch left open: %v", err)
	}
}

// testAnalyses: an analysis is filed beside its table's record: it
// outlives a restart, a second filing keeps the first, each version has
// its own, and a table that does not exist has none.
func testAnalyses(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Analyses](t, e.s)
	at := now()
	if err := e.s.CreateTable(ctx, store.Table{ID: "t1", Game: "nymphabet", Status: store.Finished, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analysis(ctx, "t1", 1); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("before any filing: %v, want ErrNotFound", err)
	}
	for _, c := range []struct {
		version int
		body    string
	}{{1, `{"version":1}`}, {1, `{"version":1,"second":true}`}, {2, `{"version":2}`}} {
		if err := s.PutAnalysis(ctx, "t1", c.version, []byte(c.body)); err != nil {
			t.Fatalf("filing %s: %v", c.body, err)
		}
	}
	if err := s.PutAnalysis(ctx, "nosuch", 1, []byte(`{}`)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("filing for a table that does not exist: %v, want ErrNotFound", err)
	}
	s = as[store.Analyses](t, e.reopen())
	for version, want := range map[int]string{1: `{"version":1}`, 2: `{"version":2}`} {
		if got, err := s.Analysis(ctx, "t1", version); err != nil || string(got) != want {
			t.Errorf("version %d after a restart: %s, %v; want %s", version, got, err, want)
		}
	}
	if _, err := s.Analysis(ctx, "nosuch", 1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a table that does not exist: %v, want ErrNotFound", err)
	}
}

// testHidden: the presence setting is stored, changed and read for many.
func testHidden(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Challenges](t, e.s)
	if err := s.SetHidden(ctx, "ann", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHidden(ctx, "bob", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHidden(ctx, "bob", false); err != nil {
		t.Fatal(err)
	}
	h, err := s.Hidden(ctx, []string{"ann", "bob", "cat"})
	if err != nil || !h["ann"] || h["bob"] || h["cat"] || len(h) != 1 {
		t.Errorf("Hidden = %v, %v", h, err)
	}
	if h, err := s.Hidden(ctx, nil); err != nil || len(h) != 0 {
		t.Errorf("Hidden(nil) = %v, %v", h, err)
	}
}

// testGuestChat: the chat setting is stored, changed and read for many,
// apart from the presence setting kept beside it.
func testGuestChat(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.GuestChat](t, e.s)
	h := as[store.Challenges](t, e.s)
	if err := h.SetHidden(ctx, "ann", true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id      string
		allowed bool
	}{{"ann", false}, {"bob", false}, {"bob", true}, {"dan", true}, {"eve", false}} {
		if err := s.SetGuestChat(ctx, c.id, c.allowed); err != nil {
			t.Fatalf("SetGuestChat(%s, %v): %v", c.id, c.allowed, err)
		}
	}
	no, err := s.NoGuestChat(ctx, []string{"ann", "bob", "cat", "dan", "eve"})
	if err != nil || !no["ann"] || !no["eve"] || len(no) != 2 {
		t.Errorf("NoGuestChat = %v, %v; want ann and eve", no, err)
	}
	if no, err := s.NoGuestChat(ctx, nil); err != nil || len(no) != 0 {
		t.Errorf("NoGuestChat(nil) = %v, %v", no, err)
	}
	// Each setting keeps to its own column.
	hidden, err := h.Hidden(ctx, []string{"ann", "eve"})
	if err != nil || !hidden["ann"] || hidden["eve"] {
		t.Errorf("Hidden after the chat settings = %v, %v; want ann alone", hidden, err)
	}
	if err := h.SetHidden(ctx, "ann", false); err != nil {
		t.Fatal(err)
	}
	if no, err := s.NoGuestChat(ctx, []string{"ann"}); err != nil || !no["ann"] {
		t.Errorf("NoGuestChat after showing ann = %v, %v; want ann still", no, err)
	}
}

// testDailies stores a day's puzzle twice (the first stays), attempts
// (one per identity and day), results (written once) and reads the
// leaderboard in its order: solved, the fewest moves and wrong answers
// together (a wrong answer costs what a call does), the fewest wrong,
// time; guests left out.
func testDailies(t *testing.T, e *env) {
	ctx := context.Background()
	s := as[store.Dailies](t, e.s)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if day, err := s.LatestDailyDay(ctx, "quizl"); err != nil || day != "" {
		t.Fatalf("latest day of none: %q %v", day, err)
	}
	p, err := s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-03-01", Setup: []byte(`{"a":1}`), Created: at})
	if err != nil || string(p.Setup) != `{"a":1}` || !p.Created.Equal(at) || p.Game != "quizl" || p.Day != "2026-03-01" {
		t.Fatalf("first puzzle: %+v %v", p, err)
	}
	if p, err = s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-03-01", Setup: []byte(`{"b":2}`), Created: at.Add(time.Hour)}); err != nil || string(p.Setup) != `{"a":1}` || !p.Created.Equal(at) {
		t.Fatalf("a second puzzle of the day replaced the first: %+v %v", p, err)
	}
	if _, err := s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-02-28", Setup: []byte(`{}`), Created: at}); err != nil {
		t.Fatal(err)
	}
	if p, err := s.DailyPuzzle(ctx, "quizl", "2026-03-01"); err != nil || string(p.Setup) != `{"a":1}` || !p.Created.Equal(at) || p.Game != "quizl" || p.Day != "2026-03-01" {
		t.Fatalf("the puzzle read: %+v %v", p, err)
	}
	for _, c := range [][2]string{{"quizl", "2026-03-02"}, {"salvo", "2026-03-01"}} {
		if _, err := s.DailyPuzzle(ctx, c[0], c[1]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the puzzle of %s %s, never put: %v, want ErrNotFound", c[0], c[1], err)
		}
	}
	if day, _ := s.LatestDailyDay(ctx, "quizl"); day != "2026-03-01" {
		t.Errorf("latest day: %q", day)
	}
	if day, _ := s.LatestDailyDay(ctx, "salvo"); day != "" {
		t.Errorf("salvo's latest day: %q", day)
	}
	type res struct {
		id      string
		account bool
		solved  bool
		moves   int
		wrong   int
		millis  int64
	}
	for i, r := range []res{
		{"ann", true, true, 5, 1, 9000},
		{"ben", true, true, 5, 0, 20000},
		{"cat", true, false, 2, 0, 1000},
		{"dan", true, true, 4, 3, 50000},
		{"gus", false, true, 1, 0, 100},
		{"eve", true, true, 5, 0, 10000},
	} {
		a := store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: r.id, Name: r.id, Account: r.account, Table: "t" + r.id, Started: at.Add(time.Duration(i) * time.Minute)}
		if err := s.StartDaily(ctx, a); err != nil {
			t.Fatal(err)
		}
		a.Finished, a.Solved, a.Moves, a.Wrong, a.Millis, a.Marks, a.Trail = true, r.solved, r.moves, r.wrong, r.millis, "#./.#", "#.x/+"
		if err := s.FinishDaily(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.StartDaily(ctx, store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: "ann", Table: "again", Started: at}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second attempt: %v", err)
	}
	open := store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: "fay", Name: "Fay", Account: true, Table: "tfay", Started: at.Add(time.Hour)}
	if err := s.StartDaily(ctx, open); err != nil {
		t.Fatal(err)
	}
	// A result is written once.
	if err := s.FinishDaily(ctx, store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: "ann", Finished: true, Moves: 1}); err != nil {
		t.Fatal(err)
	}
	s = as[store.Dailies](t, e.reopen())
	if a, err := s.DailyAttempt(ctx, "quizl", "2026-03-01", "ann"); err != nil || a.Moves != 5 || a.Wrong != 1 || a.Millis != 9000 || !a.Solved || !a.Finished || !a.Account || a.Marks != "#./.#" || a.Trail != "#.x/+" || a.Table != "tann" || a.Name != "ann" || !a.Started.Equal(at) {
		t.Errorf("Ann's attempt: %+v %v", a, err)
	}
	if _, err := s.DailyAttempt(ctx, "quizl", "2026-03-02", "ann"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an attempt never made: %v", err)
	}
	board, err := s.DailyLeaderboard(ctx, "quizl", "2026-03-01", 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, a := range board {
		order = append(order, a.Identity)
	}
	if got, want := order, []string{"eve", "ben", "ann", "dan", "cat"}; !equal(got, want) {
		t.Errorf("leaderboard %v, want %v", got, want)
	}
	if board, _ := s.DailyLeaderboard(ctx, "quizl", "2026-03-01", 2); len(board) != 2 || board[1].Identity != "ben" {
		t.Errorf("the leaderboard's first two: %+v", board)
	}
	if open, err := s.UnfinishedDailies(ctx, "quizl", "2026-03-01"); err != nil || len(open) != 1 || open[0].Identity != "fay" || open[0].Finished {
		t.Errorf("unfinished: %+v, %v", open, err)
	}
	if open, err := s.UnfinishedDailies(ctx, "quizl", "2026-02-28"); err != nil || len(open) != 0 {
		t.Errorf("unfinished of a day without attempts: %+v, %v", open, err)
	}
	if err := s.StartDaily(ctx, store.DailyAttempt{Game: "quizl", Day: "2026-02-28", Identity: "ann", Name: "ann", Table: "old", Started: at.Add(-24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.DailyHistory(ctx, "ann", "quizl", 10); len(h) != 2 || h[0].Day != "2026-03-01" || h[1].Day != "2026-02-28" {
		t.Errorf("Ann's history: %+v", h)
	}
	if h, _ := s.DailyHistory(ctx, "ann", "salvo", 10); len(h) != 0 {
		t.Errorf("Ann's salvo history: %+v", h)
	}
}

// testKeys adds, lists, finds and deletes SSH keys: a fingerprint belongs
// to one account, another account cannot delete it, and a deleted
// account's keys go with it.
func testKeys(t *testing.T, e *env) {
	ctx := context.Background()
	ks := as[store.Keys](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"ida", "idb"} {
		if _, err := ps.CreateAccount(ctx, account(id, id, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	k1 := store.SSHKey{Identity: "ida", Fingerprint: "SHA256:one", Key: "ssh-ed25519 AAAA1", Comment: "ann@laptop", Added: at}
	k2 := store.SSHKey{Identity: "ida", Fingerprint: "SHA256:two", Key: "ssh-ed25519 AAAA2", Added: at.Add(time.Second)}
	for _, k := range []store.SSHKey{k2, k1} {
		if err := ks.AddKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := ks.AddKey(ctx, store.SSHKey{Identity: "idb", Fingerprint: "SHA256:one", Key: "x", Added: at}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a fingerprint stored twice: %v, want ErrConflict", err)
	}
	list, err := ks.KeysOf(ctx, "ida")
	if err != nil || len(list) != 2 || list[0] != k1 || list[1] != k2 {
		t.Fatalf("KeysOf, oldest first: %+v, %v", list, err)
	}
	if list, err := ks.KeysOf(ctx, "idb"); err != nil || len(list) != 0 {
		t.Fatalf("KeysOf(idb): %+v, %v", list, err)
	}
	if k, err := ks.KeyByFingerprint(ctx, "SHA256:two"); err != nil || k != k2 {
		t.Fatalf("KeyByFingerprint: %+v, %v", k, err)
	}
	if _, err := ks.KeyByFingerprint(ctx, "SHA256:none"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unknown fingerprint: %v", err)
	}
	// A key's last use is kept, and read back by both lookups.
	used := at.Add(time.Hour)
	if err := ks.KeyUsed(ctx, "SHA256:two", used); err != nil {
		t.Fatal(err)
	}
	if err := ks.KeyUsed(ctx, "SHA256:none", used); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the use of an unknown key: %v, want ErrNotFound", err)
	}
	k2.Used = used
	if k, err := ks.KeyByFingerprint(ctx, "SHA256:two"); err != nil || k != k2 {
		t.Fatalf("KeyByFingerprint after a use: %+v, %v; want %+v", k, err, k2)
	}
	if list, err := ks.KeysOf(ctx, "ida"); err != nil || len(list) != 2 || list[0] != k1 || list[1] != k2 {
		t.Fatalf("KeysOf after a use: %+v, %v", list, err)
	}
	if err := ks.DeleteKey(ctx, "idb", "SHA256:one"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account deleting a key: %v", err)
	}
	if err := ks.DeleteKey(ctx, "ida", "SHA256:one"); err != nil {
		t.Fatal(err)
	}
	if list, _ := ks.KeysOf(ctx, "ida"); len(list) != 1 {
		t.Fatalf("after a delete: %+v", list)
	}
	if _, err := ps.DeleteAccount(ctx, "ida", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.KeyByFingerprint(ctx, "SHA256:two"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted account's key: %v", err)
	}
}

// testConfirmKeys confirms keys: a key is kept unconfirmed as added, its
// own account confirms it in place, its proved holder takes it from
// another account that holds it unconfirmed, and nobody takes a key
// another account confirmed.
func testConfirmKeys(t *testing.T, e *env) {
	ctx := context.Background()
	ks := as[store.Keys](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"ica", "icb"} {
		if _, err := ps.CreateAccount(ctx, account(id, id, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	own := store.SSHKey{Identity: "ica", Fingerprint: "SHA256:own", Key: "ssh-ed25519 AAAAown", Comment: "ann@laptop", Added: at}
	claimed := store.SSHKey{Identity: "ica", Fingerprint: "SHA256:claimed", Key: "ssh-ed25519 AAAAclaimed", Comment: "pasted", Added: at.Add(time.Second)}
	for _, k := range []store.SSHKey{own, claimed} {
		if err := ks.AddKey(ctx, k); err != nil {
			t.Fatal(err)
		}
		if got, err := ks.KeyByFingerprint(ctx, k.Fingerprint); err != nil || got.Confirmed {
			t.Fatalf("a key added: %+v, %v; want it unconfirmed", got, err)
		}
	}
	// Its own account confirms it: the key is otherwise as it was.
	if err := ks.ConfirmKey(ctx, store.SSHKey{Identity: "ica", Fingerprint: own.Fingerprint, Key: own.Key, Comment: "added over ssh", Added: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	own.Confirmed = true
	if got, err := ks.KeyByFingerprint(ctx, own.Fingerprint); err != nil || got != own {
		t.Fatalf("a key confirmed by its account: %+v, %v; want %+v", got, err, own)
	}
	// Nobody takes it now.
	if err := ks.ConfirmKey(ctx, store.SSHKey{Identity: "icb", Fingerprint: own.Fingerprint, Key: own.Key, Added: at}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("another account confirming a confirmed key: %v, want ErrConflict", err)
	}
	// Its proved holder takes a key another account claimed.
	taken := store.SSHKey{Identity: "icb", Fingerprint: claimed.Fingerprint, Key: claimed.Key, Comment: "added over ssh", Added: at.Add(2 * time.Hour), Confirmed: true}
	if err := ks.ConfirmKey(ctx, taken); err != nil {
		t.Fatalf("taking a key claimed by another: %v", err)
	}
	if got, err := ks.KeyByFingerprint(ctx, claimed.Fingerprint); err != nil || got != taken {
		t.Fatalf("a key taken: %+v, %v; want %+v", got, err, taken)
	}
	if list, err := ks.KeysOf(ctx, "ica"); err != nil || len(list) != 1 || list[0] != own {
		t.Fatalf("the claimant's keys: %+v, %v; want only %+v", list, err, own)
	}
	// A new key is stored confirmed.
	fresh := store.SSHKey{Identity: "icb", Fingerprint: "SHA256:fresh", Key: "ssh-ed25519 AAAAfresh", Added: at.Add(3 * time.Hour), Confirmed: true}
	if err := ks.ConfirmKey(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if list, err := ks.KeysOf(ctx, "icb"); err != nil || len(list) != 2 || list[0] != taken || list[1] != fresh {
		t.Fatalf("the holder's keys: %+v, %v", list, err)
	}
}

// testSSHGuests remembers the SSH door's guests by key: a guest put again
// under the same key takes its place, an unknown identity is refused, the
// long unused are forgotten, and a guest who made an account and deleted
// it is forgotten with the account.
func testSSHGuests(t *testing.T, e *env) {
	ctx := context.Background()
	gs := as[store.SSHGuests](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"gus", "gil", "ida"} {
		if err := e.s.CreateIdentity(ctx, *guest(id, at), store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	old := store.SSHGuest{Key: "SHA256:old", Name: "gil", Identity: "gil", Used: at.Add(-40 * 24 * time.Hour)}
	code := store.SSHGuest{Key: "code:ABCDE12345", Name: "gus", Identity: "gus", Used: at}
	for _, g := range []store.SSHGuest{
		{Key: "SHA256:one", Name: "gus", Identity: "gus", Used: at.Add(-time.Hour)},
		old, code,
	} {
		if err := gs.PutSSHGuest(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	// The same key under another name is another guest, in its place.
	one := store.SSHGuest{Key: "SHA256:one", Name: "gil", Identity: "gil", Used: at}
	if err := gs.PutSSHGuest(ctx, one); err != nil {
		t.Fatal(err)
	}
	for _, want := range []store.SSHGuest{one, old, code} {
		if g, err := gs.SSHGuest(ctx, want.Key); err != nil || g != want {
			t.Errorf("SSHGuest(%s) = %+v, %v; want %+v", want.Key, g, err, want)
		}
	}
	if _, err := gs.SSHGuest(ctx, "SHA256:none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown key: %v, want ErrNotFound", err)
	}
	if err := gs.PutSSHGuest(ctx, store.SSHGuest{Key: "SHA256:two", Name: "x", Identity: "nobody", Used: at}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a guest of an identity never stored: %v, want ErrNotFound", err)
	}
	if _, err := gs.SSHGuest(ctx, "SHA256:two"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused guest was kept: %v", err)
	}
	n, err := gs.ForgetSSHGuests(ctx, at.Add(-30*24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("forgetting the guests unused for 30 days: %d, %v; want 1", n, err)
	}
	if _, err := gs.SSHGuest(ctx, old.Key); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a guest unused for 40 days: %v, want ErrNotFound", err)
	}
	if g, err := gs.SSHGuest(ctx, one.Key); err != nil || g != one {
		t.Errorf("a guest used today after forgetting: %+v, %v", g, err)
	}

	// Ida, a guest, signs up and deletes her account: the door no longer
	// brings anyone back as her.
	ida := store.SSHGuest{Key: "SHA256:ida", Name: "ida", Identity: "ida", Used: at}
	if err := gs.PutSSHGuest(ctx, ida); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.CreateAccount(ctx, account("ida", "Ida", at), store.Credential{Hash: []byte("ida2"), Identity: "ida"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.DeleteAccount(ctx, "ida", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gs.SSHGuest(ctx, ida.Key); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the guest of a deleted account: %v, want ErrNotFound", err)
	}
}

// testHeldSeeks holds seeks over a restart: each in place of one held
// under its id, and taken back once, oldest first.
func testHeldSeeks(t *testing.T, e *env) {
	ctx := context.Background()
	hs := as[store.HeldSeeks](t, e.s)
	at := now()
	if err := hs.HoldSeeks(ctx, nil); err != nil {
		t.Fatalf("holding no seeks: %v", err)
	}
	if got, err := hs.TakeSeeks(ctx); err != nil || len(got) != 0 {
		t.Fatalf("taking from none held: %v, %v", got, err)
	}
	first := []store.HeldSeek{
		{ID: "s2", Body: []byte(`{"seek":{"id":"s2"}}`), Held: at},
		{ID: "s1", Body: []byte(`{"seek":{"id":"s1"}}`), Held: at},
	}
	if err := hs.HoldSeeks(ctx, first); err != nil {
		t.Fatal(err)
	}
	// A server that ran and stopped again holds its seeks beside the
	// first's; s2 again takes its own place.
	later := at.Add(time.Minute)
	second := []store.HeldSeek{
		{ID: "s3", Body: []byte(`{"seek":{"id":"s3","game":"«quizl»"}}`), Held: later},
		{ID: "s2", Body: []byte(`{"seek":{"id":"s2","rated":true}}`), Held: later},
	}
	if err := hs.HoldSeeks(ctx, second); err != nil {
		t.Fatal(err)
	}
	got, err := hs.TakeSeeks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.HeldSeek{first[1], second[1], second[0]}
	if len(got) != len(want) {
		t.Fatalf("TakeSeeks: %d seeks %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].ID != want[i].ID || string(got[i].Body) != string(want[i].Body) || !got[i].Held.Equal(want[i].Held) {
			t.Errorf("TakeSeeks[%d] = %s %s %v, want %s %s %v", i, got[i].ID, got[i].Body, got[i].Held, want[i].ID, want[i].Body, want[i].Held)
		}
	}
	if got, err := hs.TakeSeeks(ctx); err != nil || len(got) != 0 {
		t.Errorf("taking again: %+v, %v; want none", got, err)
	}
}

// testInviteCodes stores codes with their tables: a code held by a live
// table, or by one finished within the reserve, is refused with nothing
// written; one finished longer ago is given to the new table; codes
// survive a restart.
func testInviteCodes(t *testing.T, e *env) {
	ctx := context.Background()
	as[store.Invites](t, e.s) // skips a store without them
	at := now()
	tbl := func(id string) *store.Table {
		return &store.Table{ID: id, Game: "quizl", Status: store.Open, Created: at, Updated: at, Meta: []byte("{}")}
	}
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t1"), Code: "ABCDEF"}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); !errors.Is(err, store.ErrCodeTaken) || !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a live table's code given again: %v, want ErrCodeTaken", err)
	}
	if _, err := e.s.Table(ctx, "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused table was written: %v", err)
	}
	if err := e.s.UpdateTable(ctx, "t1", store.Finished, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); !errors.Is(err, store.ErrCodeTaken) {
		t.Fatalf("a code reserved after its table ended given again: %v", err)
	}
	e.h.Backdate(t, e.where, "t1", at.Add(-invite.Reserve-time.Hour))
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); err != nil {
		t.Fatalf("a code past its reserve: %v", err)
	}
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t3"), Code: "GHJKMN"}); err != nil {
		t.Fatal(err)
	}
	// A cancelled table's code is reserved as a finished one's is.
	if err := e.s.UpdateTable(ctx, "t3", store.Cancelled, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Write(ctx, store.Batch{NewTable: tbl("t4"), Code: "GHJKMN"}); !errors.Is(err, store.ErrCodeTaken) {
		t.Fatalf("a code reserved after its table was cancelled given again: %v", err)
	}
	is := as[store.Invites](t, e.reopen())
	for code, want := range map[string]string{"ABCDEF": "t2", "GHJKMN": "t3"} {
		if id, err := is.TableByCode(ctx, code); err != nil || id != want {
			t.Errorf("TableByCode(%s) = %q, %v; want %s", code, id, err, want)
		}
	}
	if _, err := is.TableByCode(ctx, "PQRSTU"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown code: %v, want ErrNotFound", err)
	}
	if tb, err := e.s.Table(ctx, "t1"); err != nil || tb.Status != store.Finished {
		t.Errorf("the table whose code was given again: %+v, %v", tb, err)
	}
}

// testClock: a store that keeps its own time tells it in UTC, near this
// machine's (the test's database runs here), and never backwards between
// two readings.
func testClock(t *testing.T, e *env) {
	ctx := context.Background()
	c := as[store.Clock](t, e.s)
	first, err := c.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first.Location() != time.UTC || second.Before(first) {
		t.Errorf("Now read %v then %v", first, second)
	}
	if d := time.Since(first); d < -time.Minute || d > time.Minute {
		t.Errorf("the store's clock is %v from this machine's", d)
	}
}

// testPing: an open store answers a ping; a closed one, or one asked
// with no time left, says it does not, and a ping writes nothing.
func testPing(t *testing.T, e *env) {
	ctx := context.Background()
	p := as[store.Pinger](t, e.s)
	for range 3 {
		if err := p.Ping(ctx); err != nil {
			t.Fatalf("an open store's ping: %v", err)
		}
	}
	if st, ok := e.s.(interface{ CommitStats() (int64, int64) }); ok {
		if commits, writes := st.CommitStats(); commits != 0 || writes != 0 {
			t.Errorf("three pings made %d commits of %d writes, want none", commits, writes)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.Ping(done); err == nil {
		t.Error("a ping with no time left answered nil")
	}
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Ping(ctx); err == nil {
		t.Error("a closed store's ping answered nil")
	}
}

// testRuns: the gaps between a store's runs go from where each ended, or
// was last noted running, to the start of the next, oldest first, across
// a restart; a late note never moves a run's end back; the runs of a
// cluster's nodes overlap, and one noted within the grace may be running
// still; and only the latest KeptRuns runs are kept.
func testRuns(t *testing.T, e *env) {
	ctx := context.Background()
	r := as[store.Runs](t, e.s)
	t0 := now()
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	const grace = 10 * time.Second
	start := func(s int) (int64, []store.Span) {
		t.Helper()
		id, gaps, err := r.StartRun(ctx, at(s), grace)
		if err != nil {
			t.Fatalf("starting a run at %d s: %v", s, err)
		}
		return id, gaps
	}
	note := func(id int64, s int, end bool) {
		t.Helper()
		note := r.KeepRun
		if end {
			note = r.EndRun
		}
		if err := note(ctx, id, at(s)); err != nil {
			t.Fatalf("noting run %d at %d s: %v", id, s, err)
		}
	}
	first, gaps := start(0)
	if len(gaps) != 0 {
		t.Fatalf("the first run: %v", gaps)
	}
	note(first, 10, false)
	note(first, 20, true)
	note(first, 5, false)
	r = as[store.Runs](t, e.reopen())
	second, gaps := start(60)
	want := []store.Span{{From: at(20), To: at(60)}}
	if second == first || !equal(gaps, want) {
		t.Fatalf("after a run ended at 20 s: run %d (the first %d), gaps %v; want %v", second, first, gaps, want)
	}
	// The second run stops without ending (a crash) after a note at
	// 65 s; the third starts at 200 s, after its grace.
	note(second, 65, false)
	third, gaps := start(200)
	want = append(want, store.Span{From: at(65), To: at(200)})
	if !equal(gaps, want) {
		t.Fatalf("after a crash: %v, want %v", gaps, want)
	}
	// Another node starts 8 s after the third's last note: the third is
	// taken as running still.
	note(third, 230, false)
	if _, gaps = start(238); !equal(gaps, want) {
		t.Fatalf("a node started within the grace of another's note: %v; want %v", gaps, want)
	}
	// The node started at 238 s is never noted again; the third ends at
	// 290 s. The next run finds a gap from the later of the two.
	note(third, 290, true)
	want = append(want, store.Span{From: at(290), To: at(400)})
	if _, gaps = start(400); !equal(gaps, want) {
		t.Fatalf("after two nodes' runs: %v; want %v", gaps, want)
	}
	if err := r.EndRun(ctx, 1<<40, at(300)); err != nil {
		t.Errorf("ending a run the store does not have: %v", err)
	}
	if testing.Short() {
		return
	}
	// Five runs so far; enough more to forget the first two, each 20 s
	// after the last and never noted.
	for i := range store.KeptRuns - 4 {
		start(500 + 20*i)
	}
	_, gaps = start(500 + 20*(store.KeptRuns-4))
	// A gap before each run kept but the node's, which started while
	// the third ran.
	if len(gaps) != store.KeptRuns-2 || gaps[0] != want[2] || gaps[1] != (store.Span{From: at(400), To: at(500)}) {
		t.Errorf("after %d runs: %d gaps, the first two %v", store.KeptRuns+2, len(gaps), gaps[:min(2, len(gaps))])
	}
}
