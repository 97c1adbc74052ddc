package protocol

// TournamentChat is the body of POST /api/v1/tournaments/{id}/chat.
type TournamentChat struct {
	Text string `json:"text"`
}

// TournamentChatMute is the body of POST
// /api/v1/tournaments/{id}/chat/mute: the event's creator mutes the
// player called Name in its chat, or, with Muted false, lets them write
// again.
type TournamentChatMute struct {
	Name  string `json:"name"`
	Muted bool   `json:"muted"`
}
