// options.js: a game's rule options as form controls, for the two forms
// that set them: the new table form (home.js) and the challenge form
// (challenge.js). Each option comes from the game's entry in
// /api/v1/games (catalog.js), with its kind, range, default and help.

import { h, field, append } from "./dom.js";
import { optionLabel } from "./rulestext.js";
import { optionEditor } from "./games/index.js";

// optionControl renders one rule option as a form control, labelled with
// its label, its range and its default. The control's name is the
// option's, which readOptions reads back.
function optionControl(o) {
  const id = "opt-" + o.name;
  const label = optionLabel(o.name, o);
  let c;
  switch (o.kind) {
    case "int": {
      const lo = o.min ?? 0, hi = o.max;
      c = h("input", { id, name: o.name, type: "number", min: lo, max: hi, step: 1, value: o.default, required: true, inputmode: "numeric" });
      return field(`${label} (${hi === undefined ? `at least ${lo}` : `${lo}–${hi}`}, default ${o.default})`, c, o.help);
    }
    case "bool":
      c = h("input", { id, name: o.name, type: "checkbox", checked: o.default });
      return field(`${label} (default ${o.default ? "on" : "off"})`, c, o.help);
    case "choice":
      c = h("select", { id, name: o.name }, o.choices.map(v => h("option", { value: v, selected: v === o.default }, v.replace(/_/g, " "))));
      return field(`${label} (default ${String(o.default).replace(/_/g, " ")})`, c, o.help);
    default:
      c = h("input", { id, name: o.name, type: "text", value: o.default ?? "", autocomplete: "off" });
      return field(`${label}${o.default ? ` (default ${o.default})` : " (default none)"}`, c, o.help);
  }
}

// optionControls renders every rule option of game g (optionControl's
// fields) and, for a game that draws an option better than as text (Word
// Fight's board shape), adds the drawing beside it once its module has
// loaded; the controls stay what the form reads.
export function optionControls(g) {
  const fields = g.options.map(optionControl);
  const editor = optionEditor(g.name);
  if (editor) editor.then(m => m.attach(fields)).catch(() => { /* the text box alone still sets it */ });
  return fields;
}

