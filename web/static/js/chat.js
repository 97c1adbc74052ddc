// chat.js: what a table's screen shows around the game that is no part of
// it: the chat (players' and spectators' channels, as the server lets this
// viewer read and write them), each seat's clock, and the claim against a
// player who walked away. The server decides everything; this draws it.

import { h, fill, append, toast, guestMark, redraw } from "./dom.js";
import { call, identityToken, signedIn } from "./api.js";

const CAP = 200;
const chName = { players: "Players", spectators: "Spectators" };

// length counts what the server counts (internal/text's Check): the
// characters of the message as it is kept, an accent counted with its
// letter, joiners and variation selectors not at all, and emoji joined
// into one sign (a 👩‍💻, up to four joined) or coloured by a skin tone
// once; a flag's two letters count two.
const uncounted = /[\p{M}\u200d\p{Variation_Selector}]/u;
const skinTone = c => c.codePointAt(0) >= 0x1F3FB && c.codePointAt(0) <= 0x1F3FF;
const emoji = c => c !== "" && (/\p{So}/u.test(c) || skinTone(c));
function length(s) {
  let n = 0, joined = 0, prev = "", sign = "";
  for (const c of s.normalize("NFC").trim()) {
    if (!uncounted.test(c)) {
      if (emoji(sign) && (prev === "\u200d" && emoji(c) || skinTone(c)) && joined < 3) joined++;
      else { n++; joined = 0; }
      sign = c;
    }
    prev = c;
  }
  return n;
}

// showCount shows in count how many characters of the CAP a message may
// have input holds, as the server counts them; over the cap it reads as
// an error. The event page's chat box counts so too.
export function showCount(count, input) {
  const n = length(input.value);
  count.textContent = `${n}/${CAP}`;
  count.className = n > CAP ? "error" : "help";
}

