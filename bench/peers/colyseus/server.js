// server.js: a Colyseus 0.16 server whose one room plays the game
// Parlour's load test plays, reduced to what a move must check: two
// seats, each with a secret 5x5 grid of letters, take turns calling a
// square of the other's grid ("50" to "94": row 5-9, column 0-4, as the
// load test writes Quizl's squares). A move is checked against the
// room's state in memory (the mover holds a seat, it is their turn, the
// square is one, not called before), answered by an ack, and each seat
// is sent its own view from the message handler: its own grid and which
// of its squares were called, the other's grid as far as it is
// revealed, and the move just made. Nothing is stored: Colyseus keeps
// its rooms in memory only.
//
// A game ends when every square of both grids is called (50 moves); the
// room then starts the next at once with new grids, as Parlour's load
// test moves its sockets on to the next table.
//
//   node server.js [port]        (default 2567; prints "listening PORT PID")

const { Server, Room } = require("colyseus");
const { WebSocketTransport } = require("@colyseus/ws-transport");

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function randomGrid() {
  let g = "";
  for (let i = 0; i < 25; i++) g += letters[Math.floor(Math.random() * 26)];
  return g;
}

class QuizlRoom extends Room {
  maxClients = 2;

  onCreate() {
    this.autoDispose = true;
    this.seats = []; // session ids, in seat order
    this.newGame();
    this.onMessage("move", (client, m) => this.move(client, m));
    // A client asks for its view once it listens for it.
    this.onMessage("view", (client) => this.sendView(this.seats.indexOf(client.sessionId), null));
  }

  newGame() {
    this.grids = [randomGrid(), randomGrid()];
    this.called = [new Array(25).fill(false), new Array(25).fill(false)];
    this.turn = 0;
    this.version = 0;
    this.calls = 0;
  }

  // onJoin seats the client: the first to join takes seat 0.
  onJoin(client) {
    this.seats.push(client.sessionId);
    if (this.seats.length === 2) this.lock();
  }

  onLeave(client) {
    const s = this.seats.indexOf(client.sessionId);
    if (s >= 0) this.seats[s] = null;
  }

  refuse(client, id, status, error) {
    client.send("error", { id, status, error });
  }

  move(client, m) {
    const id = m && m.id;
    const seat = this.seats.indexOf(client.sessionId);
    if (seat < 0) return this.refuse(client, id, 403, "you hold no seat at this table");
    if (this.seats.length < 2) return this.refuse(client, id, 409, "the game has not started");
    if (seat !== this.turn) return this.refuse(client, id, 409, "it is not your turn");
    const mv = m && m.move;
    if (typeof mv !== "string" || !/^[5-9][0-4]$/.test(mv)) {
      return this.refuse(client, id, 422, `${mv} is not a square: a row 5-9 and a column 0-4`);
    }
    const other = 1 - seat;
    const sq = (mv.charCodeAt(0) - 53) * 5 + (mv.charCodeAt(1) - 48);
    if (this.called[other][sq]) return this.refuse(client, id, 422, `${mv} was called before`);
    this.called[other][sq] = true;
    this.calls++;
    this.version++;
    const last = { seat, move: mv, letter: this.grids[other][sq] };
    const over = this.calls === 50;
    this.turn = other;
    const status = over ? "finished" : "playing";
    client.send("ack", { id, version: this.version, result: { version: this.version, status, to_move: over ? [] : [this.turn] } });
    for (let s = 0; s < 2; s++) this.sendView(s, last, status);
    if (over) this.newGame();
  }

  // sendView sends seat s its own view.
  sendView(s, last, status = "playing") {
    const sid = s >= 0 && this.seats[s];
    const c = sid && this.clients.getById(sid);
    if (!c) return;
    const other = 1 - s;
    let target = "";
    let hits = "";
    for (let i = 0; i < 25; i++) {
      target += this.called[other][i] ? this.grids[other][i] : ".";
      hits += this.called[s][i] ? "x" : ".";
    }
    c.send("view", {
      version: this.version, seat: s, status, to_move: status === "finished" ? [] : [this.turn],
      grid: this.grids[s], hits, target, last,
    });
  }
}

const port = Number(process.argv[2] || 2567);
const gameServer = new Server({ transport: new WebSocketTransport({}), greet: false });
gameServer.define("quizl", QuizlRoom);
gameServer.listen(port, "127.0.0.1").then(() => {
  console.log(`listening ${port} ${process.pid}`);
});
