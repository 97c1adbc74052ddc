// challenge.js: the form that challenges a player (docs/protocol.md,
// "Challenges"), and the button that opens it on a profile or in the
// lobby. The challenge it sends shows in stream.js's banners.

import { h, fill, field } from "./dom.js";
import { call } from "./api.js";
import { games } from "./catalog.js";
import { handle } from "./stream.js";
import { optionControls, readOptions, clockControl, clockPresets, holdForRated } from "./options.js";
import { lexiconSelect } from "./lexicons.js";
import { offerNames } from "./names.js";

// challengeForm is the form that challenges a player: their name
// (prefilled from a profile or the online list), the game, its rule
// options at their defaults, a clock, the word list of a word game and
// whether it is rated. The
// server's refusal shows in place, in its words.
export async function challengeForm(to) {
  const gs = (await games()).filter(g => g.min_players <= 2 && g.max_players >= 2);
  const err = h("p", { class: "error", role: "alert", id: "challenge-error" });
  const sent = h("p", { class: "help", id: "challenge-sent", "aria-live": "polite" });
  const toIn = h("input", { id: "challenge-to", name: "to", value: to || "", maxlength: 20, autocomplete: "off", required: true });
  const gameSel = h("select", { id: "challenge-game", name: "game" }, gs.map(g => h("option", { value: g.name, selected: g.name === "nymphabet" }, g.title)));
  const opts = h("fieldset", { id: "challenge-rules" });
  const clock = clockControl("challenge-clock", clockPresets);
  const rated = h("input", { id: "challenge-rated", type: "checkbox" });
  const lexSel = lexiconSelect("challenge-lexicon");
  const lexBox = h("div", {}, field("Word list", lexSel, "Rated games use the default list."));
  const current = () => gs.find(g => g.name === gameSel.value);
  const drawOpts = () => {
    const g = current();
    fill(opts, h("legend", {}, `${g.title} rules`), g.options.length ? optionControls(g) : h("p", { class: "muted" }, "This game has no rule options."));
    lexBox.hidden = !g.words;
  };
  gameSel.addEventListener("change", () => { drawOpts(); held(); });
  drawOpts();
  const form = h("form", { class: "card stack challenge-form", id: "challenge-form", "aria-labelledby": "challenge-title", novalidate: true },
    h("h2", { id: "challenge-title" }, "Challenge a player"),
    field("Player's name", toIn), offerNames(toIn),
    field("Game", gameSel),
    opts,
    clock.element,
    lexBox,
    field("Rated game", rated, "Both ratings change when the game ends; the rules must then be the defaults (a few options, such as Nymphabet's mode, may change), and the word list the default."),
    err, sent,
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "challenge-send" }, "Send the challenge")));
  // A rated game keeps the options it may not change at their defaults.
  const held = () => holdForRated(form, current(), rated.checked, lexSel);
  rated.addEventListener("change", held);
  form.addEventListener("submit", async e => {
    e.preventDefault();
    err.textContent = "";
    sent.textContent = "";
    const g = current();
    const body = { to: toIn.value.trim(), game: g.name, rules: readOptions(form, g.options), rated: rated.checked };
    let c;
    try { c = clock.value(); } catch (ex) { err.textContent = ex.message; return; }
    if (c !== null) body.rules.clock = c;
    if (g.words && lexSel.value) body.lexicon = lexSel.value;
    // One challenge a click: the button rests until the server answers,
    // and says meanwhile that the challenge is on its way.
    const send = form.querySelector("#challenge-send");
    if (send.disabled) return;
    send.disabled = true;
    sent.textContent = "Sending…";
    try {
      const c = await call("POST", "/challenges", body);
      handle({ type: "challenge", challenge: c }); // the stream says it too; the banner shows once
      sent.textContent = `Challenge sent to ${c.to}; it waits up to 10 minutes for an answer.`;
    } catch (ex) {
      sent.textContent = "";
      err.textContent = ex.message;
    } finally {
      send.disabled = false;
    }
  });
  return form;
}

// challengeButton is a button that opens the challenge form in slot,
// prefilled with name: "Challenge" named for the player, or text when
// given (the lobby's "Challenge somebody by name").
export function challengeButton(name, slot, text) {
  return h("button", { type: "button", class: "challenge-open", "aria-label": text ? null : `Challenge ${name}`, onclick: async () => {
    try {
      const f = await challengeForm(name);
      fill(slot, f);
      f.querySelector(name ? "#challenge-game" : "#challenge-to").focus();
    } catch (e) { fill(slot, h("p", { class: "error" }, e.message)); }
  } }, text || "Challenge");
}
