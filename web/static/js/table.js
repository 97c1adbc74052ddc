// table.js: a table's screen: join, setup, play and the end, for every
// game. What the game looks like comes from games/<name>.js; this file
// draws what all games share: whose turn it is, the players and scores,
// the move list, the tab-title turn notice, the connection, the invite,
// and at the end the reveal, the commitment check, the record and the
// rematch.

import { h, clear, toast, download, field, fill, append, guestMark, guestName, updateText } from "./dom.js";
import { call, callText, firstLine, seatFor, rememberSeat, forgetSeat, touchRecent, myName, setMyName, identityToken, signedIn } from "./api.js";
import { TableConn } from "./conn.js";
import { go } from "./nav.js";
import { codeBox } from "./home.js";
import { load } from "./games/index.js";
import { rulesList } from "./rulestext.js";
import { controls as notifyControls, yourTurn } from "./notify.js";
import { Chat, Clocks, claimBox } from "./chat.js";
import { gameInfo, lexicons, lexiconTitle, poolTitle, forfeitWords } from "./catalog.js";

export async function table(main, id) {
  let mine = seatFor(id);
  if (!mine) {
    try {
      const u = await call("GET", `/tables/${encodeURIComponent(id)}`);
      // An account's seat taken on another device: the session cookie acts
      // for it (the socket's hello then carries no token).
      if (signedIn() && u.seat >= 0) mine = { seat: u.seat, token: null };
      // A finished game has no seat left to take: its link opens on the
      // result, as a spectator sees it.
      else if (u.table && u.table.status === "finished") mine = { seat: -1, token: null };
    } catch { /* the join screen says what is wrong */ }
  }
  if (!mine && new URLSearchParams(location.search).has("watch")) mine = { seat: -1, token: null };
  if (!mine) return joinScreen(main, id);
  return playScreen(main, id, mine);
}

// byCode opens the table an invite code stands for (/j/CODE), as if its
// link had been followed; a code that leads nowhere says why.
export async function byCode(main, raw) {
  let code = raw;
  try { code = decodeURIComponent(raw); } catch { /* the server says what is wrong with it */ }
  try {
    const ans = await call("GET", `/invites/${encodeURIComponent(code)}`);
    go(`/t/${ans.table}`, true);
  } catch (e) {
    document.title = "No such invite · Parlour";
    append(main, h("h1", {}, "No such invite"), h("p", { class: "error", id: "code-error" }, e.message), codeBox());
  }
}