// Chat is a table's chat panel. take(u) takes in each update's chat lines
// (dropping those already seen, by seq) and its mutes.
export class Chat {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.lines = new Map(); // seq -> line
    this.muted = [];
    this.seat = -1;
    this.over = false;
    this.sending = false; // a message is on its way
    this.log = h("ol", { class: "chat-log", id: "chat-log", "aria-label": "Chat messages", "aria-live": "polite", tabindex: 0 });
    this.channel = h("select", { id: "chat-channel", "aria-label": "Chat channel" });
    this.input = h("input", { id: "chat-text", type: "text", autocomplete: "off", "aria-describedby": "chat-count", "aria-label": "Chat message" });
    this.count = h("span", { class: "help", id: "chat-count" }, `0/${CAP}`);
    this.err = h("p", { class: "error", role: "alert", id: "chat-error" });
    this.mutes = h("div", { class: "row", id: "chat-mutes" });
    // Reports name the players at the table and the chat's writers who
    // have an account, other than oneself, and guests by their lines.
    this.seats = [];
    this.reportSlot = h("div", { id: "chat-report" });
    this.input.addEventListener("input", () => {
      const n = length(this.input.value);
      this.count.textContent = `${n}/${CAP}`;
      this.count.className = n > CAP ? "error" : "help";
    });
    this.form = h("form", { class: "stack", id: "chat-form", onsubmit: e => { e.preventDefault(); this.send(); } },
      h("div", { class: "row" }, this.channel, this.input, h("button", { type: "submit", id: "chat-send" }, "Send")), this.count, this.err);
    this.el = h("section", { class: "card", id: "chat", "aria-labelledby": "chat-title" }, h("h2", { id: "chat-title" }, "Chat"), this.log, this.form, this.mutes, this.reportSlot);
  }

  // channels the viewer may write in now (docs/protocol.md, Chat).
  writable() {
    if (this.seat >= 0) return this.over ? ["players", "spectators"] : ["players"];
    return ["spectators"];
  }

  take(u) {
    this.seat = u.seat;
    this.over = u.table.status === "finished";
    this.seats = u.table.seats || [];
    for (const l of u.chat || []) this.lines.set(l.seq, l);
    this.muted = u.muted || [];
    this.draw();
  }

  draw() {
    const want = this.writable();
    if ([...this.channel.options].map(o => o.value).join() !== want.join()) {
      const keep = this.channel.value;
      fill(this.channel, want.map(c => h("option", { value: c, selected: c === keep }, chName[c] + "' chat")));
    }
    this.channel.hidden = want.length < 2;
    const lines = this.shown().sort((a, b) => a.seq - b.seq);
    const atEnd = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    // The log is a live region: a screen reader reads out what comes
    // into it. The lines already shown stay as they are and only new
    // ones are added, or every update of the table (every move) would
    // have the whole chat read out again. It is drawn anew only when
    // what it shows changed otherwise (a channel muted or shown again).
    const had = [...this.log.querySelectorAll("li[data-seq]")];
    const same = had.length > 0 && had.length <= lines.length && had.every((li, i) => li.dataset.key === lineKey(lines[i]));
    const empty = !lines.length && !had.length && !!this.log.querySelector("li[data-empty]");
    if (same) append(this.log, lines.slice(had.length).map(lineItem));
    else if (!empty) fill(this.log, lines.length ? lines.map(lineItem) : h("li", { class: "muted", "data-empty": "1" }, "No messages yet."));
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
    // Mute toggles for every channel the viewer may read.
    const readable = this.seat >= 0 && !this.over ? ["players"] : this.over ? ["players", "spectators"] : ["spectators"];
    // A button pressed with the keyboard keeps the focus, drawn anew.
    redraw(this.mutes, () => {
      fill(this.mutes, readable.map(c => {
        const on = this.muted.includes(c);
        return h("button", { type: "button", "aria-pressed": on ? "true" : "false", id: "mute-" + c, onclick: () => this.mute(c, !on) },
          on ? `Show the ${chName[c].toLowerCase()}' chat` : `Mute the ${chName[c].toLowerCase()}' chat`);
      }));
      if (signedIn()) this.mutes.append(this.reportButton());
    });
  }

  // reportButton opens the report form about this table, naming the
  // accounts seen here and the guests by their lines shown
  // (report.js's chatReportButton, which an event's chat shares).
  reportButton() {
    if (!this.report) {
      this.report = h("span");
      import("./report.js").then(m => {
        this.report.replaceWith(this.report = m.chatReportButton("table", this.id, () => ({ lines: this.shown(), seats: this.seats }), this.reportSlot));
      }).catch(() => { /* no button without its module */ });
    }
    return this.report;
  }

  // shown lists the lines shown: those of the channels not muted.
  shown() { return [...this.lines.values()].filter(l => !this.muted.includes(l.channel)); }

  async tok() { return this.token || await identityToken(); }

  // send writes the message in the box. The box may be typed in while the
  // message is on its way: once it is written, only the message sent
  // leaves the box, and what was typed after it stays. A second Send
  // meanwhile sends nothing, so that a double press writes one message.
  async send() {
    if (this.sending) return;
    this.err.textContent = "";
    const raw = this.input.value;
    const text = raw.trim();
    if (!text) { this.err.textContent = "write a message first"; return; }
    this.sending = true;
    this.form.setAttribute("aria-busy", "true");
    try {
      const l = await call("POST", `/tables/${encodeURIComponent(this.id)}/chat`, { channel: this.channel.value || this.writable()[0], text }, await this.tok());
      this.lines.set(l.seq, l);
      const now = this.input.value;
      this.input.value = now === raw ? "" : now.startsWith(raw) ? now.slice(raw.length).trimStart() : now;
      const n = length(this.input.value);
      this.count.textContent = `${n}/${CAP}`;
      this.count.className = n > CAP ? "error" : "help";
      this.draw();
    } catch (e) { this.err.textContent = e.message; } finally { this.sending = false; this.form.removeAttribute("aria-busy"); }
  }

  async mute(channel, muted) {
    this.err.textContent = "";
    try {
      const a = await call("POST", `/tables/${encodeURIComponent(this.id)}/chat/mute`, { channel, muted }, await this.tok());
      this.muted = a.muted || [];
      if (!muted) {
        // The messages kept while muted come back: ask for them.
        const page = await call("GET", `/tables/${encodeURIComponent(this.id)}/chat?since=0&limit=500`, undefined, await this.tok());
        for (const l of page.chat) this.lines.set(l.seq, l);
      }
      this.draw();
      toast(muted ? `${chName[channel]}' chat muted` : `${chName[channel]}' chat shown`);
    } catch (e) { this.err.textContent = e.message; }
  }
}

