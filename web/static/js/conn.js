// conn.js: one seat's live link to a table. It keeps a WebSocket open,
// resumes from the last version it saw after any drop, and falls back to
// asking for the whole state when the socket cannot resume. Every message
// is the server's Update (docs/protocol.md): the table's public facts, the
// seat's own view and the moves since the version it had.

import { call } from "./api.js";

export class TableConn {
  // onUpdate(update) gets every update in version order; onState(s) gets
  // "connecting", "live" or "down".
  constructor(id, token, onUpdate, onState) {
    this.id = id;
    this.token = token;
    this.onUpdate = onUpdate;
    this.onState = onState;
    this.version = -1;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.timer = null;
    this.onOnline = () => { if (!this.ws) this.open(); };
    window.addEventListener("online", this.onOnline);
    this.open();
  }

  url() {
    const u = new URL(`/api/v1/tables/${encodeURIComponent(this.id)}/ws`, location.href);
    u.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (this.version >= 0) u.searchParams.set("since", String(this.version));
    if (this.token) u.searchParams.set("token", this.token);
    return u.toString();
  }

  open() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.onState("connecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.later(); return; }
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; this.onState("live"); };
    ws.onmessage = e => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.error) { this.onError && this.onError(msg.error); return; }
      this.take(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) { this.onState("down"); this.later(); }
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  take(u) {
    if (typeof u.version !== "number" || u.version < this.version) return;
    this.version = u.version;
    this.onUpdate(u);
  }

  later() {
    if (this.closed) return;
    const wait = Math.min(8000, 300 * 2 ** this.retry++) * (0.7 + Math.random() * 0.6);
    this.timer = setTimeout(() => this.open(), wait);
  }

  // refresh asks for the whole state over HTTP (after a refused move, say).
  async refresh() {
    const u = await call("GET", `/tables/${encodeURIComponent(this.id)}`, undefined, this.token);
    if (u) this.take(u);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(1000, "leaving the table"); }
  }
}
