package chat

import (
	"slices"
	"testing"
	"time"

	"parlour/store"
)

// TestChannels: a reader sees the lines after a number of the channels
// its holder lets it read, less those it muted and those of writers it
// blocks; mutes come and go; the
// lines at hand are the latest Window, numbered on.
func TestChannels(t *testing.T) {
	t.Parallel()
	c := NewChannels()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	add := func(seq int, channel, identity string) {
		c.Add(store.ChatMessage{Seq: seq, Channel: channel, Identity: identity, Name: identity, Seat: -1, Text: "hi", At: at}, map[string]string{identity: "guest"})
	}
	add(1, ChannelPlayers, "ann")
	add(2, ChannelSpectators, "cy")
	add(3, ChannelPlayers, "bob")
	players := func(ch string) bool { return ch == ChannelPlayers }
	everything := func(string) bool { return true }
	seqs := func(ls []Line) []int {
		var out []int
		for _, l := range ls {
			out = append(out, l.Seq)
		}
		return out
	}
	for _, k := range []struct {
		name     string
		since    int
		reads    func(string) bool
		identity string
		hidden   map[string]bool
		want     []int
	}{
		{"a player", 0, players, "ann", nil, []int{1, 3}},
		{"a player from 1", 1, players, "ann", nil, []int{3}},
		{"anybody once it is over", 0, everything, "", nil, []int{1, 2, 3}},
		{"nothing new", 3, everything, "", nil, nil},
		{"a reader who blocks bob", 0, everything, "dan", map[string]bool{"bob": true}, []int{1, 2}},
	} {
		got, last := c.After(k.since, k.reads, k.identity, k.hidden)
		if !slices.Equal(seqs(got), k.want) || last != 3 {
			t.Errorf("%s: After = %v, last %d; want %v, last 3", k.name, seqs(got), last, k.want)
		}
	}
	if got, _ := c.After(0, everything, "", nil); got[1].Player != "guest" || got[1].Name != "cy" || got[1].Channel != ChannelSpectators {
		t.Errorf("a line as sent: %+v", got[1])
	}
	if now := c.SetMuted("dan", ChannelSpectators, true); !slices.Equal(now, []string{ChannelSpectators}) {
		t.Errorf("muting: %v", now)
	}
	if got, _ := c.After(0, everything, "dan", nil); !slices.Equal(seqs(got), []int{1, 3}) {
		t.Errorf("a reader who muted the spectators sees %v", seqs(got))
	}
	if got, _ := c.After(0, everything, "", nil); len(got) != 3 {
		t.Errorf("another's mute hid lines from a reader: %v", seqs(got))
	}
	if now := c.SetMuted("dan", ChannelSpectators, false); len(now) != 0 || c.Muted("dan", ChannelSpectators) || len(c.MutedBy("dan")) != 0 {
		t.Errorf("unmuting: %v", now)
	}
	for seq := 4; seq <= Window+10; seq++ {
		add(seq, ChannelPlayers, "ann")
	}
	if c.Last() != Window+10 || c.Oldest() != 11 {
		t.Errorf("after %d lines: last %d, oldest at hand %d; want the latest %d at hand", Window+10, c.Last(), c.Oldest(), Window)
	}
}
