package table

import (
	"context"
	"testing"

	"parlour/server/refuse"
)

// TestChatGate: every message is put to Config.ChatGate with its
// writer's identity and its text as kept; a refusal is the answer and
// nothing is written, and the next message the gate lets by is written
// as the table's first.
func TestChatGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type asked struct{ identity, text string }
	var got []asked
	f := &fixture{t: t, dir: t.TempDir(), chatGate: func(_ context.Context, identity, text string) error {
		got = append(got, asked{identity, text})
		if text == "nope" {
			return refuse.Forbidden("not here")
		}
		return nil
	}}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	ann := f.principal(a.Token)
	if _, err := f.s.Chat(ctx, ann, a.Table, ChatRequest{Channel: ChannelPlayers, Text: "  nope "}); refuse.Status(err) != 403 || err.Error() != "not here" {
		t.Fatalf("a message the gate refuses: %v", err)
	}
	if page, err := f.s.ChatSince(ctx, ann, a.Table, 0, 10); err != nil || page.Last != 0 || len(page.Chat) != 0 {
		t.Fatalf("the chat after a refusal: %+v, %v", page, err)
	}
	line, err := f.s.Chat(ctx, ann, a.Table, ChatRequest{Channel: ChannelPlayers, Text: "hello"})
	if err != nil || line.Seq != 1 || line.Text != "hello" {
		t.Fatalf("a message the gate lets by: %+v, %v", line, err)
	}
	if len(got) != 2 || got[0] != (asked{ann.Identity, "nope"}) || got[1] != (asked{ann.Identity, "hello"}) {
		t.Errorf("the gate was asked %+v", got)
	}
}