// lineItem draws a chat line; its key says which line, as it reads.
function lineItem(l) {
  return h("li", { "data-seq": l.seq, "data-channel": l.channel, "data-key": lineKey(l) },
    h("span", { class: "muted" }, l.channel === "spectators" ? "(spectator) " : ""), h("strong", {}, l.name || "someone"), guestMark(l), ": ", l.text);
}
const lineKey = l => JSON.stringify([l.seq, l.channel, l.name || "", l.player || "", l.text]);

// Clocks shows each seat's time: the update's time_left, less, for a
// seat whose time runs (it has a deadline), the time since the update
// arrived here (a monotonic clock, so the browser's date does not
// matter). A Fischer clock shows every seat's time, running or not; a
// correspondence clock also says when the move is due, in the player's
// own time zone.
export class Clocks {
  constructor() { this.left = []; this.running = []; this.due = []; this.at = 0; this.timer = null; this.spans = []; this.seat = -1; this.lowSaid = false; }

  take(u, players) {
    const t = u.table;
    clearInterval(this.timer);
    this.timer = null;
    this.at = performance.now();
    this.seat = u.seat;
    // A Fischer clock shows while the fleets or grids are made too, each
    // player's whole time, as the server sends it.
    this.left = t.seats.map(s => ((t.status === "playing" || t.status === "setup") && typeof s.time_left === "number") ? s.time_left : null);
    this.running = t.seats.map(s => !!s.deadline);
    // Said once a turn: the next turn may run low again.
    if (!this.running[this.seat]) this.lowSaid = false;
    this.due = t.seats.map(s => t.clock && t.clock.kind === "correspondence" && s.deadline ? dueText(s.deadline) : "");
    this.spans = [];
    if (!t.clock) return;
    for (const li of players.querySelectorAll("li[data-seat]")) {
      const i = Number(li.dataset.seat);
      if (this.left[i] === null || this.left[i] === undefined) continue;
      const sp = h("span", { class: "clock" + (this.running[i] ? " running" : ""), id: "clock-" + i, role: "timer", "aria-label": `${t.seats[i].name}'s time left` });
      li.append(" ", sp);
      this.spans[i] = sp;
    }
    this.tick();
    if (this.spans.some((sp, i) => sp && this.running[i])) this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const gone = (performance.now() - this.at) / 1000;
    this.spans.forEach((sp, i) => {
      if (!sp) return;
      const s = this.running[i] ? Math.max(0, this.left[i] - gone) : this.left[i];
      sp.textContent = clockText(s) + (this.due[i] ? `, due ${this.due[i]}` : "");
      const low = this.running[i] && (s <= 10 || s <= this.left[i] * 0.1 && s < 60);
      sp.classList.toggle("low", low);
      // The red of a clock running low is no news to a player who cannot
      // see it: their own clock says so, once, in words.
      if (low && i === this.seat && !this.lowSaid && s > 0) {
        this.lowSaid = true;
        toast(`Your time is running low: ${clockText(s)} left`);
      }
    });
  }

  close() { clearInterval(this.timer); }
}

