// lobby.js: the open tables anybody may join.

import { h, clear, append, fill, guestName, redraw } from "./dom.js";
import { call, signedIn } from "./api.js";
import { games } from "./catalog.js";
import { rulesInWords } from "./rulestext.js";
import { acceptButton, isMine, terms } from "./seek.js";
import { watchList } from "./watch.js";

export async function lobby(main) {
  document.title = "Lobby · Parlour";
  const box = h("div", { "aria-live": "polite" });
  const players = h("section", { id: "lobby-players", "aria-labelledby": "online-title" });
  const seeks = h("div", { id: "lobby-seeks", "aria-live": "polite" });
  const seekErr = h("p", { class: "error", role: "alert" });
  const live = h("section", { id: "lobby-watch", "aria-labelledby": "watch-title" });
  append(main, h("h1", {}, "Open tables"), box, h("p", {}, h("a", { href: "/" }, "Open a table of your own")),
    h("h2", {}, "Players looking for a game"), seeks, seekErr, live, players);
  let shownSeeks = "";
  // loadSeeks lists the seeks waiting, each with Accept but the player's own.
  const loadSeeks = async () => {
    let list;
    try { list = (await call("GET", "/seeks")).seeks || []; } catch (e) { fill(seeks, h("p", { class: "error" }, e.message)); return; }
    // A seek's player may be renamed while it waits (by a moderator):
    // the list is drawn again for that too.
    const now = JSON.stringify(list.map(s => [s.id, s.player, !!s.out_of_range]));
    if (now === shownSeeks) return;
    shownSeeks = now;
    const me = signedIn().toLowerCase();
    redraw(seeks, () => {
      if (!list.length) { fill(seeks, h("p", { class: "muted" }, "Nobody is looking for a game right now: the home page's Quick game buttons start a search.")); return; }
      fill(seeks, h("ul", { class: "seeks" }, list.map(s => h("li", { "data-seek": s.id },
        // A provisional rating has its question mark, as on a profile:
        // a stranger "at your level" may be new and far from it.
        h("strong", {}, s.player), s.rating ? [` (${s.rating}`, s.provisional ? [h("abbr", { class: "muted", title: "provisional: not yet sure", "aria-hidden": "true" }, "?"), h("span", { class: "sr" }, ", provisional")] : null, ")"] : "", ` wants ${terms(s)}`,
        s.rating_range ? ` against players rated ${s.rating_range.min} to ${s.rating_range.max}` : "", ". ",
        isMine(s.id) || me && s.player.toLowerCase() === me ? h("span", { class: "muted" }, "Your seek")
          // The server refuses guests rated games: no Accept to offer them.
          : s.rated && !me ? h("span", { class: "muted accounts-only" }, "For players with accounts")
            // A seek with a rating range takes no guest (who has none), and
            // the server marks one whose range leaves an account out: no
            // Accept it would refuse.
            : s.rating_range && !me ? h("span", { class: "muted out-of-range" }, "For rated players: a guest has no rating")
              : s.out_of_range ? h("span", { class: "muted out-of-range" }, "Your rating is outside its range")
              : acceptButton(s, seekErr)))));
    }, c => c.dataset.seek || "");
  };
  let shown = "";
  const options = {};
  try { for (const g of await games()) options[g.name] = g.options; } catch { /* name every rule from its key */ }
  // rulesText names the options a table changed from their defaults.
  const rulesText = t => rulesInWords(options[t.game], t.rules, true).join("; ") || "standard";
  const load = async () => {
    let tables;
    try {
      const ans = await call("GET", "/tables?status=open");
      tables = Array.isArray(ans) ? ans : (ans && ans.tables) || [];
    } catch (e) {
      append(clear(box), h("p", { class: "error" }, e.message));
      return;
    }
    // Redraw only when something changed, so that the list does not jump
    // under the pointer or the screen reader.
    const now = JSON.stringify(tables.map(t => [t.id, t.seats]));
    if (now === shown) return;
    shown = now;
    redraw(box, () => drawTables(tables));
  };
  const drawTables = tables => {
    clear(box);
    if (!tables.length) {
      append(box, h("p", { class: "muted" }, "No open tables right now."));
      return;
    }
    append(box, h("div", { class: "table-frame", tabindex: 0, "aria-label": "Open tables" }, h("table", { class: "list" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Rules"), h("th", {}, h("span", { class: "sr" }, "Join")))),
      h("tbody", {}, tables.map(t => h("tr", {},
        h("td", {}, t.title || t.game, t.rated ? h("span", { class: "rated-badge" }, "rated") : null),
        h("td", {}, (t.seats || []).map(s => s.kind === "open" ? "open seat" : s.kind === "computer" ? `the computer (${s.level})` : guestName(s)).join(", ")),
        h("td", { class: "muted" }, rulesText(t)),
        h("td", {}, t.rated && !signedIn() ? h("span", { class: "muted accounts-only" }, "For players with accounts")
          : h("a", { class: "button", href: "/t/" + t.id, "aria-label": `Join ${t.rated ? "rated " : ""}${t.title || t.game} table ${t.id}` }, "Join"))))))));
  };
  await load();
  await loadSeeks();
  const watched = await watchList(live);
  const online = await onlineList(players);
  const timer = setInterval(() => { load(); loadSeeks(); watched(); }, 5000);
  const onlineTimer = setInterval(online, 30000);
  return () => { clearInterval(timer); clearInterval(onlineTimer); };
}

// onlineList fills section with how many players are online and the
// signed-in ones who do not hide, each with a Challenge button for a
// signed-in visitor, and a form to challenge anybody by name. It answers
// the function that refreshes the list.
async function onlineList(section) {
  const me = signedIn();
  const challenge = me ? await import("./challenge.js") : null;
  const count = h("p", { id: "online-count", "aria-live": "polite" });
  const list = h("ul", { id: "online-list", class: "online" });
  const slot = h("div", { id: "lobby-challenge" });
  append(section, h("h2", { id: "online-title" }, "Players online"), count, list,
    me ? h("div", { class: "row" }, challenge.challengeButton("", slot, "Challenge somebody by name")) : h("p", { class: "muted" }, h("a", { href: "/account" }, "Sign in"), " to challenge a player."),
    slot);
  let was = "";
  const load = async () => {
    let a;
    try { a = await call("GET", "/online"); } catch (e) { count.textContent = "Cannot tell who is online: " + e.message; return; }
    const now = JSON.stringify(a);
    if (now === was) return;
    was = now;
    // Nobody counted means nobody else: this page, with no seat nor
    // account yet, is not counted itself.
    count.textContent = a.count ? `${a.count} ${a.count === 1 ? "player" : "players"} online, guests included.` : "Nobody else is online just now.";
    fill(list, a.players.length ? a.players.map(p => h("li", {},
      h("a", { href: "/players/" + encodeURIComponent(p.name) }, p.name),
      me && p.name.toLowerCase() === me.toLowerCase() ? h("span", { class: "muted" }, " (you)")
        : me ? [" ", challenge.challengeButton(p.name, slot)] : null))
      // With nobody counted the line above has said it all.
      : a.count ? h("li", { class: "muted" }, "No signed-in player shows here right now.") : null);
  };
  await load();
  return load;
}
