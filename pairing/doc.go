// Package pairing decides who plays whom in Parlour's tournaments, and
// scores and ranks what they played. It is pure: every function is a
// deterministic function of its arguments, so the same standings pair the
// same way on any node, and a tournament can store the [Round] it made
// instead of pairing a round twice. It knows nothing of games, clocks or
// storage, and imports only the standard library.
//
// # Units
//
// Points are whole numbers in the event's units, chosen so that every
// share is exact:
//
//   - A two-seat game (Swiss or arena) scores 2 for a win, 1 for a draw and
//     0 for a loss ([Win], [Draw], [Loss]). A bye counts as a win: 2.
//   - A multi-seat game scores by place in doubled units: [PlacePoints]
//     gives 6/4/2/0 at a table of four and 4/2/0 at a table of three (the
//     rules' 3/2/1/0 and 2/1/0, doubled). Players tied for places share
//     those places' points equally ([TablePoints]); in doubled units the
//     share is always a whole number (two tied for first of four take
//     (6+4)/2 = 5 each). The same rule at a table of two gives 2/1/0: a
//     two-seat game's units are the doubled units too.
//
// A front end that shows the rules' undoubled points divides by two. What
// a bye scores in a multi-seat event is the caller's choice; the mean of
// a full table's place points (3 at tables of four, 2 at three) neither
// rewards nor punishes sitting out.
//
// # Swiss
//
// [Swiss] pairs a fixed field for one round by minimum-cost perfect
// matching ([MinCostMatching]) over every possible pair: two players who
// have met cannot be paired at all, and otherwise a pair costs the square
// of their points difference (a gap of two wins costs four times a gap of
// one), then a little for the distance between their places in the
// standings, so that among equally close scores neighbours meet. When the
// field is odd, the lowest-ranked entrant without a bye for whom the rest
// can still be paired sits out; the caller scores that bye as a win. Who
// sits first at a table alternates from game to game by a hash of the
// player's ID, so that over an event each player sits first about half
// the time. [Swiss] fails, wrapping [ErrNoPairing], when no pairing
// without a rematch exists; an event must plan no more than [MaxRounds]
// rounds, and should end early if a late round still finds none.
//
// An [Entrant]'s Met lists one entry per game played against that
// opponent; a bye is not a meeting and is counted in Byes instead.
//
// # Multi-seat events
//
// [Groups] seats 3 or 4 players a table for Word Fight and Quizl: close
// scores together, few pairs that met before, every table of seats or
// seats−1 players and never fewer than 3. Its doc gives the table sizes
// for every field. Each table then scores by place ([TablePoints]).
//
// # Arenas
//
// [Arena] pairs an arena's waiting pool at once, as games end: neighbours
// in the standings meet, and two who just played each other meet again
// straight away only when nobody else can take either of them. A player
// left over waits for the next game to end. A [Streak] scores an arena
// player's games.
//
// # Standings and tie-breaks
//
// The standings order is points, then [Buchholz], then [SonnebornBerger],
// then rating, then ID ([Rank]). Before any game (and whenever a pairing
// needs an order) entrants go by points, then rating, then ID.
//
// A bye is a [Game] with one player. For the tie-breaks it is a game
// against virtual opponents as strong as the player: as many as a table of
// the event holds besides the player (one in a two-seat event; three when
// the event has tables of four), each with a total equal to the player's
// own. Against each, the bye is a win, a draw or a loss as its points stand
// above, at or below a table's mean place points (1 at two seats, 2 at
// three, 3 at four): a Swiss bye (2) is a win, a multi-seat bye of the
// mean a draw with each, and a player sitting out unpaid (0) a loss. A bye
// thus neither lifts nor sinks the player's tie-breaks much against peers
// on the same score (the idea of FIDE's rule for unplayed games,
// simplified).
//
// Buchholz is the sum, over a player's games, of each opponent's final
// total (at a multi-seat table, of every other player's total).
//
// Sonneborn-Berger is the sum, over a player's games and over each
// opponent at the table, of the opponent's total times the player's result
// against that opponent, in the units of a two-seat game: 2 when the player
// took more points from the game than that opponent (finished above them),
// 1 when as many, 0 when fewer. For a two-seat game this is the classical
// definition (a win counts the opponent's whole total, a draw half, a loss
// nothing), doubled so that it stays whole.
package pairing
