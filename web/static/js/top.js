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
