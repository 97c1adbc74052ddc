// home.js: the home screen (pick a game, your recent games) and the new
// table form (rule options, seats, your name).

import { h, field, toast, fill, append } from "./dom.js";
import { call, games, gameInfo, myName, setMyName, rememberSeat, recent, identityToken } from "./api.js";
import { go } from "./main.js";

const blurbs = {
  quizl: "Word battleships on a 5×5 letter grid: find the hidden five-letter password with as few calls as you can.",
  salvo: "Battleship with five-shot salvos whose reports say which ships were hit, never by which shot.",
  wordfight: "Everyone builds a secret crossword from one public list of words; a word nobody could fit is a strike.",
  nymphabet: "Alphabet take-away: each word starts at the next undeleted letter and deletes the run it holds in order.",
};

export async function home(main) {
  append(main, h("h1", {}, "Pick a game"));
  const list = h("div", { class: "cards" });
  append(main, list);
  try {
    for (const g of await games()) {
      append(list, h("section", { class: "card", "aria-labelledby": "g-" + g.name },
        h("h2", { id: "g-" + g.name }, g.title),
        h("p", {}, blurbs[g.name] || ""),
        h("p", { class: "muted" }, g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`),
        h("div", { class: "row" },
          h("a", { class: "button primary", href: "/new/" + g.name, "aria-label": "New table of " + g.title }, "New table"),
          g.name === "salvo" ? h("a", { href: "/new/salvo?practice", id: "salvo-practice", "aria-label": "Practise Salvo alone against a hidden fleet" }, "Practise") : null,
          h("a", { href: "/rules/" + g.name, "aria-label": g.title + " rules" }, "Rules"))));
    }
  } catch (e) {
    append(list, h("p", { class: "error" }, "Cannot list the games: " + e.message));
  }
  const open = h("div", { id: "home-lobby" });
  append(main, h("h2", {}, "Open tables"), open);
  call("GET", "/tables?status=open&limit=5").then(ts => {
    if (!ts || !ts.length) { append(open, h("p", { class: "muted" }, "Nobody is waiting for a player right now.")); return; }
    append(open, h("ul", {}, ts.map(t => h("li", {}, h("a", { href: "/t/" + t.id, "aria-label": `Join ${t.title} table ${t.id}` }, t.title), " with ",
      t.seats.filter(x => x.kind !== "open").map(x => x.name).join(", ") || "nobody yet"))),
      h("p", {}, h("a", { href: "/lobby" }, "The whole lobby")));
  }).catch(e => append(open, h("p", { class: "error" }, "Cannot list the open tables: " + e.message)));
  const mine = recent();
  append(main, h("h2", {}, "Your recent games"));
  if (!mine.length) {
    append(main, h("p", { class: "muted" }, "None yet. Games you play in this browser appear here."));
  } else {
    append(main, h("ul", { class: "recent" }, mine.map(r =>
      h("li", {}, h("a", { href: "/t/" + r.table }, `${title(r.game)} · table ${r.table}`),
        " ", h("span", { class: "muted" }, new Date(r.at).toLocaleString(), r.result ? " · " + r.result : "")))));
  }
}

const title = n => ({ quizl: "Quizl", salvo: "Salvo", wordfight: "Sightless Word Fight", nymphabet: "Nymphabet" }[n] || n || "Game");

// optionControl renders one rule option as a form control.
function optionControl(o) {
  const id = "opt-" + o.name;
  const label = o.name.replace(/_/g, " ");
  let c;
  switch (o.kind) {
    case "int":
      c = h("input", { id, name: o.name, type: "number", min: o.min, max: o.max, step: 1, value: o.default, required: true, inputmode: "numeric" });
      return field(`${label} (${o.min}–${o.max}, default ${o.default})`, c, o.help);
    case "bool":
      c = h("input", { id, name: o.name, type: "checkbox", checked: o.default });
      return field(`${label} (default ${o.default ? "on" : "off"})`, c, o.help);
    case "choice":
      c = h("select", { id, name: o.name }, o.choices.map(v => h("option", { value: v, selected: v === o.default }, v)));
      return field(`${label} (default ${o.default})`, c, o.help);
    default:
      c = h("input", { id, name: o.name, type: "text", value: o.default ?? "", autocomplete: "off" });
      return field(`${label}${o.default ? ` (default ${o.default})` : ""}`, c, o.help);
  }
}

function readOptions(form, opts) {
  const rules = {};
  for (const o of opts) {
    const el = form.elements[o.name];
    if (!el) continue;
    let v;
    if (o.kind === "int") v = Number(el.value);
    else if (o.kind === "bool") v = el.checked;
    else v = el.value;
    if (v !== o.default) rules[o.name] = v;
  }
  return rules;
}

const levels = ["easy", "medium", "strong"];

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
  let others = g.min_players <= 1 && g.name === "quizl" ? [] : ["open"];
  if (g.min_players >= 2 && others.length < g.min_players - 1) others = Array(g.min_players - 1).fill("open");
  if (g.name === "salvo" && new URLSearchParams(location.search).has("practice")) others = []; // the home page's "Practise"
  const seatsBox = h("div", { id: "seats" });
  const drawSeats = () => {
    fill(seatsBox, 
      h("p", {}, "Seat 1: you"),
      others.length === 0 ? h("p", { class: "muted" }, g.name === "quizl" ? "Solitaire: you against a grid the computer makes."
        : g.name === "salvo" ? "Practice: you fire at a fleet the computer hides; it never fires back, so you can learn to read the reports." : "You play alone.") : null,
      others.map((s, i) => {
        const sel = h("select", { id: "seat-" + (i + 2), "aria-label": `Seat ${i + 2}` },
          h("option", { value: "open", selected: s === "open" }, "A friend (invite link)"),
          levels.map(l => h("option", { value: "computer:" + l, selected: s === "computer:" + l }, `The computer, ${l}`)));
        sel.addEventListener("change", () => { others[i] = sel.value; });
        return h("div", { class: "row" }, h("label", { for: sel.id }, `Seat ${i + 2}:`), sel,
          others.length + 1 > g.min_players ? h("button", { type: "button", "aria-label": `Remove seat ${i + 2}`, onclick: () => { others.splice(i, 1); drawSeats(); } }, "Remove") : null);
      }),
      others.length + 1 < g.max_players ? h("button", { type: "button", onclick: () => { others.push("open"); drawSeats(); } }, "Add a seat") : null);
  };
  drawSeats();
  const preset = (label, seats) => h("button", { type: "button", onclick: () => { others = seats; drawSeats(); } }, label);

  const form = h("form", { class: "stack", novalidate: true },
    h("fieldset", {}, h("legend", {}, "Who plays"),
      h("div", { class: "row" },
        g.max_players >= 2 ? preset("A friend", ["open"]) : null,
        g.max_players >= 2 ? preset("The computer", ["computer:medium"]) : null,
        g.min_players <= 1 && g.name === "quizl" ? preset("Solitaire", []) : null,
        g.min_players <= 1 && g.name === "salvo" ? preset("Practice", []) : null),
      seatsBox),
    g.options.length ? h("fieldset", {}, h("legend", {}, "Rule options"), g.options.map(optionControl)) : null,
    field("Your name", nameInput, "Shown to the other players; leave blank to be a guest."),
    err,
    h("button", { class: "primary", type: "submit" }, "Open the table"));
  form.addEventListener("submit", async e => {
    e.preventDefault();
    err.textContent = "";
    if (!form.reportValidity()) return;
    const myname = nameInput.value.trim();
    setMyName(myname);
    const body = { game: g.name, rules: readOptions(form, g.options), seats: ["me", ...others] };
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
