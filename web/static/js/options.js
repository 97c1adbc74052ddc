// options.js: a game's rule options as form controls, for the two forms
// that set them: the new table form (home.js) and the challenge form
// (challenge.js). Each option comes from the game's entry in
// /api/v1/games (catalog.js), with its kind, range, default and help.

import { h, field } from "./dom.js";
import { optionLabel } from "./rulestext.js";

// optionControl renders one rule option as a form control, labelled with
// its name in words, its range and its default. The control's name is the
// option's, which readOptions reads back.
export function optionControl(o) {
  const id = "opt-" + o.name;
  const label = optionLabel(o.name);
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
