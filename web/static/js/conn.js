// conn.js: one seat's live link to a table over the WebSocket of
// docs/protocol.md. It says hello with the seat's token and the last
// version it saw, so that after any drop it resumes without losing or
// repeating anything; it sends moves and setups over the socket and
// matches each answer ("ack" or "error") to its request. It asks for view
// tails: after the first update a socket sends only the new entries of
// the view's log (a Quizl view's moves), which it puts back behind those
// it has, so that a long game's updates stay short.
//
// A link that is closed leaves its socket open for a few seconds
// (parked), after telling the server it has left the table (so that the
// seat is no longer shown there): the next link made in the page (the
// rematch, another table) moves that socket on to its own table with a
// hello naming it, rather than open a new connection. A server that
// does not move sockets on answers that hello with an error, and the
// link opens a socket of its own. A socket acts for the session cookie
// it was opened with when its hello gives no token: one parked before a
// sign-in or sign-out (here or in another tab) is closed, not moved on.

import { call, ApiError, signedIn } from "./api.js";

// parkFor is how long a left table's socket waits for the next link.
const parkFor = 5000;

// A connection can die without a word (a laptop waking from sleep, a
// router forgetting it): no close comes for many minutes, the other
// players' moves do not come meanwhile, and a move sent waits for good.
// So a link asks the server (a ping) once its socket has brought nothing
// for quietFor while the page is shown, and takes the socket for dead
// when a ping, a request or its hello (which the table's first view
// answers) has had no answer, nor anything else, in answerIn; it then
// connects again as after any drop.
const quietFor = 25000;
const answerIn = 10000;

// computerSetupIn is how long a setup the computer makes for the player
// (a deceptive Quizl grid, a fleet hard to find) is awaited instead: the
// server gives the computer up to 20 s, then hides a random one, and the
// socket answers nothing else meanwhile: taken for dead after answerIn,
// a busy server's socket would be closed under the setup it is making.
const computerSetupIn = 20000 + answerIn;

let parked = null; // { ws, timer, who }: the socket a closed link left open, and who was signed in

// park keeps ws, a live socket whose link closed, for the next link.
function park(ws) {
  const older = unpark();
  if (older) older.close(1000, "leaving the table");
  ws.onmessage = null; // the old table's updates, from here on, are no one's
  ws.onerror = null;
  ws.onclose = () => { if (parked && parked.ws === ws) { clearTimeout(parked.timer); parked = null; } };
  ws.send(JSON.stringify({ type: "leave", id: "leave" }));
  parked = { ws, who: signedIn(), timer: setTimeout(() => { if (parked && parked.ws === ws) parked = null; ws.close(1000, "leaving the table"); }, parkFor) };
}

// unpark returns the parked socket, if there is one still open, for a
// link to move on; nothing is parked afterwards.
function unpark() {
  if (!parked) return null;
  const { ws, timer, who } = parked;
  parked = null;
  clearTimeout(timer);
  if (who !== signedIn()) { ws.close(1000, "signed in or out"); return null; }
  return ws.readyState === WebSocket.OPEN ? ws : null;
}

export class TableConn {
  // onUpdate(update) gets every update in version order, its view whole
  // (the link keeps the view to put the next tail behind: don't change
  // it); onState(s) gets "connecting", "live" or "down".
  constructor(id, token, onUpdate, onState) {
    this.id = id;
    this.token = token;
    this.onUpdate = onUpdate;
    this.onState = onState;
    this.version = -1;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.live = false;
    this.timer = null;
    this.seq = 0;
    this.pending = new Map(); // message id -> {resolve, reject}
    this.onOnline = () => { if (!this.ws) this.open(); };
    window.addEventListener("online", this.onOnline);
    this.watch = null; // the current socket's watch for silence
    this.onShow = () => { if (!document.hidden && this.watch) this.watch.shown(); };
    document.addEventListener("visibilitychange", this.onShow);
    this.open();
  }

