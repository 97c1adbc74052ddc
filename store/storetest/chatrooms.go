package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"parlour/store"
)

// chatRoomTests are about store.ChatRooms: the lines and mutes of chat
// rooms that belong to no table.
func chatRoomTests() []test {
	return []test{
		{"ChatRooms", testChatRooms},
		{"ChatRoomMutes", testChatRoomMutes},
	}
}

// testChatRooms: a room's lines come back in order from any point, as
// written, a line number is stored once per room (another room numbers
// its own from 1), a room without lines is empty, and all of it
// survives a restart.
func testChatRooms(t *testing.T, e *env) {
	ctx := context.Background()
	cr := as[store.ChatRooms](t, e.s)
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	want := []store.RoomLine{
		{Room: "tournament:a", Seq: 1, Identity: "i1", Name: "Ann", Account: true, Text: "good luck all", At: at},
		{Room: "tournament:a", Seq: 2, Identity: "i2", Name: "Bob", Text: "«¡olé!»", At: at.Add(time.Second)},
		{Room: "tournament:a", Seq: 3, Identity: "i1", Name: "Ann", Account: true, Text: "gg", At: at.Add(2 * time.Second)},
	}
	for _, l := range want {
		if err := cr.AppendRoomChat(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	other := store.RoomLine{Room: "tournament:b", Seq: 1, Identity: "i3", Name: "Cy", Text: "hi", At: at}
	if err := cr.AppendRoomChat(ctx, other); err != nil {
		t.Fatalf("the first line of another room: %v", err)
	}
	dup := store.RoomLine{Room: "tournament:a", Seq: 2, Identity: "i3", Name: "Cy", Text: "again", At: at}
	if err := cr.AppendRoomChat(ctx, dup); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a line number stored twice: %v, want ErrConflict", err)
	}
	for _, c := range []struct {
		since, limit int
		want         []store.RoomLine
	}{
		{0, 10, want},
		{1, 10, want[1:]},
		{1, 1, want[1:2]},
		{3, 10, nil},
	} {
		got, err := cr.RoomChatSince(ctx, "tournament:a", c.since, c.limit)
		if err != nil || !roomLinesEqual(got, c.want) {
			t.Errorf("RoomChatSince(since %d, limit %d) = %+v, %v; want %+v", c.since, c.limit, got, err, c.want)
		}
	}
	if n, err := cr.LastRoomChat(ctx, "tournament:a"); n != 3 || err != nil {
		t.Errorf("LastRoomChat = %d, %v; want 3", n, err)
	}
	if n, err := cr.LastRoomChat(ctx, "none"); n != 0 || err != nil {
		t.Errorf("LastRoomChat of a room without lines = %d, %v", n, err)
	}
	if got, err := cr.RoomChatSince(ctx, "none", 0, 10); err != nil || len(got) != 0 {
		t.Errorf("RoomChatSince of a room without lines = %+v, %v", got, err)
	}
	cr = as[store.ChatRooms](t, e.reopen())
	if got, err := cr.RoomChatSince(ctx, "tournament:a", 0, 10); err != nil || !roomLinesEqual(got, want) {
		t.Errorf("after a restart: %+v, %v; want %+v", got, err, want)
	}
	if got, err := cr.RoomChatSince(ctx, "tournament:b", 0, 10); err != nil || !roomLinesEqual(got, []store.RoomLine{other}) {
		t.Errorf("the other room after a restart: %+v, %v", got, err)
	}
}

// testChatRoomMutes: a mute is kept once however often it is set, is
// the room's alone, lifts, and survives a restart.
func testChatRoomMutes(t *testing.T, e *env) {
	ctx := context.Background()
	cr := as[store.ChatRooms](t, e.s)
	for range 2 { // twice: muting who is muted changes nothing
		if err := cr.SetRoomMute(ctx, "tournament:a", "i2", true); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"i1", "i3"} {
		if err := cr.SetRoomMute(ctx, "tournament:a", id, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := cr.SetRoomMute(ctx, "tournament:b", "i9", true); err != nil {
		t.Fatal(err)
	}
	if got, err := cr.RoomMutes(ctx, "tournament:a"); err != nil || !slices.Equal(got, []string{"i1", "i2", "i3"}) {
		t.Fatalf("RoomMutes = %q, %v; want i1 i2 i3", got, err)
	}
	if err := cr.SetRoomMute(ctx, "tournament:a", "i1", false); err != nil {
		t.Fatal(err)
	}
	if err := cr.SetRoomMute(ctx, "tournament:a", "nobody", false); err != nil {
		t.Errorf("unmuting who is not muted: %v", err)
	}
	cr = as[store.ChatRooms](t, e.reopen())
	if got, err := cr.RoomMutes(ctx, "tournament:a"); err != nil || !slices.Equal(got, []string{"i2", "i3"}) {
		t.Errorf("RoomMutes after unmuting and a restart = %q, %v; want i2 i3", got, err)
	}
	if got, err := cr.RoomMutes(ctx, "none"); err != nil || len(got) != 0 {
		t.Errorf("RoomMutes of a room without mutes = %q, %v", got, err)
	}
}

// roomLinesEqual compares lines, their times as instants in UTC.
func roomLinesEqual(a, b []store.RoomLine) bool {
	return slices.EqualFunc(a, b, func(x, y store.RoomLine) bool {
		same := x.At.Equal(y.At) && x.At.Location() == time.UTC
		x.At, y.At = time.Time{}, time.Time{}
		return same && x == y
	})
}

// chatLines writes a line by each of two writers, the account a test
// renames (subject) and another, at table "chat-renamed" and in room
// "tournament:renamed", and a finished attempt of each at a daily puzzle,
// for checkChatNames to read after the renaming.
func chatLines(t *testing.T, e *env, subject, subjectName, other, otherName string) {
	t.Helper()
	ctx := context.Background()
	at := now()
	for i, w := range [][2]string{{subject, subjectName}, {other, otherName}} {
		if err := e.s.AddChat(ctx, store.ChatMessage{Table: "chat-renamed", Seq: i + 1, Channel: "players", Identity: w[0], Name: w[1], Seat: i, Text: "gg", At: at}); err != nil {
			t.Fatal(err)
		}
		if cr, ok := e.s.(store.ChatRooms); ok {
			if err := cr.AppendRoomChat(ctx, store.RoomLine{Room: "tournament:renamed", Seq: i + 1, Identity: w[0], Name: w[1], Account: true, Text: "gg", At: at}); err != nil {
				t.Fatal(err)
			}
		}
		if ds, ok := e.s.(store.Dailies); ok {
			a := store.DailyAttempt{Game: "quizl", Day: "2026-05-01", Identity: w[0], Name: w[1], Account: true, Table: "daily-" + w[0], Started: at.Add(time.Duration(i) * time.Second)}
			if err := ds.StartDaily(ctx, a); err != nil {
				t.Fatal(err)
			}
			a.Finished, a.Solved, a.Moves = true, true, 5
			if err := ds.FinishDaily(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// dailyNames returns the names on chatLines' daily puzzle's board, best
// first.
func dailyNames(t *testing.T, e *env) []string {
	t.Helper()
	ds, ok := e.s.(store.Dailies)
	if !ok {
		return nil
	}
	board, err := ds.DailyLeaderboard(context.Background(), "quizl", "2026-05-01", 10)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range board {
		out = append(out, a.Name)
	}
	return out
}

// checkChatNames checks that chatLines' lines now name their writers
// subjectName and otherName: a renamed or deleted account leaves no line
// under its old name, and the other writer keeps theirs.
func checkChatNames(t *testing.T, e *env, subjectName, otherName string) {
	t.Helper()
	ctx := context.Background()
	ms, err := e.s.Chat(ctx, "chat-renamed", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Name)
	}
	if want := []string{subjectName, otherName}; !equal(got, want) {
		t.Errorf("the table's chat names %q, want %q", got, want)
	}
	cr, ok := e.s.(store.ChatRooms)
	if !ok {
		return
	}
	ls, err := cr.RoomChatSince(ctx, "tournament:renamed", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, l := range ls {
		got = append(got, l.Name)
	}
	if want := []string{subjectName, otherName}; !equal(got, want) {
		t.Errorf("the room's chat names %q, want %q", got, want)
	}
}
