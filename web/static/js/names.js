// names.js: the account names a name being typed may mean, from
// GET /api/v1/players?q= (docs/players-api.md, "Finding a player"):
// offered under a name's field as it is typed, and listed where a name
// was not found.

import { h, fill } from "./dom.js";
import { call } from "./api.js";

// shape is what an account name may begin with: the server refuses any
// other start, so none is asked for.
const shape = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;

// namesLike returns up to limit account names that begin with prefix, in
// any case; none for a prefix no name could begin with.
export async function namesLike(prefix, limit = 10) {
  prefix = prefix.trim();
  if (!shape.test(prefix)) return [];
  const r = await call("GET", `/players?q=${encodeURIComponent(prefix)}&limit=${limit}`);
  return r.players.map(p => p.name);
}

// offerNames offers, under input, the account names that begin with what
// is typed in it (a datalist, which browsers and screen readers show as
// suggestions), asking the server once typing pauses. It returns the
// datalist, to be put beside the input.
export function offerNames(input) {
  const list = h("datalist", { id: input.id + "-names" });
  input.setAttribute("list", list.id);
  let timer = null, asked = "";
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = input.value.trim();
      if (q === asked) return;
      asked = q;
      let names = [];
      try { names = await namesLike(q); } catch { return; } // suggestions only: the field works without them
      if (asked !== q) return; // typed on meanwhile
      fill(list, names.map(n => h("option", { value: n })));
    }, 150);
  });
  return list;
}
