// home.js: the home screen (pick a game, your recent games) and the new
// table form (rule options, seats, your name).

import { h, field, toast, fill, append, plural, redraw } from "./dom.js";
import { call, myName, setMyName, rememberSeat, recent, identityToken, signedIn } from "./api.js";
import { games, gameInfo, title, forfeitWords, eventWords } from "./catalog.js";
import { go } from "./nav.js";
import { optionControls, readOptions, clockControl, clockPresets, holdForRated } from "./options.js";
import { quickButtons, isMine } from "./seek.js";
import { lexiconSelect } from "./lexicons.js";
import { whenWords } from "./when.js";

const blurbs = {
  quizl: "Word battleships on a 5×5 letter grid: find the hidden five-letter password with as few calls as you can.",
  salvo: "Battleship with five-shot salvos whose reports say which ships were hit, never by which shot.",
  wordfight: "Everyone builds a secret crossword from one public list of words; a word somebody cannot fit is a strike.",
  nymphabet: "Alphabet take-away: each word starts at the next undeleted letter and deletes the run it holds in order.",
};

export async function home(main) {
  append(main, h("h1", {}, "Pick a game"));
  // Who is about, read again while the page shows: a player looking for
  // an opponent learns there is somebody to play.
  const news = h("p", { id: "home-news", class: "muted", "aria-live": "polite" });
  append(main, news);
  const readNews = async () => {
    try {
      const [o, sk] = await Promise.all([call("GET", "/online"), call("GET", "/seeks")]);
      // The player's own seek is nobody for them to play.
      const me = signedIn().toLowerCase();
      const n = (sk.seeks || []).filter(s => !isMine(s.id) && !(me && s.player.toLowerCase() === me)).length;
      // Nobody counted means nobody else: a visitor with no seat nor
      // account yet is not counted itself.
      fill(news, o.count ? `${plural(o.count, "player")} online` : "Nobody else is online just now", n ? ` · ${n} looking for a game` : "", " · ", h("a", { href: "/lobby" }, "the lobby"));
    } catch { /* the last news stays; the lobby says what is wrong */ }
  };
  // The tournaments the card shows, whose countdowns (in whole minutes)
  // are written again with the news.
  const events = new Map();
  readNews();
  const timer = setInterval(() => { readNews(); retime(main, events); }, 15000);
  await rest(main, events);
  return () => clearInterval(timer);
}

// retime writes again when each event shown starts or ends, as of now.
function retime(main, events) {
  const now = Date.now();
  for (const el of main.querySelectorAll("#home-events [data-when]")) {
    const e = events.get(el.dataset.when);
    if (e) el.textContent = whenWords(e, now, true);
  }
}

