package protocol

import "parlour/server/refuse"

// TournamentChat is the body of POST /api/v1/tournaments/{id}/chat.
type TournamentChat struct {
	Text string `json:"text"`
}

// TournamentChatMute is the body of POST
// /api/v1/tournaments/{id}/chat/mute: the event's creator mutes the
// player called Name in its chat, or, with Muted false, lets them write
// again. Both are required (Check): a missing muted is not read as false.
type TournamentChatMute struct {
	Name  string `json:"name"`
	Muted *bool  `json:"muted"`
}

// Check refuses a mute that does not say whom, or whether.
func (m TournamentChatMute) Check() error {
	if m.Name == "" {
		return refuse.Bad(`say whom: "name" is the player's name`)
	}
	if m.Muted == nil {
		return refuse.Bad(`say "muted": true to keep them from writing, or false to let them write again`)
	}
	return nil
}
