// Package cluster makes a Parlour server one node of several that share
// one store and one bus: it decides which node runs each live table (a
// lease in the store), sends the requests about a table to the node that
// runs it, follows other nodes' tables for the doors, takes over the
// tables of a node that died, and carries what the nodes must tell each
// other about players.
//
// The table service sees a Node only as its table.Placement and
// table.LobbyPeers, the players and the social parts as their Peers, and
// the HTTP door as middleware (Forward) and a follower of remote tables
// (Follow). A server runs clustered when its configuration carries a
// Config (a bus and this node's name) and its store implements
// store.Leases; otherwise no Node exists and the server is the single
// node it always was.
//
// Ownership. A node serves a live table itself only while it holds the
// table's lease in the store. It takes the lease when the table is first
// needed and nobody holds it (a new table's creator takes it before it
// stores the table, and refuses the table if it cannot own it), renews
// every lease it holds in the background (every third of the lease's
// time), and answers on the bus for the tables it owns (bus.Own). Each
// copy of a table in memory carries the epoch it was made or read under,
// and every write of its moves and description carries that epoch, so a
// node that lost its lease (paused, cut off), or took it back after
// another node held it, cannot commit from its older copy: the store
// refuses the write with store.ErrFenced, and the node drops the copy.
// A copy of another epoch than the lease the node holds is never served:
// it is dropped and the table read again from its record. Ownership
// follows memory: a finished table evicted from memory has its lease
// released.
//
// Forwarding (relay.go). An HTTP request about a table another
// node owns (/api/v1/tables/{id}/...) is carried whole over the bus to
// the owner's node, by its name (a dead connection NATS has not yet
// found dead may still be routed a table's requests after an outage, but
// a node's own address reaches its live connection too), with the
// method, path, query, the headers that matter, body and the client's
// address; the owner serves it through its own HTTP door (Serve)
// and sends back status, headers and body. A node that hears back that the
// owner no longer owns the table asks again.
//
// Watchers. The owner publishes every change of each table it owns on
// the bus: its mark, the table's version plus the number of its last chat
// message (one more at every move, change and chat message), and nothing
// else: no view, no chat line. A socket or event stream held by another
// node subscribes, and at each change (or gap) asks the owner for its own
// seat's update since the version and chat message it has, by the
// watcher's own token: secrets, and chat lines of a channel the watcher
// may not read or has muted, leave the owner only in the update meant
// for that watcher. Moves, setups, chat and mutes sent on such a socket
// are forwarded as their HTTP requests.
//
// Takeover. A forwarded request that finds nobody answering for the
// table (bus.ErrNoResponder: the owner died) makes the node take the
// table: at once when the lease's owner is gone from the bus (no answer
// at its node's address, twice a quarter second apart: TakeLease, a new
// epoch that fences the old owner should it run on), else when the lease
// expires (bounded by the lease's time). An owner that is on the bus and
// renews the lease yet does not answer for the table is asked to answer
// again (heal), and its lease is taken a lease's time later if it still
// does not. The node then rebuilds the table from
// its record as after a restart (clocks re-armed from stored deadlines,
// computer seats resumed), owns it on the bus and serves the request. A
// background sweep takes over live tables whose lease expired even when
// nobody asks (a game between computers, a clock running out). A request
// that nobody received (ErrNoResponder) is simply made again on the new
// owner; one whose owner died after receiving it (the owner's node seen
// gone from the bus while the answer is awaited, checked every second;
// or no answer within Config.Forward, more for a move that asked to
// wait) is made again only when it was
// conditional on the table's version (a move with "version"): the new
// owner makes it if it was not made, and answers it as made ("repeated")
// if it was; otherwise it is answered 503 saying the move may or may not
// have been made: never twice. A request this node could not send (it
// is cut off from NATS) is answered 503 at once, nothing done.
//
// Presence at a table: a watcher on another node tells the owner that its
// seat is there when it starts, then every quarter of the walk-away time
// (every 20 s at most), and that it has gone when it stops; the owner
// counts the seat as connected, as it would a watcher of its own, until
// three such intervals after the latest word, so that a node that dies
// stops vouching for its watchers within a minute. A spectator's node
// says the same, and the owner counts it among those watching in the
// lobby.
//
// Players. What concerns players rather than one table goes from node to
// node by name (nodes.go): a player stream's events (a game's
// start and end, challenges) reach the player's streams on every node; a
// deleted credential (sign-out, new password, deleted account) is
// dropped from every node's cache before the request that deleted it is
// answered (and should that fail, a node trusts a cached credential a
// minute at most before asking the store again); who is online and a
// player's tables under way ("my games", a stream's opening lines, the
// check before an account is deleted) are gathered from every node, and
// so are the lobby's open tables and tables at play. A node that does
// not answer in a second is left out (a deletion of an account is
// refused 503 instead).
//
// Events (eventrelay.go, events.go). Each live event (a tournament) is
// run by the node that holds its lease, kept beside the tables' under
// store.TournamentLease (Events, the events service's tournament.Lease):
// the HTTP requests about a live event are carried to that node as a
// table's are to its owner, and the end of an event's game on another
// node is told to it (GameOver, tournament.Peers). An event nobody holds
// is served where it is asked, and taken up there by the events service.
//
// Seeks (seeks.go). One node keeps the cluster's seeks, the one that
// holds the seek book's lease (store.SeekBookLease): the first node
// asked about seeks takes it and renews it with its tables' leases. The
// HTTP requests about seeks are carried to it as a table's are to its
// owner, so that two players who seek the same game through different
// nodes pair. It asks the others which of its seekers hold a stream open
// there (a seek waits on while its player does), they tell it of games begun there (a
// player's seeks then leave the book), and a stream opening on another
// node asks it for its player's seeks. It hands them on to another node
// when it closes; should it die, they die with it, as a restart's do: the
// next request about seeks takes the book over, at once when the node is
// gone from the bus, and its players seek again.
//
// Still node-local (a later step must share them): the rate limits (per
// identity, per address, sign-ins, chat), each counted by every node on
// its own; and a stream event sent while the other nodes cannot be
// reached is lost for their streams (the client reads the challenges and
// its tables when it reconnects).
package cluster