// rest draws the home screen under its first lines; events gets the
// tournaments its card shows.
async function rest(main, events) {
  const list = h("div", { class: "cards" });
  append(main, list);
  try {
    for (const g of await games()) {
      append(list, h("section", { class: "card", "aria-labelledby": "g-" + g.name },
        h("h2", { id: "g-" + g.name }, g.title),
        h("p", {}, blurbs[g.name] || ""),
        // The rules beside the count of players, so that the row of
        // actions under them stays one line in a card of four.
        h("p", { class: "muted" }, g.min_players === g.max_players ? plural(g.min_players, "player") : `${g.min_players}–${g.max_players} players`,
          " · ", h("a", { href: "/rules/" + g.name, "aria-label": g.title + " rules" }, "Rules")),
        h("div", { class: "row" },
          h("a", { class: "button primary", href: "/new/" + g.name, "aria-label": "New table of " + g.title }, "New table"),
          g.name === "salvo" ? h("a", { href: "/new/salvo?practice", id: "salvo-practice", "aria-label": "Practise Salvo alone against a hidden fleet" }, "Practise") : null,
          g.name === "quizl" ? h("a", { href: "/new/quizl?solitaire", id: "quizl-solitaire", "aria-label": "Solitaire Quizl, alone against a grid the computer makes" }, "Solitaire") : null),
        g.max_players >= 2 && g.min_players <= 2 ? h("div", { class: "row quick" }, quickButtons(g)) : null));
    }
  } catch (e) {
    append(list, h("p", { class: "error" }, "Cannot list the games: " + e.message));
  }
  append(main, h("section", { class: "card", id: "home-daily", "aria-labelledby": "daily-h" },
    h("h2", { id: "daily-h" }, "Daily puzzles"),
    h("p", {}, "One Quizl grid and one Salvo fleet a day, the same for everyone, with a leaderboard and your streak."),
    h("div", { class: "row" },
      h("a", { class: "button", href: "/daily/quizl", id: "home-daily-quizl" }, "Daily Quizl"),
      h("a", { class: "button", href: "/daily/salvo", id: "home-daily-salvo" }, "Daily Salvo"))));
  append(main, eventsCard(events));
  append(main, codeBox());
  const open = h("div", { id: "home-lobby" });
  append(main, h("h2", {}, "Open tables"), open);
  call("GET", "/tables?status=open&limit=5").then(ans => {
    const ts = Array.isArray(ans) ? ans : (ans && ans.tables) || [];
    if (!ts.length) { append(open, h("p", { class: "muted" }, "Nobody is waiting for a player right now.")); return; }
    append(open, h("ul", {}, ts.map(t => h("li", {}, h("a", { href: "/t/" + t.id, "aria-label": `Join ${t.rated ? "rated " : ""}${t.title} table ${t.id}` }, t.title), t.rated ? " (rated)" : "", " with ",
      t.seats.filter(x => x.kind !== "open").map(x => x.name).join(", ") || "nobody yet"))),
      h("p", {}, h("a", { href: "/lobby" }, "The whole lobby")));
  }).catch(e => append(open, h("p", { class: "error" }, "Cannot list the open tables: " + e.message)));
  if (signedIn()) {
    append(main, myGames(signedIn()));
    append(main, (await import("./follows.js")).following()); // whom the player follows
    return;
  }
  const mine = recent();
  append(main, h("h2", {}, "Your recent games"));
  if (!mine.length) {
    append(main, h("p", { class: "muted" }, "None yet. Games you play in this browser appear here."));
  } else {
    append(main, h("ul", { class: "recent" }, mine.map(r =>
      h("li", {}, h("a", { href: "/t/" + r.table }, `${title(r.game) || "Game"} · table ${r.table}`),
        " ", h("span", { class: "muted" }, new Date(r.at).toLocaleString(), r.result ? " · " + r.result : "")))));
  }
}

// myGames lists a signed-in player's games from the server: those under
// way, then the latest finished ones.
function myGames(name) {
  const box = h("section", { id: "my-games", "aria-labelledby": "my-games-title" }, h("h2", { id: "my-games-title" }, "Your games"));
  const now = h("ul", { class: "recent", id: "my-tables" }), done = h("ul", { class: "recent", id: "my-finished" });
  append(box, h("h3", {}, "Under way"), now, h("h3", {}, "Finished"), done,
    h("p", {}, h("a", { href: "/players/" + encodeURIComponent(name) }, "All your games and ratings")));
  call("GET", "/identity/tables").then(a => {
    if (!a.tables.length) append(now, h("li", { class: "muted" }, "None."));
    for (const t of a.tables) append(now, h("li", {}, h("a", { href: "/t/" + t.id }, `${t.title} · table ${t.id}`), " ",
      h("span", { class: "muted" }, t.status, t.rated ? " · rated" : "", " · with ", t.seats.filter(x => x.seat !== t.seat).map(x => x.kind === "open" ? "an open seat" : x.name).join(", ") || "nobody"),
      eventWords(t)));
  }).catch(e => append(now, h("li", { class: "error" }, e.message)));
  call("GET", `/players/${encodeURIComponent(name)}/games?limit=10`).then(async a => {
    if (!a.games.length) append(done, h("li", { class: "muted" }, "None yet."));
    // An attempt at a daily puzzle says so, as on the profile, and has no
    // replay to offer until its day ends (dailyprofile.js).
    const daily = a.games.some(g => g.daily) ? await import("./dailyprofile.js") : null;
    const sealed = daily ? await daily.sealedDailies(name) : new Set();
    for (const g of a.games) append(done, h("li", {}, `${{ win: "Won", loss: "Lost", draw: "Drew", aborted: "Aborted" }[g.result] || g.result} ${g.daily ? "Daily " : ""}${title(g.game)}${g.opponents.length ? " against " + g.opponents.map(o => o.name || o.kind).join(", ") : ", alone"}${forfeitWords(g, "you").map(w => " · " + w).join("")} `,
      h("span", { class: "muted" }, new Date(g.ended).toLocaleString()), eventWords(g), " · ", sealed.has(g.daily) ? h("span", { class: "muted" }, daily.waitWords)
        : h("a", { href: "/replay?table=" + encodeURIComponent(g.table), "aria-label": `Replay the ${title(g.game)} game of ${new Date(g.ended).toLocaleString()}` }, "Replay")));
  }).catch(e => append(done, h("li", { class: "error" }, e.message)));
  return box;
}

