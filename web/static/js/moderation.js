// moderation.js: the moderators' page (/moderation). It shows the
// queue of reports, open ones first, with what a moderator may do about
// each (close it; mute the player's chat, rename or close the account),
// and the log of what moderators did. A guest, whose name is not their
// own, is muted by a chat line they wrote: a table's id (a report's, filled
// in) and the line's number. The server checks the role on
// every request; a page asked for by anyone else says it is not theirs.

import { h, append, fill, field, toast } from "./dom.js";
import { call } from "./api.js";
import { REASONS } from "./report.js";

const reasonText = Object.fromEntries(REASONS);
const when = t => new Date(t).toLocaleString();

// did says a line of the log in words: who did what to whom.
const did = {
  grant: n => `made ${n} a moderator`,
  revoke: n => `took the moderator role from ${n}`,
  "close-report": n => `closed a report about ${n}`,
  mute: n => `muted ${n}'s chat`,
  rename: n => `renamed ${n}`,
  close: n => `closed ${n}'s account`,
  reopen: n => `reopened ${n}'s account`,
  password: n => `gave ${n}'s account a new password`,
  "read-chat": n => `read the chat of a table where ${n} was reported`,
  refund: n => `gave back the points ${n}'s opponents lost`,
  "cancel-event": n => n ? `cancelled ${n}'s event` : "cancelled one of the server's own events",
};

// refunded says what a closing's refund gave back.
function refunded(a) {
  if (!a.refunds) return "";
  if (!a.refunds.length) return "; nobody had points to get back";
  const points = a.refunds.reduce((n, r) => n + r.points, 0);
  const players = new Set(a.refunds.map(r => r.name)).size;
  return `; ${points.toFixed(1)} rating points given back to ${players === 1 ? "1 player" : `${players} players`}`;
}

export async function moderation(main) {
  document.title = "Moderation · Parlour";
  let me;
  try { me = await call("GET", "/account"); } catch { me = null; }
  if (!me || !me.moderator) {
    append(main, h("h1", {}, "Moderation"), h("p", { id: "moderation-denied" }, "This page is for the server's moderators."));
    return;
  }
  const queue = h("section", { id: "moderation-queue", "aria-labelledby": "queue-title" });
  const actions = h("section", { class: "card stack", id: "moderation-actions", "aria-labelledby": "actions-title" });
  const log = h("section", { id: "moderation-log", "aria-labelledby": "log-title" });
  const chat = h("section", { id: "moderation-chat", "aria-labelledby": "chat-title", hidden: true });
  append(main, h("h1", {}, "Moderation"), queue, chat, actions, log);
  const refresh = async () => {
    try {
      const [reports, lines] = await Promise.all([call("GET", "/moderation/reports"), call("GET", "/moderation/log")]);
      drawQueue(queue, reports, refresh, actions, chat);
      drawLog(log, lines);
    } catch (e) { fill(queue, h("p", { class: "error" }, e.message)); }
  };
  drawActions(actions, "", refresh);
  await refresh();
}

function drawQueue(el, reports, refresh, actions, chat) {
  const open = reports.filter(r => r.status === "open").length;
  fill(el, h("h2", { id: "queue-title" }, "Reports"),
    h("p", { class: "muted", id: "queue-count" }, open === 1 ? "1 open report." : `${open} open reports.`),
    reports.length ? h("table", { class: "list", id: "reports" },
      h("thead", {}, h("tr", {}, ["Player", "Reason", "What happened", "Table or event", "By", "Made", ""].map(c => h("th", { scope: "col" }, c)))),
      h("tbody", {}, reports.map(r => h("tr", { "data-report": r.id, class: r.status },
        h("td", {}, h("a", { href: "/players/" + encodeURIComponent(r.name) }, r.name)),
        h("td", {}, reasonText[r.reason] || r.reason),
        h("td", {}, r.line ? [h("q", { class: "report-line" }, r.line.text), ` (line ${r.seq})`, r.text ? [h("br"), r.text] : ""]
          : r.seq ? [`line ${r.seq}`, r.text ? [h("br"), r.text] : ""] : r.text || "—"),
        h("td", {}, r.table ? [h("a", { href: "/t/" + r.table }, r.table), " ",
          h("button", { type: "button", class: "report-chat", "aria-label": `Read its chat, table ${r.table}`,
            onclick: () => readChat(chat, r.table, refresh) }, "Read its chat")]
          : r.tournament ? h("a", { href: "/tournaments/" + encodeURIComponent(r.tournament) }, `event ${r.tournament}`) : "—"),
        h("td", {}, r.reporter),
        h("td", {}, when(r.created)),
        h("td", {}, r.status === "open"
          ? [h("button", { type: "button", class: "report-close", onclick: async () => {
            try { await call("POST", `/moderation/reports/${r.id}/close`, {}); toast("Report closed"); refresh(); } catch (e) { toast(e.message); }
          }, "aria-label": `Close report about ${r.name}` }, "Close report"), " ",
          h("button", { type: "button", class: "report-act", onclick: () => { drawActions(actions, r.line && r.line.player === "guest" ? "" : r.name, refresh, r.table, r.seq, r.tournament); actions.scrollIntoView(); } }, `Act on ${r.name}`)]
          : `closed by ${r.closed_by}`)))))
      : h("p", { class: "muted" }, "No reports."));
}

