// top.js: the site's header, on the client's pages and on those the
// server draws (the rules). On a phone its links fold into a menu (see
// app.css): the Menu button opens it, and following a link or Escape
// shuts it. Without this module the links stay unfolded and the account
// link reads "Sign in", which is why a page the server draws loads it
// too: there it names the account this browser is signed in as.

import { signedIn } from "./api.js";
import { h, fill } from "./dom.js";

const top = document.querySelector("header.top");
const menuButton = document.getElementById("menu-toggle");

// menu opens or shuts the header's menu on a phone.
export function menu(open) {
  if (!top || !menuButton) return;
  top.classList.toggle("menu-open", open);
  menuButton.setAttribute("aria-expanded", String(open));
}

if (top && menuButton) {
  top.classList.add("menu-ready");
  menuButton.addEventListener("click", () => menu(menuButton.getAttribute("aria-expanded") !== "true"));
  // Where the links fold (app.css, the same width), the account is drawn
  // between the brand and the Menu button, the links under them; wider,
  // after the links at the line's end. The Tab key goes by the
  // document's order, not the drawing's (with CSS order it went brand,
  // Menu, links, account on a phone), so the account itself moves: in
  // front of the Menu button while the links fold, last otherwise, as
  // index.html has it for a page without this script.
  const narrow = matchMedia("(max-width: 48rem)");
  const placeAccount = () => {
    const slot = document.getElementById("account-slot");
    if (!slot || slot.parentElement !== top) return;
    const at = narrow.matches ? menuButton : null;
    if (slot.nextElementSibling === at) return;
    // A focused element moved in the document loses the focus: the
    // keyboard stays on the account when the width changes under it.
    const focused = slot.contains(document.activeElement) ? document.activeElement : null;
    top.insertBefore(slot, at);
    if (focused) focused.focus();
  };
  placeAccount();
  narrow.addEventListener("change", placeAccount);
}
if (top) top.addEventListener("keydown", e => { if (e.key === "Escape" && top.classList.contains("menu-open")) { menu(false); menuButton.focus(); } });

// accountLink is the header's link to the account screen: the account's
// name while signed in, else "Sign in".
export function accountLink(name) {
  return name
    ? h("a", { href: "/account", id: "account-link", "aria-label": `Your account, ${name}` }, name)
    : h("a", { href: "/account", id: "account-link" }, "Sign in");
}

// The account this browser last signed in as, until the client's own
// header (account.js), which asks the server, draws it again.
const slot = document.getElementById("account-slot");
if (slot && signedIn()) fill(slot, accountLink(signedIn()));