const levels = ["easy", "medium", "strong"];

// makerLabel says what a level of the computer makes of a solo seat's
// hidden setup.
function makerLabel(game, level) {
  if (game === "quizl") return { easy: "easy (a random filling)", medium: "medium (deceptive)", strong: "strong (most deceptive)" }[level];
  if (game === "salvo") return { easy: "easy (a random fleet)", medium: "medium (a random fleet)", strong: "strong (hard to find)" }[level];
  return level;
}

export async function newTable(main, name) {
  const g = await gameInfo(name);
  if (!g) {
    append(main, h("h1", {}, "No such game"), h("p", {}, h("a", { href: "/" }, "Back to the games")));
    return;
  }
  document.title = `New ${g.title} table · Parlour`;
  append(main, h("h1", {}, `New ${g.title} table`), h("p", {}, blurbs[g.name], " ", h("a", { href: "/rules/" + g.name }, "Read the rules")));
  const err = h("p", { class: "error", role: "alert" });
  const nameInput = h("input", { id: "my-name", name: "myname", value: myName(), maxlength: 24, autocomplete: "nickname", placeholder: "Guest" });

  // Seats after the creator's: "open" (a friend) or "computer:LEVEL".
  // "Who plays" picks one of three set-ups, shown pressed; the seats
  // below can then be changed one by one. The home page's "Practise"
  // link for Salvo and "Solitaire" for Quizl open the form with the
  // game alone chosen.
  const canSolo = g.min_players <= 1;
  const soloName = g.name === "quizl" ? "Solitaire" : g.name === "salvo" ? "Practice" : "Practice alone";
  const asked = new URLSearchParams(location.search);
  const practice = (g.name === "salvo" && asked.has("practice")) || (g.name === "quizl" && asked.has("solitaire"));
  let mode = g.max_players >= 2 && !practice ? "friend" : "solo";
  let others = mode === "solo" ? [] : Array(Math.max(1, g.min_players - 1)).fill("open");
  let maker = "medium"; // the level of the computer that makes a solo seat's hidden setup
  const seatsBox = h("div", { id: "seats" });
  // A seat added or removed with the keyboard keeps the focus in the
  // seats, on the control drawn in the pressed one's place.
  const drawSeats = () => redraw(seatsBox, () => fill(seatsBox,
      h("p", {}, "Seat 1: you"),
      others.length === 0 ? h("p", { class: "muted" }, g.name === "quizl" ? "Solitaire: you hunt the password in a grid the computer makes."
        : g.name === "salvo" ? "Practice: you fire at a fleet the computer hides; it never fires back, so you can learn to read the reports." : "You play alone against a hidden setup the computer makes.") : null,
      others.length === 0 && g.has_setup ? h("div", { class: "row" },
        h("label", { for: "maker" }, g.name === "quizl" ? "The computer's grid:" : g.name === "salvo" ? "The computer's fleet:" : "The computer's setup:"),
        h("select", { id: "maker", onchange: e => { maker = e.target.value; } },
          levels.map(l => h("option", { value: l, selected: l === maker }, makerLabel(g.name, l))))) : null,
      others.map((s, i) => {
        const sel = h("select", { id: "seat-" + (i + 2), "aria-label": `Seat ${i + 2}` },
          h("option", { value: "open", selected: s === "open" }, "A friend (invite link)"),
          levels.map(l => h("option", { value: "computer:" + l, selected: s === "computer:" + l }, `The computer, ${l}`)));
        sel.addEventListener("change", () => { others[i] = sel.value; markMode(); });
        return h("div", { class: "row" }, h("label", { for: sel.id }, `Seat ${i + 2}:`), sel,
          others.length + 1 > Math.max(2, g.min_players) ? h("button", { type: "button", "aria-label": `Remove seat ${i + 2}`, onclick: () => { others.splice(i, 1); drawSeats(); markMode(); } }, "Remove") : null);
      }),
      others.length && others.length + 1 < g.max_players ? h("button", { type: "button", onclick: () => { others.push("open"); drawSeats(); markMode(); } }, "Add a seat") : null),
  c => c.id || c.getAttribute("aria-label") || c.textContent);
  const presets = [];
  const preset = (key, label, seats, help) => {
    const b = h("button", { type: "button", class: "choice", "data-mode": key, "aria-pressed": "false", "aria-describedby": "who-help",
      onclick: () => { mode = key; others = seats(); drawSeats(); markMode(); } }, label);
    presets.push(b);
    return b;
  };
  // markMode shows which set-up is chosen; seats changed by hand that
  // match none leave none pressed.
  function markMode() {
    const now = others.length === 0 ? "solo" : others.length === 1 && others[0] === "open" ? "friend" : others.length === 1 && others[0].startsWith("computer:") ? "computer" : "";
    mode = now;
    for (const b of presets) {
      const on = b.dataset.mode === mode;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("on", on);
    }
    drawRated();
    whoHelp.textContent = { friend: "Chosen: a friend, who joins with the invite link the table shows you.", computer: "Chosen: the computer; pick its level below.", solo: `Chosen: ${soloName.toLowerCase()}.` }[mode] || "Chosen: the seats below.";
  }
  const whoHelp = h("p", { class: "help", id: "who-help", "aria-live": "polite" });
  drawSeats();

  // The clock: none, a preset of each kind, or one's own (options.js).
  const clock = clockControl("clock", clockPresets);

  // Rated: only for an account, two seats, the other a friend.
  const ratedCheck = h("input", { id: "rated", type: "checkbox", "aria-describedby": "rated-help" });
  const ratedHelp = h("p", { class: "help", id: "rated-help" });
  const ratedBox = h("div", { class: "field" }, h("label", { for: "rated" }, ratedCheck, " Rated game"), ratedHelp);
  // held holds the options a rated game keeps at their defaults while
  // it is chosen; it needs the form, made below.
  let held = () => {};
  const drawRated = () => {
    let why = "";
    if (!signedIn()) why = "Rated games are between accounts: sign up or sign in to play one.";
    else if (!(others.length === 1 && others[0] === "open")) why = "Rated games are for two people: choose a friend for the one other seat.";
    ratedCheck.disabled = !!why;
    if (why) ratedCheck.checked = false;
    ratedHelp.textContent = why || "Both ratings change when the game ends. The rules must be the defaults (a few options, such as Nymphabet's mode, may change), and the word list the default.";
    held();
  };
  ratedCheck.addEventListener("change", () => held());

  const lexSel = lexiconSelect("lexicon");
  const form = h("form", { class: "stack", novalidate: true },
    h("fieldset", {}, h("legend", {}, "Who plays"),
      h("div", { class: "row", role: "group", "aria-label": "Who plays" },
        g.max_players >= 2 ? preset("friend", "A friend", () => Array(Math.max(1, g.min_players - 1)).fill("open")) : null,
        g.max_players >= 2 ? preset("computer", "The computer", () => ["computer:medium"]) : null,
        canSolo ? preset("solo", soloName, () => []) : null),
      whoHelp,
      seatsBox),
    g.options.length ? h("fieldset", {}, h("legend", {}, "Rule options"), optionControls(g)) : null,
    h("fieldset", {}, h("legend", {}, "Clock"), clock.element),
    g.words ? h("fieldset", {}, h("legend", {}, "Word list"), field("Words are checked against", lexSel, "Rated games use the default list.")) : null,
    ratedBox,
    signedIn() ? h("p", {}, "You play as ", h("strong", {}, signedIn()), ".") : field("Your name", nameInput, "Shown to the other players; leave blank to be a guest."),
    err,
    h("button", { class: "primary", type: "submit" }, "Open the table"));
  held = () => holdForRated(form, g, ratedCheck.checked && !ratedCheck.disabled, g.words ? lexSel : null);
  markMode();
  form.addEventListener("submit", async e => {
    e.preventDefault();
    err.textContent = "";
    if (!form.reportValidity()) return;
    const myname = nameInput.value.trim();
    setMyName(myname);
    const body = { game: g.name, rules: readOptions(form, g.options), seats: ["me", ...others] };
    if (others.length === 0 && g.has_setup) body.maker = maker;
    let c;
    try { c = clock.value(); } catch (ex) { err.textContent = ex.message; return; }
    // The server checks the bounds and says what is wrong in its words.
    if (c !== null) body.rules.clock = c;
    if (ratedCheck.checked && !ratedCheck.disabled) body.rated = true;
    if (g.words && lexSel.value) body.lexicon = lexSel.value;
    if (myname) body.name = myname;
    try {
      const t = await call("POST", "/tables", body, await identityToken(myname));
      rememberSeat(t.table, { seat: t.seat, token: t.token, game: g.name });
      if (t.invite) sessionStorage.setItem("parlour.invite." + t.table, t.invite);
      go("/t/" + t.table);
    } catch (ex) {
      err.textContent = ex.message;
      toast(ex.message);
    }
  });
  append(main, form);
}

