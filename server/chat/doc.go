// Package chat is what players say to each other: the rules a message
// keeps (Clean, the Filter of words a server does not allow, the rate
// Limits), the chat of a table (Channels: a players' and a spectators'
// channel, held under the table's lock and numbered beside its version),
// and standalone rooms kept in the store (Rooms: a tournament's). It
// stands below the tables, as Lichess's chat stands below its rounds: the
// tables import it, and it knows no table, no tournament and no door.
package chat