// joinScreen shows a table somebody was invited to and takes a seat.
async function joinScreen(main, id) {
  let info = null;
  try {
    const u = await call("GET", `/tables/${encodeURIComponent(id)}`);
    info = u.table || u;
  } catch (e) {
    if (e.status === 404) { append(main, h("h1", {}, "No such table"), h("p", {}, e.message), h("p", {}, h("a", { href: "/" }, "Back to the games"))); return; }
    // A table hidden from this visitor (somebody's attempt at today's
    // daily puzzle) has no seat to offer nor a game to watch: say why.
    if (e.status === 403) {
      document.title = "A hidden table · Parlour";
      append(main, h("h1", {}, "You cannot see this table"), h("p", { id: "table-hidden" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the games")));
      return;
    }
    // A table closed before its game began (everyone seated left it, or
    // it waited too long) has no seat left to take: a form offering one
    // would only fail once filled in.
    if (e.status === 410) {
      document.title = "A closed table · Parlour";
      append(main, h("h1", {}, "This table is closed"), h("p", { id: "table-closed" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the games")));
      return;
    }
  }
  const title = info ? info.title : "a table";
  document.title = `Join ${title} · Parlour`;
  // The form is drawn whole: a line that arrived later would move the
  // buttons under a pointer that was on its way to one of them.
  const wordList = info && info.lexicon ? await joinLexicon(info) : null;
  const err = h("p", { class: "error", role: "alert" });
  const nameInput = h("input", { id: "join-name", value: myName(), maxlength: 24, autocomplete: "nickname", placeholder: "Guest" });
  const open = info ? info.seats.filter(s => s.kind === "open").length : 1;
  const form = h("form", { class: "card stack", onsubmit: async e => {
    e.preventDefault();
    err.textContent = "";
    const name = signedIn() ? "" : nameInput.value.trim(); // an account plays under its name
    if (!signedIn()) setMyName(name);
    try {
      const ans = await call("POST", `/tables/${encodeURIComponent(id)}/join`, name ? { name } : {}, await identityToken(name));
      rememberSeat(id, { seat: ans.seat, token: ans.token, game: info && info.game });
      go("/t/" + id, true);
    } catch (ex) { err.textContent = ex.message; }
  } },
    h("h1", {}, open ? `Join ${title}` : title),
    info ? h("p", {}, "Seats: ", info.seats.map(s => s.kind === "open" ? "open" : s.kind === "computer" ? `the computer (${s.level})` : guestName(s)).join(" · ")) : null,
    info && info.rated ? ratedNote("join-rated") : null,
    info && info.rated && !signedIn() ? h("p", { id: "join-rated-account" }, "Rated games are between accounts: ", h("a", { href: "/account" }, "sign up or sign in"), " to take this seat.") : null,
    info ? rulesList(info) : null,
    wordList,
    // A full table offers only to watch: no name to give, no seat to take.
    !open ? h("p", { id: "join-full" }, "Every seat is taken: you can watch the game.")
      : signedIn() ? h("p", {}, "You play as ", h("strong", {}, signedIn()), ".") : field("Your name", nameInput, "Shown to the other players."),
    err,
    h("div", { class: "row" },
      open ? h("button", { class: "primary", type: "submit" }, "Take a seat") : null,
      h("a", { href: `/t/${id}?watch=1`, class: open ? "button" : "button primary", id: "watch" }, open ? "Just watch" : "Watch"),
      h("a", { href: "/rules/" + (info ? info.game : ""), class: "button" }, "Read the rules")));
  append(main, form);
}

async function playScreen(main, id, mine) {
  const token = mine.token;
  const head = h("h1", {}, "Table " + id);
  const status = h("div", { class: "status", role: "status", "aria-live": "polite" });
  const turn = h("span", { class: "turn", id: "turn" });
  const conn = h("span", { class: "conn", id: "conn" }, "connecting…");
  // What the latest moves did, as the events this seat may see tell it
  // ("Ben called 72", the report on one's own salvo): in the status strip,
  // which a screen reader reads out as it changes, so that a player who
  // cannot see the boards hears each move as it happens rather than find
  // it in the move list.
  const heard = h("span", { class: "heard", id: "heard" });
  append(status, turn, heard, conn);
  const banner = h("div", { id: "banner" });
  // The stage takes the focus when what held it goes (see keepFocus).
  const stage = h("div", { id: "stage", tabindex: -1 });
  const players = h("ul", { class: "players", id: "players", "aria-label": "Players and scores" });
  const moves = h("ol", { class: "moves", id: "moves", "aria-label": "Moves", tabindex: 0 }); // it scrolls: the keyboard may too
  const tools = h("div", { class: "stack", id: "tools" });
  const side = h("aside", { class: "stack", "aria-label": "Table" },
    h("section", { class: "card" }, h("h2", {}, "Players"), players),
    h("section", { class: "card" }, h("h2", {}, "Moves"), moves),
    h("section", { class: "card" }, tools));
  const chat = new Chat(id, token);
  const clocks = new Clocks();
  append(side, chat.el);
  const guideSlot = h("div", { id: "guide-slot" });
  append(main, head, status, guideSlot, banner, h("div", { class: "layout" }, stage, side));

  let mod = null, board = null, setupDrawn = false, last = null, lastMine = null;
  let ended = false; // the update drawn last ended the game (see keepFocus)
  let dayTimer = null; // draws a daily attempt again as its day ends
  let stageHad = false; // the stage held the keyboard before the update drawn now
  let words = false; // the game judges words against the table's word list
  const notifyBox = notifyControls(); // kept across redraws of the side panel
  const seen = new Set(); // versions of the moves already taken in
  let lastMove = null; // the latest move taken in, with the events this seat saw
  const notes = []; // what the clock and claims did, in words, for the move list
  const forfeited = new Map(); // seat → why the server played for it: "timeout" or "claim"
  let rating = null; // the player's rating change, once the game's end has settled it
  let ratingAsked = false;
  let moving = null; // {move, answer}: the move on its way, and its answer
  const ctx = {
    table: id,
    seat: mine.seat,
    // me is the seat of the person at the screen: at a table, always the
    // seat whose view it is (a replay may show another's).
    me: () => (last ? last.seat : mine.seat),
    view: () => last && last.view,
    info: () => last && last.table, // the table's public description
    // over says the table's game is over: by its moves, which the view
    // says too, or aborted, which only the table says (an abort is no
    // move, and the referee's view goes on as it stood); and for the
    // board's controls, a daily attempt whose day has ended, which takes
    // no move but a resignation.
    over: () => !!last && (last.table.status === "finished" || dailyClosed(last.table)),
    rules: () => (last && last.table.rules) || {},
    lexicon: () => (last && last.table.lexicon) || "",
    // A move pressed again while it is on its way (a double press on a
    // slow connection) is not sent twice: the second press shares the
    // first one's answer, rather than be refused as out of turn after it.
    send: move => {
      if (moving && moving.move === move) return moving.answer;
      const m = moving = { move, answer: link.move(move) };
      m.answer.catch(() => { /* the caller hears it */ }).finally(() => { if (moving === m) moving = null; });
      return m.answer;
    },
    // resign asks, as the Resign button does, and resigns; note comes
    // before the question.
    resign: note => resign(note),
    sendSetup: async (setup, style) => {
      // A style asks for the computer's kind of setup (a deceptive Quizl
      // grid, a hard-to-find fleet); without one the server picks at random.
      const body = setup ? { setup } : { auto: true, ...(style ? { computer: "strong" } : {}) };
      await link.setup(body);
      toast(setup ? "Setup sent" : "The computer made your setup");
    },
  };

  // Updates are drawn one after the other, in the order they came. The
  // first draw waits for the game's module and its word lists; an update
  // that came meanwhile, drawn at once, would be drawn over by that older
  // one when it finished, and the page would stay behind the table.
  let drawing = Promise.resolve();
  const draw = next => {
    drawing = drawing.then(next).catch(e => { console.error("drawing the table:", e); toast(e.message); });
  };
  // keepFocus draws with fn and then, if the drawing took away the
  // control that held the keyboard's focus (a setup sent, the invite or
  // the tools drawn anew), puts the focus back: on the same control put
  // back in its place (the turn's switches, kept across redraws), or
  // drawn again (found by its id), else on the stage if it was there,
  // else on the screen's content. Left on the page's body, the focus
  // would send the next Tab back to "Skip to content".
  //
  // The game's end takes the keyboard to the banner that says how it
  // ended, unless the player is busy elsewhere (the chat, say): the
  // game's own controls have gone, the Resign button too, and the
  // rematch is there.
  // A control the game's screen hid but did not take away (a form not
  // the player's while the others play on) gives the focus to the stage:
  // the browser would soon drop it on the page's body, and the next turn
  // would find the keyboard at the top of the page.
  async function keepFocus(fn) {
    const had = document.activeElement;
    const inMain = !!had && had !== main && main.contains(had);
    const onStage = inMain && stage.contains(had);
    const lostBefore = !had || had === document.body || had === main;
    ended = false;
    stageHad = onStage;
    await fn();
    const at = document.activeElement;
    const hidden = !!at && at !== stage && stage.contains(at) && at.offsetParent === null;
    const gone = inMain && !had.isConnected; // the Resign button, say, that ended it
    if (ended && (lostBefore || onStage || hidden || gone)) {
      const end = document.getElementById("game-over-h");
      // Brought into view only for the keyboard (the browser shows its
      // focus then): a mouse player reading the boards lower down keeps
      // their place.
      if (end) {
        end.focus({ preventScroll: true });
        if (end.matches(":focus-visible")) end.scrollIntoView({ block: "nearest" });
        return;
      }
    }
    if (hidden) { stage.focus({ preventScroll: true }); return; }
    if (!inMain || (document.activeElement && document.activeElement !== document.body)) return;
    // Taken out and put back, a control has lost the focus all the same.
    const again = main.contains(had) ? had : had.id && document.getElementById(had.id);
    if (again && main.contains(again)) {
      again.focus({ preventScroll: true });
      if (document.activeElement === again) return;
    }
    (onStage ? stage : main).focus({ preventScroll: true });
  }
  const link = new TableConn(id, token, u => draw(() => keepFocus(() => render(u))), s => {
    conn.textContent = { connecting: "connecting…", live: "live", down: "connection lost: reconnecting…" }[s];
    conn.className = "conn" + (s === "down" ? " down" : "");
    conn.dataset.state = s;
  });
  link.onError = msg => toast(msg);
  link.onFatal = e => {
    conn.textContent = "not connected";
    // A table closed before its game began (another player left it, or
    // it waited too long) holds nothing for this page any more: its
    // seats, chat and controls go, as for anyone opening it now.
    if (e.status === 410) {
      clocks.close();
      forgetSeat(id);
      document.title = "A closed table · Parlour";
      fill(main, h("h1", {}, "This table is closed"), h("p", { id: "table-closed" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the games")));
      return;
    }
    fill(stage, h("div", { class: "card", role: "alert" }, h("h2", {}, "Cannot follow this table"), h("p", { class: "error" }, e.message),
      h("p", {}, h("a", { href: "/" }, "Back to the games"))));
  };

  async function render(u) {
    const t = u.table;
    if (!mod) {
      mod = await load(t.game);
      try {
        words = !!(await gameInfo(t.game) || {}).words;
        if (words) await lexicons(); // to name the list in words
      } catch { /* the list is named by its key */ }
      fill(head, t.title, " ", t.rated ? h("span", { class: "rated-badge", id: "rated-badge", title: "Both players' ratings change when the game ends" }, "rated") : null, " ", h("span", { class: "table-id" }, `table ${id}`),
        // A game of a tournament leads back to the event's page.
        t.event ? h("a", { class: "table-id", id: "event-link", href: "/tournaments/" + encodeURIComponent(t.event.id) }, ` · ${t.event.name}${t.event.round ? `, round ${t.event.round}` : ""}`) : null);
      touchRecent(id, t.game);
    }
    // What a move showed this seat alone (a letter, a placement's score)
    // is worth a word as it happens; the move list keeps it too.
    let othersMoved = false; // a move by another seat came in with this update
    const said = []; // what the new moves did, for the status strip
    if (u.moves) for (const m of u.moves) {
      if (seen.has(m.version)) continue;
      seen.add(m.version);
      if (m.seat !== u.seat) othersMoved = true;
      if (!lastMove || m.version > lastMove.version) lastMove = m;
      const own = (m.events || []).filter(e => e.to && e.to.includes(u.seat));
      if (own.length && last) toast(own.map(e => e.text).join("; "));
      for (const e of m.events || []) if (e.kind === "timeout" || e.kind === "claim") { notes.push(e.text); forfeited.set(m.seat, e.kind); if (last) toast(e.text); }
      // The toast has said those already: said twice, they would be
      // read out twice.
      said.push(...(m.events || []).filter(e => e.text && !own.includes(e) && e.kind !== "timeout" && e.kind !== "claim").map(e => e.text));
    }
    // The first update brings the table as it is, not a move just made.
    if (last && said.length) heard.textContent = said.join("; ") + ".";
    // A table seen first when it is already over, or under way with a
    // clock, came without its moves: ask once for them, for what the
    // clock or a claim did (a Word Fight word a clock answered goes on).
    if (!last && !lastMove && (t.status === "finished" || t.status === "playing" && t.clock)) pastMoves();
    ended = !!last && last.table.status !== "finished" && t.status === "finished";
    last = u;
    const names = t.seats.map(s => s.name);
    const over = t.status === "finished";
    conn.hidden = over; // "live" says nothing of a game that is over
    // Over, the end's banner says so in full: the strip steps out of
    // sight, still telling a screen reader the game is over.
    status.classList.toggle("sr", over);
    const closed = dailyClosed(t);
    const toMove = over || closed ? [] : u.view ? mod.toMove(u.view) : (t.to_move || []);
    const myTurn = toMove.includes(u.seat);

    // Whose turn, in the page and in the tab title.
    let who;
    if (over) who = "Game over";
    else if (closed) who = "The day is over: resign to end this attempt";
    else if (!u.view) who = t.seats.some(s => s.kind === "open") ? "Waiting for players to join" : "Waiting for every setup";
    else if (u.seat < 0) who = `Watching · ${toMove.map(s => names[s]).join(", ")} to move`;
    else if (myTurn) who = toMove.length > 1 ? "Your move (everyone answers)" : "Your turn";
    else who = `Waiting for ${toMove.map(s => names[s]).join(", ")}`;
    updateText(turn, who);
    turn.className = "turn" + (myTurn ? " mine" : "");
    turn.dataset.mine = myTurn ? "1" : "0";
    document.title = `${myTurn ? "● Your turn · " : over ? "Over · " : ""}${t.title} · Parlour`;
    // The turn came back: it was not ours at the last update, or it was
    // and the others have moved since (a computer that answers at once
    // can pass the turn back within one update).
    if (myTurn && document.hidden && (lastMine === false || (lastMine === true && othersMoved))) { toast("Your turn"); yourTurn(`${t.title} · table ${id}`); }
    lastMine = myTurn;

    // Players and scores.
    const st = u.view ? mod.standings(u.view) : t.seats.map(s => ({ name: s.name, score: null, note: s.kind === "open" ? "open seat" : s.ready ? "ready" : "setting up" }));
    fill(players, ...st.map((p, i) => h("li", { class: toMove.includes(i) ? "to-move" : "", "data-seat": i },
      h("span", {}, `${p.name}${i === u.seat ? " (you)" : ""}${t.seats[i] && t.seats[i].kind === "computer" && !p.name.toLowerCase().includes(t.seats[i].level) ? ` · computer, ${t.seats[i].level}` : ""}`, guestMark(t.seats[i]),
        toMove.includes(i) ? h("span", { class: "sr" }, ", to move") : null,
        p.note ? h("span", { class: "muted note" }, " · " + p.note) : null,
        i !== u.seat && t.seats[i] && t.seats[i].connected === false ? h("span", { class: "away", "data-away": "1" }, " · disconnected") : null),
      p.score === null || p.score === undefined ? null : h("span", { class: "sr" }, "score"),
      h("span", { class: "score" }, p.score === null || p.score === undefined ? "" : String(p.score)))));
    if (inSet(t)) append(players, h("li", { class: "muted" }, `Set to ${t.set.target}: ${t.set.totals.map((n, i) => `${names[i]} ${n}`).join(", ")}${t.set.over ? " (set over)" : ""}`));

    // The move list, with what each move showed this seat.
    const list = u.view ? mod.moveList(u.view) : [];
    fill(moves, ...list.map(m => h("li", {}, m.text.startsWith(names[m.seat]) ? null : h("span", { class: "by" }, names[m.seat] + ": "), m.text, m.detail ? h("span", { class: "muted" }, " — " + m.detail) : null)));
    for (const n of notes) append(moves, h("li", { class: "note" }, n));
    moves.scrollTop = moves.scrollHeight;
    chat.take(u);
    clocks.take(u, players);

    // Invite while seats are open.
    fill(banner);
    if (t.seats.some(s => s.kind === "open")) {
      const url = sessionStorage.getItem("parlour.invite." + id) || `${location.origin}/t/${id}`;
      const inp = h("input", { id: "invite", value: url, readonly: true, size: 36 });
      append(banner, h("div", { class: "banner" }, h("h2", {}, "Invite a friend"),
        h("div", { class: "row" }, h("label", { for: "invite" }, "Invite link"), inp,
          h("button", { type: "button", id: "invite-copy", onclick: async () => { try { await navigator.clipboard.writeText(url); toast("Link copied"); } catch { inp.select(); toast("Press Ctrl+C to copy"); } } }, "Copy")),
        t.rated ? h("p", { id: "invite-rated" }, h("strong", {}, "Rated game:"), " both ratings change when it ends; your friend plays with an account.") : null,
        t.code ? h("p", {}, "Or read out the code ", h("strong", { id: "invite-code" }, t.code.slice(0, 3) + "-" + t.code.slice(3)), ": your friend types it under Join with a code.") : null));
    }
    if (over) append(banner, endBanner(u, names));
    else if (closed) append(banner, h("div", { class: "banner", id: "daily-closed" }, h("h2", {}, "This daily puzzle's day is over"),
      h("p", {}, "Its day ended at midnight UTC, and its answer is open to everyone now, so this attempt takes no more moves: resign to end it (unsolved). ",
        h("a", { href: "/daily/" + t.daily.split("/")[0] }, `Today's daily ${t.title}`), " is waiting.")));
    else { const c = claimBox(id, token, u, toMove); if (c) append(banner, c); }
    // A daily attempt open at midnight is drawn again then, closed.
    if (t.daily && !over && !closed && !dayTimer) {
      dayTimer = setTimeout(() => { dayTimer = null; draw(() => keepFocus(() => last && render(last))); }, Math.min(dailyEnd(t.daily) - Date.now() + 1000, 2 ** 31 - 1));
    }
    if (t.status === "setup" && t.setup_by && u.seat >= 0 && !u.setup && mod.setup) append(banner, setupDueBox(t));
    if (over && guideSlot.firstChild) { fill(guideSlot); for (const el of main.querySelectorAll(".guide-target")) el.classList.remove("guide-target"); }

    // The stage: setup, waiting, or the game.
    if (!u.view) {
      board = null;
      const needSetup = mod.setup && !u.setup && u.seat >= 0;
      if (needSetup && !setupDrawn) { fill(stage, mod.setup(ctx)); setupDrawn = true; }
      else if (!needSetup) {
        setupDrawn = false;
        fill(stage, h("div", { class: "card" }, h("h2", {}, "Waiting"),
          h("p", {}, mod.setup && u.seat >= 0 ? "Your setup is in. " : "", "The game starts when every seat is taken", mod.setup ? " and every setup is in." : "."),
          h("ul", {}, t.seats.map(s => h("li", {}, s.name, guestMark(s), `: ${s.kind === "open" ? "open seat" : s.ready ? "ready" : "setting up"}`)))));
      }
    } else {
      if (!board) { board = mod.play(ctx); fill(stage, board.el); if (!over) guideFirst(t.game, guideTable(t), u.seat); }
      // The setup sent last begins the game at once: the form that held
      // the keyboard went with it, and the stage holds it for the game's
      // screen, which takes it on to its move box when the turn is the
      // player's.
      if (stageHad && (!document.activeElement || document.activeElement === document.body)) stage.focus({ preventScroll: true });
      board.update(u.view);
    }

    // Tools. A seat out of a game the others play on (resigned, timed
    // out) has nothing to resign and no turn to hear of.
    const playing = u.seat >= 0 && !(t.seats[u.seat] || {}).out;
    fill(tools,
      h("h2", {}, "Table"),
      h("div", { class: "row" },
        over && sealed(t) ? null : h("button", { type: "button", id: "download", onclick: downloadRecord }, over ? "Download the record" : "Download the record so far"),
        !over && u.view && playing ? h("button", { type: "button", id: "resign", onclick: () => resign() }, "Resign") : null,
        !over && u.view && u.seat >= 0 && t.abortable ? h("button", { type: "button", id: "abort", onclick: abort }, "Abort") : null,
        !u.view && u.seat >= 0 ? h("button", { type: "button", id: "leave", onclick: leave }, "Leave the table") : null),
      h("p", {}, h("a", { href: "/rules/" + t.game, id: "rules-link" }, "Rules of " + t.title)),
      words && t.lexicon ? lexiconLine(t.lexicon) : null,
      !over && (u.view ? playing : u.seat >= 0) ? notifyBox : null,
      !over && u.view ? h("p", {}, h("button", { type: "button", id: "guide-open", onclick: () => showGuide(t.game, guideTable(t)) }, "How to play: the guide")) : null);
    // The recent games say whom the server played for, as an account's
    // finished games do.
    if (over) touchRecent(id, t.game, { result: [resultText(t, u.seat, names), ...forfeitWords({ forfeited: forfeited.get(u.seat),
      opponents: names.map((name, i) => ({ name, forfeited: i === u.seat ? undefined : forfeited.get(i) })) }, "you")].join(" · ") });
  }

  // dailyEnd is when the day of daily puzzle d ("quizl/2026-12-07") ends:
  // the next midnight UTC, when the server takes no move at its attempts
  // but a resignation.
  function dailyEnd(d) {
    return Date.parse(d.split("/")[1] + "T00:00:00Z") + 24 * 3600 * 1000;
  }

  // dailyClosed reports whether t is a daily attempt still under way
  // whose day has ended: as the server says, or, on a page left open
  // through midnight, as this computer's clock does.
  function dailyClosed(t) {
    return !!t.daily && t.status === "playing" && (!!t.day_over || Date.now() >= dailyEnd(t.daily));
  }

  // sealed reports whether t is a daily attempt whose answer is still
  // everyone's puzzle: until the day ends the server keeps its record and
  // analysis from everybody, its own player too, so nothing offers them.
  function sealed(t) {
    return !!t.daily && !(t.reveal && t.reveal.length);
  }

  function resultText(t, seat, names) {
    if (t.result && t.result.status === "aborted") return "aborted";
    const w = (t.result && t.result.winners) || [];
    if (!w.length) return t.seats.length === 1 ? "no win this time" : "draw";
    if (w.includes(seat)) return w.length > 1 ? "shared win" : "you won";
    return `${w.map(s => names[s]).join(" and ")} won`;
  }

  // askRating reads the signed-in player's latest games for this rated
  // table's rating change, after tries earlier reads a second more apart
  // each: the game's end settles both ratings, and the player's games
  // then carry the change. It shows the change under the result.
  function askRating(tries) {
    if (tries >= 5) return;
    setTimeout(async () => {
      let g;
      try {
        const ans = await call("GET", `/players/${encodeURIComponent(signedIn())}/games?limit=10`);
        g = (ans.games || []).find(g => g.table === id && g.rated && g.rating_after > 0);
      } catch { /* asked again, as when not yet settled */ }
      if (!g) { askRating(tries + 1); return; }
      const round = Math.round, d = round(g.rating_after - g.rating_before);
      rating = `Your rating in ${poolTitle(g.pool)}: ${round(g.rating_before)} → ${round(g.rating_after)} (${d >= 0 ? "+" : "−"}${Math.abs(d)})`;
      const p = document.getElementById("rating-change");
      if (p) { p.textContent = rating; p.hidden = false; }
    }, tries * 1000);
  }

  function endBanner(u, names) {
    const t = u.table;
    const res = t.result || { winners: [] };
    // Why the game ended, in words, from the game's own module: it reads
    // the final view and the last move's events (see endSummary there).
    const why = (u.view && mod.endSummary && mod.endSummary(u.view, { seat: u.seat, names, last: lastMove })) || {};
    // A clock that ran out or a claim says so itself.
    const forced = lastMove && (lastMove.events || []).find(e => e.kind === "timeout" || e.kind === "claim");
    if (forced) why.reason = forced.text;
    if (res.status === "aborted") {
      // No result: nobody had shown their hand yet (docs/protocol.md).
      const a = t.aborted || {};
      why.result = "aborted, no result";
      why.reason = { resign: `${a.name} resigned before every player had moved, so the game was aborted.`,
        timeout: `${a.name} ran out of time before every player had moved, so the game was aborted.`,
        claim: `${a.name} walked away before every player had moved, so the game was aborted.` }[a.why]
        || `${a.name || "A player"} aborted the game before every player had moved.`;
      why.reason += t.rated ? " No rating changed." : "";
      if (t.event) {
        // The event scores it all the same: a loss for who ended it (a
        // no-show when their clock ran out), a win for the others.
        const others = names.filter((_, i) => i !== a.seat).join(" and ");
        const loss = a.why === "timeout" || a.why === "claim" ? `a game ${a.name} did not show up for` : `a loss for ${a.name}`;
        why.reason += ` ${t.event.name} counts it as ${loss}${others ? ` and a win for ${others}` : ""}.`;
      }
    }
    const won = (res.winners || []).includes(u.seat);
    const box = h("div", { class: "banner end" + (won ? " won" : ""), id: "game-over" },
      h("h2", { id: "game-over-h", tabindex: -1 }, "Game over: " + (why.result || resultText(t, u.seat, names))),
      why.reason ? h("p", { class: "reason", id: "end-reason" }, why.reason) : null);
    // What the result counts, in the game's words where it is not points
    // (a bare "Scores" would read, in Nymphabet's standard mode, as if the
    // player who deleted more letters had won).
    const counts = (u.view && mod.scoresLabel && mod.scoresLabel(u.view)) || "Scores";
    if (res.scores) append(box, h("p", { id: "end-scores" }, `${counts}: `, res.scores.map((s, i) => `${names[i]} ${s}`).join(", ")));
    if (t.rated && u.seat >= 0 && res.status !== "aborted" && signedIn()) {
      // Filled in once the end has settled the ratings (askRating).
      append(box, h("p", { id: "rating-change", hidden: !rating }, rating || ""));
      if (!ratingAsked) { ratingAsked = true; askRating(0); }
    }
    if (inSet(t)) append(box, h("p", { class: "set-result", id: "set-result" }, setText(t.set, u.seat, names)));
    if (sealed(t)) {
      // The day's answer is everyone's puzzle until the day ends.
      const hidden = { quizl: "The hidden grid", salvo: "The hidden fleet" }[t.game] || "The answer";
      append(box, h("p", { class: "muted", id: "daily-hidden" }, `${hidden}, the record and the analysis open to you and everyone when the day ends, at midnight UTC.`));
    }
    if (t.reveal && t.reveal.length) {
      const checks = h("ul", { id: "commitments" });
      append(box, h("h3", {}, "Every secret, and the check that none changed"), checks);
      for (const r of t.reveal) {
        // At a one-seat table the one setup is the computer's, made for
        // the player to attack (solitaire Quizl's grid, Salvo practice's
        // fleet): say so rather than put it under the player's name.
        const whose = t.seats.length === 1 ? `The computer's ${r.setup && r.setup.fleet ? "hidden fleet" : "grid"}${t.solitaire ? ` (${t.solitaire.maker})` : ""}` : names[r.seat];
        const li = h("li", {}, `${whose}: ${setupText(r.setup)} — `, h("span", { class: "muted" }, "checking…"));
        append(checks, li);
        verify(r).then(ok => { li.lastChild.textContent = ok ? "matches the commitment published at the start ✓" : "DOES NOT match the commitment published at the start"; li.lastChild.className = ok ? "ok" : "error"; });
      }
    }
    append(box, h("div", { class: "row" },
      // The event pairs its players again: a game of one has no rematch,
      // but the way back to its page.
      t.event ? h("a", { class: "button primary", id: "event-back", href: "/tournaments/" + encodeURIComponent(t.event.id) }, `Back to ${t.event.name}`)
        : u.seat >= 0 ? h("button", { type: "button", class: t.daily ? "" : "primary", id: "rematch", onclick: rematch }, rematchText(t)) : null,
      sealed(t) ? null : h("a", { class: "button", id: "replay-game", href: "/replay?table=" + encodeURIComponent(id) }, "Replay it"),
      res.status === "aborted" || sealed(t) ? null : h("a", { class: "button", id: "analyse-game", href: "/replay?analyse&table=" + encodeURIComponent(id) }, "Analyse this game"),
      // Once the day is over the daily page shows the next day's puzzle,
      // and the attempt's result is no longer there to go back to.
      t.daily ? h("a", { class: "button primary", id: "daily-back", href: "/daily/" + t.daily.split("/")[0] }, sealed(t) ? "Your daily result and share text" : `Today's daily ${t.title}`) : null));
    return box;
  }

  // The first-game guide opens by itself at this browser's first table
  // of a game, and from the side panel at any time; its module loads only
  // then.
  // A player who finished a game of the kind already (in another
  // browser, before this one kept anything) has no need of it, and this
  // browser remembers so.
  function guideFirst(game, table, seat) {
    let seenIt = true;
    try { seenIt = localStorage.getItem("parlour.guide." + game) === "1"; } catch { /* no storage: no guide by itself */ }
    if (seenIt || seat < 0) return;
    identityToken().then(tok => call("GET", `/identity/games?game=${encodeURIComponent(game)}&limit=1`, undefined, tok || undefined)).then(a => {
      if (!a.games.length) { showGuide(game, table, false); return; }
      try { localStorage.setItem("parlour.guide." + game, "1"); } catch { /* asked again next time */ }
    }, () => showGuide(game, table, false));
  }
  // guideTable is what the guide says differently by table t.
  function guideTable(t) { return { rules: t.rules || {}, alone: t.seats.length === 1 }; }
  function showGuide(game, table, focus = true) {
    import("./guide.js").then(g => { if (g.open(guideSlot, game, table) && focus) document.getElementById("guide-next").focus(); }).catch(e => toast(e.message));
  }

  async function pastMoves() {
    try {
      const first = await firstLine(`/tables/${encodeURIComponent(id)}/events?from=0`, token);
      const had = lastMove, past = [];
      for (const m of first.moves || []) {
        // A move that came live meanwhile has been told already.
        if (seen.has(m.version)) continue;
        seen.add(m.version);
        if (!lastMove || m.version > lastMove.version) lastMove = m;
        for (const e of m.events || []) if (e.kind === "timeout" || e.kind === "claim") { past.push(e.text); forfeited.set(m.seat, e.kind); }
      }
      notes.unshift(...past); // before any told live meanwhile
      // The end drawn again with the last move, which may say who
      // resigned, and with what the clock or a claim did.
      if (past.length || lastMove !== had) draw(() => last && render(last)); // the latest drawn, once those in hand are
    } catch { /* the end banner says what the view alone tells */ }
  }

  async function downloadRecord() {
    try {
      const text = await callText(`/tables/${encodeURIComponent(id)}/record`, token);
      JSON.parse(text); // a record, not a page in its place
      // Indented, as parlour writes records, for people who read them.
      download(`parlour-${last ? last.table.game : "game"}-${id}.json`, indentJSON(text) + "\n");
    } catch (e) { toast(e.message); }
  }
  async function resign(note = "") {
    if (!confirm(note + resignWords(last.table, last.seat, last.view))) return;
    try { await ctx.send("resign"); } catch (e) { toast(e.message); }
  }
  // resignWords says what resigning does at this table, for the confirm.
  // resignWords says what resigning at t does for seat; view, the
  // game's view for it, says how far the others have got.
  function resignWords(t, seat, view) {
    if (t.abortable) return "Resign now? Not every player has moved yet, so the game is aborted instead: it ends without a result" + (t.rated ? " and no rating changes" : "") + (t.event ? `, but ${t.event.name} counts it as your loss.` : ".");
    const others = t.seats.filter((s, i) => i !== seat).map(s => s.name);
    const other = others.join(" and ");
    const rated = t.rated ? " It counts as a loss in your rating." : "";
    if (!others.length) return "Resign? The game ends here, as a loss.";
    switch (t.game) {
      case "quizl":
        // An opponent done with your grid hunts it no more: the game
        // ends with your resignation.
        if (others.length === 1 && view && view.done && view.done[1 - seat]) return `Resign? You score 0 against ${other}, who is done with your grid, so the game ends now.${rated}`;
        return others.length === 1
          ? `Resign? You score 0 against ${other}, who may still hunt your password alone; the game ends when ${other} is done.${rated}`
          : "Resign? You score 0 against every player whose password you have not found; the others play on.";
      case "salvo":
        return others.length === 1 ? `Resign? ${other} wins.${rated}` : "Resign? You are out of the game; the others play on.";
      case "wordfight":
        return others.length === 1 ? `Resign? ${other} wins, with the points so far.${rated}` : "Resign? You stop answering words; the others play on.";
      default:
        return `Resign? ${other} wins.${rated}`;
    }
  }
  // abort ends the game without a result, while some player has not
  // moved yet.
  async function abort() {
    const ev = last.table.event;
    if (!confirm("Abort this game? It ends without a result" + (last.table.rated ? ", and no rating changes" : "") + (ev ? `, but ${ev.name} counts it as your loss.` : "."))) return;
    try { await call("POST", `/tables/${encodeURIComponent(id)}/abort`, {}, token); toast("Game aborted"); } catch (e) { toast(e.message); }
  }
  // leave gives the seat up before the game begins; the last person to
  // leave closes the table, and so does anybody leaving a table made
  // for its players (a seek's, a challenge's, an event's).
  async function leave() {
    const others = last.table.seats.some((s, i) => i !== last.seat && s.kind === "person");
    const said = !others ? "Leave this table? Nobody else is seated, so it closes for good."
      : last.table.paired ? `Leave this table? It was made for its players, so it closes for good${last.table.event ? ": the event counts it as a game you did not show up for" : ""}.`
      : "Leave this table? Your seat opens for somebody else.";
    if (!confirm(said)) return;
    try {
      const ans = await call("POST", `/tables/${encodeURIComponent(id)}/leave`, {}, token);
      forgetSeat(id);
      go("/");
      toast(ans.cancelled ? "You left; the table is closed" : "You left the table");
    } catch (e) { toast(e.message); }
  }
  async function rematch() {
    try {
      // The first to ask makes the next table; everybody else is seated
      // at that one, one seat further on.
      const ans = await call("POST", `/tables/${encodeURIComponent(id)}/rematch`, {}, token);
      rememberSeat(ans.table, { seat: ans.seat, token: ans.token, game: last.table.game });
      if (ans.invite) sessionStorage.setItem("parlour.invite." + ans.table, ans.invite);
      go("/t/" + ans.table);
    } catch (e) { toast(e.message); }
  }

  // Whether the player to move has walked away is no change of the table,
  // so no update says so: while waiting for someone else at a table
  // without a clock, look again every 10 seconds, for the claim.
  const awayCheck = setInterval(() => {
    const t = last && last.table;
    if (!t || t.status !== "playing" || t.clock || last.seat < 0 || (t.to_move || []).includes(last.seat) || document.hidden) return;
    call("GET", `/tables/${encodeURIComponent(id)}`, undefined, token).then(u => link.take(u)).catch(() => { /* the socket says when the server is gone */ });
  }, 10000);

  return () => { link.close(); clocks.close(); clearInterval(awayCheck); };
}

// ratedNote says, before anyone sits down, that a table is rated.
function ratedNote(id) {
  return h("p", { class: "rated-note", id }, h("strong", {}, "Rated game:"), " both players' ratings change when it ends.");
}

// inSet reports whether t's game is one of a set its players go on with:
// a daily attempt is one game, and an event's game counts in the event,
// which pairs its players again, not in a set of their own.
const inSet = t => !!t.set && !t.daily && !t.event;

// setText says where a set stands once a game of it is over: who won
// it and by how much ("Ben wins the set 27-19", the totals from the
// highest down), or the totals the next game carries on.
function setText(set, seat, names) {
  if (set.over && set.winners && set.winners.length) {
    const w = set.winners[0];
    const score = [...set.totals].sort((a, b) => b - a).join("-");
    return w === seat ? `You win the set ${score}` : `${names[w]} wins the set ${score}`;
  }
  return `Set to ${set.target}, after ${set.games === 1 ? "1 game" : `${set.games} games`}: ${set.totals.map((n, i) => `${names[i]} ${n}`).join(", ")}. The next game carries the totals on.`;
}

// rematchText names what the rematch button makes: a new set once a set
// is over, the set's next game while it goes on, else a rematch.
function rematchText(t) {
  // Alone against the computer nobody is asked: the button deals a new
  // game (after a daily puzzle, an ordinary one).
  const what = !inSet(t) ? (t.seats.length === 1 ? "new game" : "rematch") : t.set.over ? "new set" : "next game of the set";
  if (t.rematch) return `Go to the ${what}`;
  return what[0].toUpperCase() + what.slice(1);
}

// setupDueBox tells a player still to set up at an event's table by
// when their setup is due (setup_by): past it the event closes the table
// and they forfeit the game. It counts down from the server's now, not
// this machine's clock, and stops once the table's next update has
// drawn it away.
function setupDueBox(t) {
  const serverNow = t.clock && t.clock.now ? Date.parse(t.clock.now) : Date.now();
  const left = Date.parse(t.setup_by) - serverNow, at = performance.now();
  const text = h("strong", {});
  const box = h("div", { class: "banner", id: "setup-due" }, h("p", { class: "reason" }, text));
  const tick = () => {
    const ms = left - (performance.now() - at);
    const secs = Math.ceil(ms / 1000), mins = Math.ceil(secs / 60);
    const by = new Date(Date.now() + ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
    text.textContent = secs <= 0 ? `Set up by ${by}: the time is up, so this game is forfeit`
      : `Set up by ${by} (in ${secs < 60 ? `${secs} seconds` : mins === 1 ? "1 minute" : `${mins} minutes`}), or forfeit this game`;
    text.classList.toggle("warn", secs < 60);
    return secs > 0;
  };
  tick();
  const timer = setInterval(() => { if (!box.isConnected || !tick()) clearInterval(timer); }, 1000);
  return box;
}

function setupText(s) {
  if (!s) return "";
  if (s.grid) return `grid ${s.grid.join("/")}, password ${s.password}`;
  if (s.fleet) return `fleet ${s.fleet.join(" ")}`;
  return JSON.stringify(s);
}

// verify checks a revealed setup against its commitment: SHA-256 of the
// salt's bytes then the setup's compact JSON.
export async function verify(r) {
  try {
    const salt = new Uint8Array(r.salt.match(/../g).map(x => parseInt(x, 16)));
    const body = new TextEncoder().encode(JSON.stringify(r.setup));
    const all = new Uint8Array(salt.length + body.length);
    all.set(salt); all.set(body, salt.length);
    const d = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
    return [...d].map(b => b.toString(16).padStart(2, "0")).join("") === r.commitment;
  } catch { return false; }
}

// lexiconLine names a table's word list: by its key at once, and by its
// title once the lists are read (at once when they were read before).
function lexiconLine(name) {
  const p = h("p", { id: "lexicon" }, "Word list: " + lexiconTitle(name));
  lexicons().then(() => { p.textContent = "Word list: " + lexiconTitle(name); }, () => { /* named by its key */ });
  return p;
}

// joinLexicon names the word list of a word game's table before anyone
// sits down, once the game and the lists are known (nothing for a game
// without words).
async function joinLexicon(info) {
  let g = null;
  try { g = await gameInfo(info.game); } catch { /* said by the game's own screens */ }
  if (!g || !g.words) return null;
  try { await lexicons(); } catch { /* named by its key */ }
  return h("p", { id: "join-lexicon" }, "Word list: " + lexiconTitle(info.lexicon));
}

// indentJSON writes the JSON text text indented as JSON.stringify(v,
// null, 2) would, without reading its values: a record's seed is a 64-bit
// number, which JSON.parse rounds to the nearest double, so a record read
// and written again would no longer be the game's.
function indentJSON(text) {
  let out = "", depth = 0;
  const nl = () => "\n" + "  ".repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // A string, escapes and all, as it stands.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "{" || c === "[") {
      let j = i + 1;
      while (" \t\r\n".includes(text[j])) j++;
      if (text[j] === (c === "{" ? "}" : "]")) { out += c + text[j]; i = j; continue; } // {} and [] stay whole
      depth++;
      out += c + nl();
    } else if (c === "}" || c === "]") {
      depth--;
      out += nl() + c;
    } else if (c === ",") out += "," + nl();
    else if (c === ":") out += ": ";
    else if (!" \t\r\n".includes(c)) out += c;
  }
  return out;
}