// dueText writes a deadline (RFC 3339, UTC) in the player's own time zone,
// the zone named: "Tue 3 Dec, 14:05 CET".
export function dueText(iso) {
  return new Date(iso).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
}

// clockText writes seconds as a player reads a clock: 2d 3h, 2d, 1:05:09, 0:42.
export function clockText(s) {
  s = Math.ceil(s);
  const d = Math.floor(s / 86400), hr = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
  const two = n => String(n).padStart(2, "0");
  if (d) return hr ? `${d}d ${hr}h` : `${d}d`;
  if (hr) return `${hr}:${two(m)}:${two(sec)}`;
  return `${m}:${two(sec)}`;
}

// claimSaid is what the claim box last said aloud: which table and
// absences it was about, and whether the claim could be made then.
let claimSaid = "";

// claimBox offers the claim against players to move who are away, at a
// table without a clock: it says since when they are gone and counts down
// to the moment the server will take the claim (each seat's claim_in, the
// seconds to its claim_at as the update was made), enabling the button
// then. A refusal all the same shows in place.
let claimTimer = null;
export function claimBox(id, token, u, toMove) {
  clearInterval(claimTimer);
  const t = u.table;
  if (t.status !== "playing" || u.seat < 0 || t.clock) return null;
  const away = toMove.filter(s => s !== u.seat && t.seats[s] && t.seats[s].away_since);
  if (!away.length) return null;
  const err = h("p", { class: "error", role: "alert", id: "claim-error" });
  const at = performance.now();
  // The server's time when the update was made, from claim_at and
  // claim_in, so that "3 min ago" does not depend on this machine's clock.
  const seat = s => t.seats[s];
  const left0 = s => typeof seat(s).claim_in === "number" ? seat(s).claim_in : Math.max(0, 300 - (Date.now() - Date.parse(seat(s).away_since)) / 1000);
  const serverNow = s => seat(s).claim_at ? Date.parse(seat(s).claim_at) - left0(s) * 1000 : Date.now();
  const status = h("p", { id: "claim-status" });
  const key = [id, ...away.map(s => `${s}@${seat(s).away_since}`)].join(" ");
  const button = h("button", { type: "button", id: "claim-button", disabled: true, onclick: async () => {
    err.textContent = "";
    try { await call("POST", `/tables/${encodeURIComponent(id)}/claim`, {}, token); toast("Game claimed"); } catch (e) { err.textContent = e.message; }
  } }, "Claim the game");
  const box = h("div", { class: "card", id: "claim" }, status, button, err);
  const tick = () => {
    const gone = (performance.now() - at) / 1000;
    let ready = false;
    status.textContent = away.map(s => {
      const ago = agoText((serverNow(s) - Date.parse(seat(s).away_since)) / 1000 + gone);
      const left = left0(s) - gone;
      if (left <= 0) ready = true;
      return left > 0 ? `${seat(s).name} left ${ago}; you can claim in ${clockText(left)}` : `${seat(s).name} left ${ago}; you can claim the game now, and ${seat(s).name} resigns`;
    }).join(". ") + ".";
    button.disabled = !ready;
    if (ready) clearInterval(claimTimer);
    // The box is drawn anew at every update and counts down unread: it
    // says aloud, once each, that the claim is coming and that it can be
    // made, for a player who cannot see it.
    const said = key + (ready ? " ready" : "");
    if (claimSaid !== said && claimSaid !== key + " ready") { claimSaid = said; toast(status.textContent); }
  };
  tick();
  if (button.disabled) claimTimer = setInterval(() => { if (box.isConnected) tick(); else clearInterval(claimTimer); }, 250);
  return box;
}

// agoText writes how long ago, in seconds, as a player says it: "just
// now", "1 min ago", "12 min ago", "2 h ago".
export function agoText(s) {
  const m = Math.floor(s / 60);
  if (m < 1) return "just now";
  if (m < 60) return `${m} min ago`;
  return `${Math.floor(m / 60)} h ago`;
}