// eventsCard names the tournaments under way and the next to come, a few
// of each, with when each starts or ends, and leads to the list of them
// all. It puts the events it shows in shown, by id, for retime.
function eventsCard(shown) {
  // A line holds the list's place while it loads, so that the boxes
  // below do not jump when it comes.
  const list = h("ul", { class: "recent", id: "home-events-list" }, h("li", { class: "muted" }, "Looking for tournaments…"));
  call("GET", "/tournaments?status=started").then(async a => {
    // Of those under way, the ones most play first: a house arena nobody
    // joined is little news beside a club's night.
    const now = (a.tournaments || []).slice().sort((x, y) => (y.players || 0) - (x.players || 0)).slice(0, 3);
    const next = ((await call("GET", "/tournaments?status=created")).tournaments || []).slice(0, 3);
    const line = e => h("li", {}, h("a", { href: "/tournaments/" + encodeURIComponent(e.id) }, e.name),
      ` · ${title(e.game)}, ${e.kind === "arena" ? "arena" : "Swiss"}, ${plural(e.players, "player")} · `, h("span", { class: "muted", "data-when": e.id }, whenWords(e, Date.now(), true)));
    for (const e of [...now, ...next]) shown.set(e.id, e);
    fill(list, [...now, ...next].map(line));
    if (!list.firstChild) append(list, h("li", { class: "muted" }, "None planned just now."));
  }).catch(e => { if (e.status === 501) list.closest("section").hidden = true; else fill(list, h("li", { class: "error" }, "Cannot list the tournaments: " + e.message)); });
  return h("section", { class: "card", id: "home-events", "aria-labelledby": "events-h" },
    h("h2", { id: "events-h" }, "Tournaments"),
    h("p", {}, "Arenas and Swiss events, open to all: join one, or make your own."),
    list,
    h("div", { class: "row" }, h("a", { class: "button", href: "/tournaments", id: "home-events-all" }, "All tournaments")));
}

// codeBox is the "Join with a code" form: a code a friend read out opens
// its table's join page.
export function codeBox() {
  const inp = h("input", { id: "join-code", maxlength: 12, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "K7M-4PX", size: 10 });
  return h("form", { class: "card", id: "code-form", "aria-labelledby": "code-h", onsubmit: ev => { ev.preventDefault(); const v = inp.value.trim(); if (v) go("/j/" + encodeURIComponent(v)); } },
    h("h2", { id: "code-h" }, "Join with a code"),
    h("div", { class: "row" }, h("label", { for: "join-code" }, "Invite code"), inp, h("button", { type: "submit" }, "Join")));
}
