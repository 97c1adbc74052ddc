// Package chat is what players say to each other: the rules a message
// keeps (Clean, the Filter of words a server does not allow, the rate
// Limits per writer, address and room), the chat of a table (Channels: a
// players' and a spectators' channel, held under the table's lock and
// numbered beside its version), and standalone rooms kept in the store
// (Rooms: a tournament's). It stands below the tables, as Lichess's chat
// stands below its rounds: the tables import it, and it knows no table,
// no tournament and no door.
//
// # A domain's room
//
// A domain that wants a room of its own (a tournament) is handed one
// *Rooms by the root, made once over the store with the moderators' gate
// and the shared metric:
//
//	rooms := chat.NewRooms(chat.RoomsConfig{
//		Store: st, Filter: cfg.ChatFilter, Gate: mod.ChatGate, // mod: the *moderation.Service
//		Limited: tables.RateLimited, Logger: log,
//	})
//
// It names each room after itself and the thing it belongs to, and
// decides who writes and who moderates there in a Policy; the chat asks
// it, and knows no more of the domain:
//
//	r := rooms.Room("tournament:"+id, chat.Policy{
//		MayPost: func(ctx context.Context, w chat.Writer) error {
//			if !w.Account {
//				return refuse.Forbidden("sign in to write in a tournament's chat")
//			}
//			return nil // or: refuse unless w.Identity plays in the event
//		},
//		MayModerate: func(ctx context.Context, identity string) error {
//			if identity != event.Director {
//				return refuse.Forbidden("only the tournament's director mutes players")
//			}
//			return nil
//		},
//	})
//
// A Room is a cheap handle: make it again for each request, and after a
// restart, since the lines and mutes are in the store. Its door hands on
// the writer's identity and address and the text as sent:
//
//	line, err := r.Post(ctx, p.Identity, addr, text) // a refusal in the writer's words, nothing stored
//	page, err := r.Since(ctx, since, limit, hidden)  // anybody reads; page.Last is the next since
//	<-r.Wait(page.Last)                              // closed at the room's next line on this node
//	err = r.Mute(ctx, p.Identity, writer, true)      // the room's moderator keeps writer out
//
// A page that follows the room reads Since, waits on Wait(page.Last)
// (with its request's context beside it), and reads again. Wait hears
// the lines posted through this node's Rooms; in a cluster, a follower
// on another node learns of them the next time it reads. A room whose
// event is over may be dropped from memory with Rooms.Forget.
package chat