// readOptions reads the rule options of form that differ from their
// defaults, as the server takes them.
export function readOptions(form, opts) {
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

// holdForRated holds, while rated, the controls in form of g's options a
// rated game keeps at their defaults (those g.rated_options does not
// name) and the word list select lexSel at the default list: each shows
// its default, disabled, with a note saying why, so that the form sends
// nothing the server refuses. Not rated, what was chosen before comes
// back. A server that does not say which options a rated game may change
// has nothing held.
export function holdForRated(form, g, rated, lexSel) {
  if (!g || !Array.isArray(g.rated_options)) return;
  for (const o of g.options) {
    const el = form.elements[o.name];
    if (el && !g.rated_options.includes(o.name)) hold(el, o.default, rated);
  }
  if (lexSel) hold(lexSel, lexSel.dataset.default ?? "", rated);
}

// hold puts control el at def and disables it (on), or gives back what it
// held before (off), and tells el's listeners (a "parlour:held" event) so
// that a drawing of the option follows.
function hold(el, def, on) {
  const box = el.closest(".field");
  const note = box && box.querySelector(".rated-held");
  const check = el.type === "checkbox";
  if (on && el.dataset.chosen === undefined) {
    el.dataset.chosen = JSON.stringify(check ? el.checked : el.value);
    if (check) el.checked = !!def;
    else el.value = String(def);
    el.disabled = true;
    el.dispatchEvent(new Event("parlour:held"));
    if (box && !note) {
      // Read with the control, as its help is.
      const id = el.id + "-rated";
      append(box, h("p", { class: "help rated-held", id }, "A rated game keeps this at its default."));
      el.setAttribute("aria-describedby", [el.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
    }
  } else if (!on && el.dataset.chosen !== undefined) {
    const v = JSON.parse(el.dataset.chosen);
    if (check) el.checked = v;
    else el.value = v;
    delete el.dataset.chosen;
    el.disabled = false;
    el.dispatchEvent(new Event("parlour:held"));
    if (note) {
      const rest = (el.getAttribute("aria-describedby") || "").split(" ").filter(x => x && x !== note.id).join(" ");
      if (rest) el.setAttribute("aria-describedby", rest);
      else el.removeAttribute("aria-describedby");
      note.remove();
    }
  }
}

// clockControl is the clock picker of the two forms: no clock, presets
// of each kind (seconds a turn, Fischer's time for the game plus a bonus
// a move, correspondence's days a move), or one's own of each kind. id is
// the select's id; its own fields are id-seconds, id-initial,
// id-increment and id-days. value() answers the clock as the server takes
// it (a number of seconds a turn, or a clock object), null for none, or
// throws a player's words when a field is not a number. The server
// checks the bounds and says what is wrong in its words.
export function clockControl(id, presets) {
  const sel = h("select", { id, "aria-describedby": id + "-help" },
    [["none", "No clock"], ...presets, ["custom", "Other time a turn…"], ["fischer", "Other time for the game plus a bonus a move…"], ["correspondence", "Other days a move…"]]
      .map(([v, t]) => h("option", { value: v }, t)));
  const num = (suffix, value) => h("input", { id: `${id}-${suffix}`, type: "number", step: 1, value, inputmode: "numeric" });
  const seconds = num("seconds", 120), initial = num("initial", 300), increment = num("increment", 3), days = num("days", 2);
  const boxes = {
    custom: h("div", { hidden: true }, field("Seconds a turn (10 to 604800, 7 days)", seconds)),
    fischer: h("div", { hidden: true },
      field("Seconds for the whole game (10 to 86400, a day)", initial),
      field("Seconds added for each move (0 to 3600)", increment)),
    correspondence: h("div", { hidden: true }, field("Days a move (1 to 14)", days)),
  };
  const help = h("p", { class: "help", id: id + "-help" }, "With a clock, a player whose time runs out loses (or, in Word Fight, cannot place the word). With time for the game, each player's time runs only on their turn, and each move adds the bonus. Without a clock, a player who walks away for 5 minutes on their turn can be claimed against.");
  sel.addEventListener("change", () => { for (const [k, b] of Object.entries(boxes)) b.hidden = sel.value !== k; });
  const whole = (el, what) => {
    const n = Number(el.value);
    if (el.value.trim() === "" || !Number.isFinite(n)) { el.focus(); throw new Error(`the clock needs a number of ${what}`); }
    return n;
  };
  const value = () => {
    const v = sel.value;
    if (v === "none") return null;
    if (v === "custom") return whole(seconds, "seconds a turn");
    if (v === "fischer") return { kind: "fischer", initial: whole(initial, "seconds for the game"), increment: whole(increment, "seconds added a move") };
    if (v === "correspondence") return { kind: "correspondence", days: whole(days, "days a move") };
    return JSON.parse(v); // a preset: a number, or a clock object
  };
  return { element: h("div", {}, field("Clock", sel), boxes.custom, boxes.fischer, boxes.correspondence, help), value };
}

// clockPresets are the clocks the forms offer at a click.
export const clockPresets = [
  ["30", "30 seconds a turn"], ["60", "1 minute a turn"], ["300", "5 minutes a turn"],
  [JSON.stringify({ kind: "fischer", initial: 60, increment: 0 }), "1+0: 1 minute for the game"],
  [JSON.stringify({ kind: "fischer", initial: 180, increment: 2 }), "3+2: 3 minutes for the game, 2 seconds a move"],
  [JSON.stringify({ kind: "fischer", initial: 300, increment: 3 }), "5+3: 5 minutes for the game, 3 seconds a move"],
  [JSON.stringify({ kind: "fischer", initial: 900, increment: 10 }), "15+10: 15 minutes for the game, 10 seconds a move"],
  [JSON.stringify({ kind: "correspondence", days: 1 }), "1 day a move"],
  [JSON.stringify({ kind: "correspondence", days: 2 }), "2 days a move"],
  [JSON.stringify({ kind: "correspondence", days: 7 }), "7 days a move"],
];
