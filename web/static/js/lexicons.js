// lexicons.js: the choice of word list on the forms that make a table of a
// word game (the new-table form, the challenge form).

import { h } from "./dom.js";
import { lexicons } from "./catalog.js";

const count = n => n.toLocaleString("en-GB") + (n === 1 ? " word" : " words");

// lexiconSelect is a select of the server's word lists, the default
// chosen, with id; read its value as the table's "lexicon". Until the
// lists arrive it offers the default alone.
export function lexiconSelect(id) {
  const sel = h("select", { id, name: "lexicon" }, h("option", { value: "" }, "The default list"));
  sel.dataset.default = "";
  lexicons().then(ans => {
    sel.dataset.default = ans.default;
    // Held at the default (a rated game's): the default it now names.
    if (sel.dataset.chosen !== undefined) sel.dataset.chosen = JSON.stringify(ans.default);
    sel.replaceChildren(...ans.lexicons.map(l => h("option", { value: l.name, selected: l.name === ans.default },
      `${l.title} (${l.name}, ${count(l.words)})${l.name === ans.default ? ", the default" : ""}`)));
  }, () => { /* the default list is offered alone */ });
  return sel;
}
