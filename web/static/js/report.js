// report.js: the form that reports a player to the moderators
// (docs/protocol.md, "Reports and moderation"): a reason from the four
// the server knows and the reporter's own words. It opens from a
// player's profile and from a chat, a table's or an event's, where a
// guest is reported by a line they wrote.

import { h, fill, field, toast } from "./dom.js";
import { call, signedIn } from "./api.js";

// REASONS are the server's reasons, with the words a player reads.
export const REASONS = [
  ["chat", "Abuse in chat"],
  ["cheating", "Cheating"],
  ["name", "An offensive name"],
  ["other", "Something else"],
];

const MAX_TEXT = 500;

// A target of a report is a player's name, or a line of a chat
// ({name, player, seq, text}): a guest's name is nobody's own, so a guest
// is reported by a line they wrote, which the server finds them by. Its
// value in the form is the name, or "line:" and the line's number.
const targetValue = t => typeof t === "string" ? t : `line:${t.seq}`;
function targetText(t) {
  if (typeof t === "string") return t;
  const text = [...t.text].length > 40 ? [...t.text].slice(0, 39).join("") + "…" : t.text;
  return `${t.name}${t.player === "guest" ? " (guest)" : ""}, line ${t.seq}: ${text}`;
}

// reportForm reports one of targets (a single one is fixed; several are
// offered in a picker), about the room of about when given: {table: id}
// or {tournament: id}, whose chat a line target is of (a table is also
// what a report of a name there is about). done runs once the report
// is sent.
export function reportForm(targets, about, done) {
  const err = h("p", { class: "error", role: "alert", id: "report-error" });
  const who = targets.length === 1
    ? h("input", { id: "report-name", type: "hidden", value: targetValue(targets[0]) })
    : h("select", { id: "report-name" }, targets.map(t => h("option", { value: targetValue(t) }, targetText(t))));
  const reason = h("select", { id: "report-reason" }, h("option", { value: "" }, "Choose a reason"), REASONS.map(([v, t]) => h("option", { value: v }, t)));
  const text = h("textarea", { id: "report-text", rows: 3, maxlength: MAX_TEXT });
  const form = h("form", { class: "card stack", id: "report-form", "aria-labelledby": "report-title", novalidate: true },
    h("h2", { id: "report-title" }, targets.length === 1 ? `Report ${targetText(targets[0])}` : "Report a player"),
    targets.length === 1 ? who : field("Player", who),
    field("Reason", reason),
    field("What happened", text, `Up to ${MAX_TEXT} characters; needed for "Something else". Only the moderators read it.`),
    err,
    h("div", { class: "row" },
      h("button", { class: "primary", type: "submit", id: "report-send" }, "Send the report"),
      h("button", { type: "button", id: "report-cancel", onclick: () => form.remove() }, "Cancel")));
  form.addEventListener("submit", async e => {
    e.preventDefault();
    err.textContent = "";
    if (!reason.value) { err.textContent = "choose a reason"; reason.focus(); return; }
    const body = { reason: reason.value, text: text.value.trim() };
    const line = who.value.startsWith("line:");
    if (line) body.seq = Number(who.value.slice(5));
    else body.name = who.value;
    if (about && about.table) body.table = about.table;
    // The server takes an event only with one of its chat's lines.
    else if (about && about.tournament && line) body.tournament = about.tournament;
    const send = form.querySelector("#report-send");
    if (send.disabled) return;
    send.disabled = true;
    try {
      const r = await call("POST", "/reports", body);
      form.remove();
      toast(`Report about ${r.name} sent: the moderators will look at it`);
      if (done) done(r);
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      send.disabled = false;
    }
  });
  return form;
}

// reportButton is a button that opens the report form in slot, about
// names (targets, as reportForm takes them, or a function giving them),
// in the room of about (as reportForm takes it).
export function reportButton(names, about, slot, label) {
  return h("button", { type: "button", class: "report-open", id: "report-open", onclick: () => {
    const list = typeof names === "function" ? names() : names;
    if (!list.length) { fill(slot, h("p", { class: "muted", id: "report-none" }, "There is nobody here to report.")); return; }
    const f = reportForm(list, about);
    fill(slot, f);
    f.querySelector("#report-reason").focus();
  } }, label || "Report");
}

// chatReportButton is the report button of a chat room of kind "table"
// or "tournament" (an event's) and id, opening the form in slot; seen()
// gives what the reporter sees there: the lines shown and, at a table,
// its seats.
export function chatReportButton(kind, id, seen, slot) {
  return reportButton(() => { const s = seen(); return chatTargets(kind, s.lines, signedIn(), s.seats); }, { [kind]: id }, slot, "Report a player");
}

// chatTargets lists whom a report from a chat room of kind may name, for
// the player signed in as me: the latest 20 of lines written by others
// than me and the server, newest first. A guest's name is nobody's own,
// so a guest is reported by a line they wrote. At a table, a player with
// an account is named instead, with the table, the table's seats and
// the chat's writers first; an event's room takes a report of a line
// alone, so there everyone is reported by a line. A deleted account's
// lines name nobody to report.
export function chatTargets(kind, lines, me, seats) {
  const mine = n => String(n || "").toLowerCase() === String(me || "").toLowerCase();
  const byLine = l => l.name && l.player !== "deleted" && !(l.player === "account" && mine(l.name)) && (kind !== "table" || l.player === "guest");
  const picked = [...lines].filter(byLine).sort((a, b) => b.seq - a.seq).slice(0, 20)
    .map(l => ({ name: l.name, player: l.player, seq: l.seq, text: l.text }));
  if (kind !== "table") return picked;
  const names = new Set();
  for (const s of seats || []) if (s.player === "account" && s.name) names.add(s.name);
  for (const l of lines) if (l.player === "account" && l.name) names.add(l.name);
  return [...[...names].filter(n => !mine(n)), ...picked];
}
