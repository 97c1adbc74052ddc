// rules.js: each game's rules, read from the project's docs/rules.

import { h, append } from "./dom.js";
import { markdown } from "./md.js";

export async function rules(main, name) {
  const page = name || "index";
  const res = await fetch(`/rules/${page}.md`);
  if (!res.ok) {
    append(main, h("h1", {}, "No such rules"), h("p", {}, h("a", { href: "/rules" }, "All the rules")));
    return;
  }
  const doc = h("article", { class: "doc" });
  doc.innerHTML = markdown(await res.text()); // markdown() escapes the text
  append(main, doc);
  const h1 = doc.querySelector("h1, h2");
  if (h1) document.title = h1.textContent + " · Parlour";
  if (name) append(main, h("p", {}, h("a", { class: "button primary", href: "/new/" + name }, "Open a table"), " ", h("a", { href: "/rules" }, "All the rules")));
}