  open() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.onState("connecting");
    // A parked socket moves on to this table; until its first update
    // comes, the link is not live: a request then goes over HTTP, never
    // over a socket that may still be at the table it left.
    let ws = unpark();
    let moving = !!ws;
    if (!ws) {
      const u = new URL(`/api/v1/tables/${encodeURIComponent(this.id)}/socket`, location.href);
      u.protocol = location.protocol === "https:" ? "wss:" : "ws:";
      try { ws = new WebSocket(u); } catch { this.later(); return; }
    }
    this.ws = ws;
    let base = null; // the last view this socket sent, put together
    const watch = this.watchSilence(ws);
    const live = () => {
      this.live = true;
      this.retry = 0;
      this.onState("live");
    };
    const hello = () => {
      const hello = { type: "hello", view_tails: true };
      if (this.token) hello.token = this.token;
      if (this.version >= 0) hello.version = this.version;
      if (moving) { hello.table = this.id; hello.id = "move-on"; }
      ws.send(JSON.stringify(hello));
      watch.expect(); // the table's first view, or a refusal
      if (!moving) live();
    };
    ws.onmessage = e => {
      watch.heard();
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.id === "leave") return; // the answer to leaving the last table
      if (moving && m.type === "error" && m.id === "move-on") {
        // The server keeps this socket where it was: open one of our own.
        moving = false;
        ws.onclose = null;
        ws.close(1000, "leaving the table");
        this.ws = null;
        this.open();
        return;
      }
      const waiter = m.id && this.pending.get(m.id);
      if (waiter) this.pending.delete(m.id);
      switch (m.type) {
        case "update": {
          const u = m.update;
          // A socket moved on may still bring the last of the table it
          // left: only this table's updates count.
          if (!u || !u.table || u.table.id !== this.id) break;
          if (moving) { moving = false; live(); }
          if (u && u.view_tail) {
            // Only the log's new entries came: put them behind the old.
            for (const [k, from] of Object.entries(u.view_tail)) {
              const had = base && u.view ? base[k] || [] : null;
              if (!had || from > had.length) { ws.close(4000, "view out of step"); return; }
              u.view[k] = had.slice(0, from).concat(u.view[k] || []);
            }
            delete u.view_tail;
          }
          base = (u && u.view) || null;
          this.take(u);
          break;
        }
        case "ack": if (waiter) waiter.resolve(m); break;
        case "error":
          if (waiter) waiter.reject(new ApiError(m.status || 400, m.error));
          else if (this.onError) this.onError(m.error);
          break;
      }
    };
    ws.onclose = () => {
      watch.stop();
      if (this.ws !== ws) return;
      this.ws = null;
      this.live = false;
      // A request in flight may or may not have been played; the update
      // after the reconnection shows which, so let the caller know.
      for (const [, w] of this.pending) w.reject(new ApiError(0, "the connection dropped; check the board before trying again"));
      this.pending.clear();
      if (this.closed) return;
      this.onState("down");
      if (this.retry >= 2) this.diagnose(); else this.later();
    };
    ws.onerror = () => { /* onclose follows */ };
    if (moving) hello(); else ws.onopen = hello;
  }

  // watchSilence watches ws for a connection that died without a word
  // (see quietFor): heard() on each message, expect(within) when an
  // answer is due within that many milliseconds (answerIn unless told),
  // shown() when the page shows again, stop() once ws is closed.
  watchSilence(ws) {
    let timer = null;
    let waiting = false; // for an answer
    let due = 0; // when the answer awaited is overdue
    const dead = () => {
      timer = null;
      if (this.ws !== ws) return;
      const closed = ws.onclose;
      ws.onclose = null;
      ws.onmessage = null;
      if (closed) closed(); // the link's own handling of a drop
      ws.close(1000, "no answer");
    };
    const expect = (within = answerIn) => {
      const at = Date.now() + within;
      if (waiting && at <= due) return;
      waiting = true;
      due = at;
      clearTimeout(timer);
      timer = setTimeout(dead, within);
    };
    const ask = () => {
      timer = null;
      if (document.hidden || ws.readyState !== WebSocket.OPEN) return; // asked again when the page shows
      expect();
      ws.send(JSON.stringify({ type: "ping" }));
    };
    const w = {
      heard: () => { waiting = false; clearTimeout(timer); timer = setTimeout(ask, quietFor); },
      expect,
      shown: () => { if (!timer && !waiting) ask(); },
      stop: () => { clearTimeout(timer); timer = null; if (this.watch === w) this.watch = null; },
    };
    this.watch = w;
    timer = setTimeout(ask, quietFor);
    return w;
  }

  take(u) {
    if (!u || typeof u.version !== "number" || u.version < this.version) return;
    this.version = u.version;
    this.onUpdate(u);
  }

  // diagnose asks over HTTP why the socket keeps closing: a table that is
  // gone or a seat token the server no longer knows will not get better by
  // retrying, so onFatal hears of it; anything else retries.
  async diagnose() {
    try {
      await call("GET", `/tables/${encodeURIComponent(this.id)}`, undefined, this.token);
    } catch (e) {
      if ([401, 403, 404, 410].includes(e.status) && this.onFatal) {
        this.close();
        this.onFatal(e);
        return;
      }
    }
    this.later();
  }

  later() {
    if (this.closed) return;
    const wait = Math.min(8000, 250 * 2 ** this.retry++) * (0.7 + Math.random() * 0.6);
    this.timer = setTimeout(() => this.open(), wait);
  }

  // request sends a message over the socket and waits for its answer,
  // within answerIn unless told; with the socket down it uses the HTTP
  // API instead.
  request(msg, path, body, within = answerIn) {
    if (this.ws && this.live && this.ws.readyState === WebSocket.OPEN) {
      const id = "m" + ++this.seq;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.ws.send(JSON.stringify({ ...msg, id }));
        if (this.watch) this.watch.expect(within);
      });
    }
    return call("POST", `/tables/${encodeURIComponent(this.id)}/${path}`, body, this.token);
  }

  move(move) { return this.request({ type: "move", move }, "moves", { move }); }

  setup(body) { return this.request({ type: "setup", ...body }, "setup", body, body.auto && body.computer ? computerSetupIn : answerIn); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onShow);
    if (this.watch) this.watch.stop();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      if (this.live && ws.readyState === WebSocket.OPEN) park(ws);
      else ws.close(1000, "leaving the table");
    }
  }
}