// readChat shows the whole chat of table, both channels, while its game
// is on as after: the players' chat of a game under way is theirs alone,
// so the reading goes in the moderators' log.
async function readChat(el, table, refresh) {
  const path = `/moderation/tables/${encodeURIComponent(table)}/chat`;
  let page;
  try {
    page = await call("GET", path);
    // A long chat comes a page at a time: the next pages, up to the
    // newest line (the server logs them as one reading).
    for (let more = 0; page.more && page.chat.length && more < 20; more++) {
      const next = await call("GET", `${path}?since=${page.chat[page.chat.length - 1].seq}`);
      page = { ...next, chat: page.chat.concat(next.chat) };
    }
  } catch (e) { toast(e.message); return; }
  el.hidden = false;
  fill(el, h("h2", { id: "chat-title", tabindex: -1 }, `The chat of table ${table}`),
    h("p", { class: "muted" }, "Both channels, as written. Your reading is in the moderators' log."),
    page.chat.length ? h("ol", { class: "list", id: "chat-lines" }, page.chat.map(l => h("li", { "data-seq": l.seq },
      `${l.seq}. ${when(l.at)} ${l.channel === "players" ? "players" : "spectators"}: ${l.name}${l.player === "guest" ? " (guest)" : ""}: `, h("q", {}, l.text))))
      : h("p", { class: "muted" }, "Nothing written yet."),
    page.more ? h("p", { class: "muted" }, "The chat goes on past these lines, more than this page shows.") : "");
  el.querySelector("#chat-title").focus();
  refresh();
}

// drawActions draws the moderators' actions on the player called name,
// or on the writer of line seq of table's chat, or of event tournament's,
// when a report named one
// (a guest is muted by their line: their name is nobody's own, so a
// guest's report leaves the player's name empty, lest it name an account).
function drawActions(el, name, refresh, table, seq, tournament) {
  const err = h("p", { class: "error", role: "alert", id: "action-error" });
  const who = h("input", { id: "action-name", value: name, maxlength: 20, autocomplete: "off" });
  const reason = h("input", { id: "action-reason", maxlength: 300, autocomplete: "off" });
  const minutes = h("select", { id: "action-minutes", "aria-label": "How long" },
    [[60, "1 hour"], [1440, "1 day"], [10080, "1 week"], [43200, "30 days"], [0, "Lift a mute"]].map(([v, t]) => h("option", { value: v }, t)));
  const lineTable = h("input", { id: "action-table", value: table || "", maxlength: 16, autocomplete: "off" });
  const lineEvent = h("input", { id: "action-event", value: tournament || "", maxlength: 16, autocomplete: "off" });
  const lineSeq = h("input", { id: "action-line", type: "number", min: 1, inputmode: "numeric", autocomplete: "off", value: seq || "" });
  const newName = h("input", { id: "action-new-name", maxlength: 20, autocomplete: "off" });
  const refund = h("input", { type: "checkbox", id: "action-refund" });
  const act = (label, id, path, body, said) => h("button", { type: "button", id, onclick: async () => {
    err.textContent = "";
    try {
      const a = await call("POST", path, body());
      toast(said(a));
      refresh();
    } catch (e) { err.textContent = e.message; }
  } }, label);
  fill(el, h("h2", { id: "actions-title" }, "Act on a player"),
    field("Player", who), field("Why (goes in the log)", reason),
    h("div", { class: "row" }, minutes,
      act("Mute their chat", "action-mute", "/moderation/mutes", () => ({ name: who.value.trim(), minutes: Number(minutes.value), reason: reason.value.trim() }),
        a => a.until ? `${a.name} is muted until ${when(a.until)}` : `${a.name} may chat again`)),
    h("div", { class: "row" }, field("Or a chat line: the table", lineTable), field("or the event", lineEvent), field("Line number", lineSeq),
      act("Mute the line's writer", "action-mute-line", "/moderation/mutes",
        () => ({ ...(lineEvent.value.trim() && !lineTable.value.trim() ? { tournament: lineEvent.value.trim() } : { table: lineTable.value.trim() }),
          seq: Number(lineSeq.value), minutes: Number(minutes.value), reason: reason.value.trim() }),
        a => `${a.player === "guest" ? "The guest " : ""}${a.name} ${a.until ? `is muted until ${when(a.until)}` : "may chat again"}`)),
    h("div", { class: "row" }, field("New name", newName),
      act("Rename", "action-rename", "/moderation/rename", () => ({ name: who.value.trim(), new_name: newName.value.trim(), reason: reason.value.trim() }),
        a => `${a.old_name} is now ${a.name}`)),
    h("div", { class: "row" },
      field("Give back the rating points their opponents lost to them in the last 30 days", refund,
        "For cheating. On an account closed before, this gives back what was not given yet."),
      act("Close the account", "action-close", "/moderation/close", () => ({ name: who.value.trim(), reason: reason.value.trim(), refund: refund.checked }),
        a => `${a.name}'s account is closed${refunded(a)}`)),
    h("div", { class: "row" },
      act("Reopen the account", "action-reopen", "/moderation/reopen", () => ({ name: who.value.trim(), reason: reason.value.trim() }),
        a => a.password ? `${a.name}'s account is open again: they sign in with their password`
          : `${a.name}'s account is open again, without a password: they set one with a reset link to their e-mail address, or sign in with an SSH key`)),
    err);
}

function drawLog(el, lines) {
  fill(el, h("h2", { id: "log-title" }, "What moderators did"),
    lines.length ? h("ol", { class: "list", id: "log-lines" }, lines.map(l => h("li", {},
      `${when(l.at)}: ${l.moderator} ${(did[l.action] || (n => `${l.action} ${n}`))(l.name)}${l.detail ? ` (${l.detail})` : ""}${l.reason ? `: ${l.reason}` : ""}`)))
      : h("p", { class: "muted" }, "Nothing yet."));
}
