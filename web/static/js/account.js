// account.js: the account screen (sign up, sign in, change password,
// delete the account, sign out) and the header's account link. The
// session is the HttpOnly cookie the server sets: this page never sees its
// token. While signed in the browser sends no guest token, so every table
// it makes or joins belongs to the account (see api.js identityToken).

import { h, field, append, fill, toast, plural } from "./dom.js";
import { call, signedIn, setSignedIn, mayBeSignedIn, forgetGuest, guestToken, sessionRefused } from "./api.js";
import { go } from "./nav.js";
import { accountLink } from "./top.js";

// header shows "Sign in" or the account's name in the header's menu.
export function header() {
  const slot = document.getElementById("account-slot");
  if (!slot) return;
  const name = signedIn();
  fill(slot, accountLink(name),
  // The moderators' page, for moderators only (the server checks).
  name && moderator ? [" ", h("a", { href: "/moderation", id: "moderation-link" }, "Moderation")] : null);
  // Challenges and the player stream: only while signed in, loaded then.
  if (name) stream(name, 1000);
  else if (streaming) import("./stream.js").then(m => { streaming = false; m.stop(); });
}

let streaming = false;
let moderator = false; // whether the account is a moderator, as the server last said
 // whether stream.js holds the player stream

// stream loads stream.js and opens the player stream for name. The
// import can fail when the network or the server blinks just then (a
// sign-up right before a restart did, in TestChallengeStreamReconnects),
// and nothing else would load it again: so it tries again, waiting 1 s
// doubling to 30 s, for as long as name stays signed in. Browsers no
// longer keep a failed import (whatwg/html#10327), so the same URL does.
function stream(name, wait) {
  import("./stream.js").then(m => { streaming = true; m.start(name); }).catch(() => {
    setTimeout(() => { if (signedIn() === name) stream(name, Math.min(wait * 2, 30000)); }, wait);
  });
}

// refresh asks the server who the cookie signs in as, so that a session
// that ended elsewhere (signed out on another device, password changed)
// shows as signed out here.
export async function refresh() {
  if (!mayBeSignedIn()) { setSignedIn(""); header(); return; }
  try {
    const a = await call("GET", "/account");
    setSignedIn(a.name);
    moderator = !!a.moderator;
  } catch (e) {
    if (e.status === 401 || e.status === 403) setSignedIn("");
  }
  header();
}

// ended is told by the player stream (sessionRefused) that the server
// refused this browser's session (signed out on another device, the
// password changed or given anew by the operator, left unused too long):
// it asks who the cookie signs in as, and if nobody, says so at once
// rather than at the next page. The account page shows the sign-in form
// then; any other screen (a table in play) stays as it is.
async function ended() {
  const was = signedIn();
  await refresh();
  if (!was || signedIn()) return;
  toast(`You are signed out as ${was}: your session has ended. Sign in again to play as ${was}.`, 10000);
  if (location.pathname === "/account") go("/account", true);
}

window.addEventListener(sessionRefused, () => { ended(); });

// form is a card holding a form of its own, its error line and its submit
// button; kind is the button's class: "primary", or "danger" for what
// cannot be undone.
function form(title, id, fields, submit, onsubmit, kind = "primary") {
  const err = h("p", { class: "error", role: "alert", id: id + "-error" });
  const f = h("form", { class: "card stack", id, "aria-labelledby": id + "-title", novalidate: true, onsubmit: async e => {
    e.preventDefault();
    err.textContent = "";
    try { await onsubmit(f); } catch (ex) { err.textContent = ex.message; }
  } }, h("h2", { id: id + "-title" }, title), fields, err, h("button", { class: kind, type: "submit" }, submit));
  return f;
}

// MAX_PASSWORD is the longest password the server takes (in bytes; a
// field counts characters, so no password the API accepts is cut short
// here and then refused at sign-in).
const MAX_PASSWORD = 1024;

const input = (id, type, auto, label, help) => field(label, h("input", { id, name: id, type, autocomplete: auto, required: true, maxlength: type === "password" ? MAX_PASSWORD : 20 }), help);

// forgot is the form that asks for a link to choose a new password, mailed
// to the account's confirmed address; the server's answer is the same
// whether the account has one or not. It shows only on a server that
// mails such links.
function forgot() {
  const sent = h("p", { role: "status", id: "forgot-sent" });
  const f = form("Forgot your password?", "forgot", [
    h("p", { class: "help" }, "A link to choose a new one goes to the account's e-mail address, if it gave one and confirmed it."),
    input("forgot-name", "text", "username", "Name"),
    sent,
  ], "Mail me a link", async f => {
    sent.textContent = "";
    const a = await call("POST", "/password-reset", { name: f.elements["forgot-name"].value.trim() });
    sent.textContent = a.status.charAt(0).toUpperCase() + a.status.slice(1) + ".";
  });
  f.hidden = true;
  call("GET", "/password-reset").then(a => { f.hidden = !a.offered; f.dataset.offered = String(!!a.offered); }).catch(() => {});
  return f;
}

// reset is the page a password reset link opens: the new password, sent
// with the link's token; once it is set every session of the account is
// signed out, this browser's too.
export async function reset(main) {
  document.title = "Choose a new password · Parlour";
  const token = new URLSearchParams(location.search).get("token") || "";
  append(main, h("h1", {}, "Choose a new password"));
  if (!token) {
    append(main, h("p", { class: "error", role: "alert" }, "This page needs the whole link from the mail: open it again from there, or ask for a new one on the sign-in page."),
      h("p", {}, h("a", { href: "/account" }, "Sign in or ask for a link")));
    return;
  }
  const done = h("div", { id: "reset-done", role: "status" });
  const f = form("Your new password", "reset", [
    input("reset-password", "password", "new-password", "New password", "At least 8 characters, not a common password, without your name in it. Every device signed in to the account is signed out."),
  ], "Set the password", async f => {
    const a = await call("POST", "/password-reset/confirm", { token, password: f.elements["reset-password"].value });
    await refresh(); // a session of the account here has ended too
    f.remove();
    append(done, h("p", {}, `The password of ${a.name} is changed, and every device signed in to it is signed out.`),
      h("p", {}, h("a", { class: "button primary", href: "/account", id: "reset-signin" }, "Sign in")));
  });
  append(main, f, done);
}

export async function account(main) {
  document.title = "Your account · Parlour";
  await refresh();
  const name = signedIn();
  if (!name) {
    append(main, h("h1", {}, "Sign up or sign in"),
      h("p", {}, "An account keeps your games on every device and gives you ratings. ",
        "Signing up makes this browser's guest the account: every game it played becomes the account's."),
      h("div", { class: "cards" },
        form("Sign up", "signup", [
          input("signup-name", "text", "username", "Name", "3 to 20 letters, digits, _ or -; nobody else may have it in any case."),
          input("signup-password", "password", "new-password", "Password", "At least 8 characters, not a common password, without your name in it."),
        ], "Sign up", async f => {
          const body = { name: f.elements["signup-name"].value.trim(), password: f.elements["signup-password"].value };
          const a = await call("POST", "/accounts", body, guestToken());
          forgetGuest();
          setSignedIn(a.name);
          toast(`Signed up as ${a.name}`);
          header();
          go("/players/" + encodeURIComponent(a.name), true);
        }),
        form("Sign in", "signin", [
          input("signin-name", "text", "username", "Name"),
          input("signin-password", "password", "current-password", "Password"),
        ], "Sign in", async f => {
          const body = { name: f.elements["signin-name"].value.trim(), password: f.elements["signin-password"].value };
          const a = await call("POST", "/sessions", body);
          setSignedIn(a.name);
          toast(`Signed in as ${a.name}`);
          header();
          go("/", true);
        }),
        forgot()));
    return;
  }
  append(main, h("h1", {}, "Your account: ", name),
    h("div", { class: "row" },
      h("a", { class: "button", href: "/players/" + encodeURIComponent(name), id: "my-profile" }, "Your profile"),
      h("button", { type: "button", id: "signout", onclick: signOut }, "Sign out"),
      h("button", { type: "button", id: "signout-others", onclick: signOutOthers }, "Sign out everywhere else")),
    settings(),
    email(),
    sshKeys(),
    blockedSlot(),
    h("div", { class: "cards" },
      form("Change your password", "chpw", [
        input("chpw-old", "password", "current-password", "Current password"),
        input("chpw-new", "password", "new-password", "New password", "At least 8 characters, not a common password, without your name in it. Your other devices are signed out."),
      ], "Change the password", async f => {
        await call("PUT", "/account/password", { password: f.elements["chpw-old"].value, new_password: f.elements["chpw-new"].value });
        f.reset();
        toast("Password changed");
      }),
      form("Delete your account", "delacct", [
        h("p", {}, "Your ratings and history go; your finished games stay, under “deleted player”. Finish or resign your games first."),
        input("delacct-password", "password", "current-password", "Password"),
        field("I understand that this cannot be undone", h("input", { type: "checkbox", id: "delacct-sure", required: true })),
      ], "Delete the account", async f => {
        if (!f.elements["delacct-sure"].checked) throw new Error("tick the box to say you mean it");
        await call("DELETE", "/account", { password: f.elements["delacct-password"].value });
        setSignedIn("");
        header();
        toast("Account deleted");
        go("/", true);
      }, "danger")));
}

// settings is the account's stored settings (GET/PUT
// /api/v1/account/settings): whether it hides from the list of players
// online, and whether guests may write in the chat of its tables.
function settings() {
  const hide = setting("hidden", "hide-online", " Hide me from the list of players online",
    "You still count among the players online; your name is not shown.",
    on => on ? "Hidden: your name no longer shows among the players online." : "Shown: your name shows among the players online.");
  const guests = setting("guest_chat", "guest-chat", " Let guests write in the chat of my tables",
    "Off, only players with accounts may write in the players' and the spectators' chat where you sit.",
    on => on ? "Guests may write in the chat of your tables." : "Only players with accounts may write in the chat of your tables now.");
  call("GET", "/account/settings").then(s => { hide.show(s); guests.show(s); }).catch(e => { hide.fail(e); guests.fail(e); });
  return h("section", { class: "card", id: "settings", "aria-labelledby": "settings-title" }, h("h2", { id: "settings-title" }, "Settings"),
    hide.field, guests.field);
}

// setting is one box of the settings card: key is its field in the
// settings, id its element's, label and help what it says, said what it
// says once changed (given the new value).
function setting(key, id, label, help, said) {
  const msg = h("p", { class: "help", id: id + "-help", "aria-live": "polite" }, help);
  const box = h("input", { type: "checkbox", id, disabled: true, "aria-describedby": id + "-help" });
  box.addEventListener("change", async () => {
    const want = box.checked;
    box.disabled = true;
    try {
      const s = await call("PUT", "/account/settings", { [key]: want });
      box.checked = !!s[key];
      msg.textContent = said(!!s[key]);
    } catch (e) { box.checked = !want; msg.textContent = e.message; }
    box.disabled = false;
  });
  return {
    field: h("div", { class: "field" }, h("label", { for: id }, box, label), msg),
    show: s => { box.checked = !!s[key]; box.disabled = false; },
    fail: e => { msg.textContent = e.message; },
  };
}

// email is the account's e-mail: an address, confirmed by a link mailed
// to it, and the kinds of mail it wants (GET, PUT, DELETE
// /api/v1/account/email). Nothing is stored until the player saves an
// address.
function email() {
  const status = h("p", { class: "help", id: "email-status", "aria-live": "polite" });
  const msg = h("p", { class: "error", role: "alert", id: "email-error" });
  const addr = h("input", { type: "email", id: "email-address", autocomplete: "email", placeholder: "you@example.org" });
  // A new address needs the password: the links that choose a new
  // password go to it, so a session alone may not change it.
  const pw = h("input", { type: "password", id: "email-password", autocomplete: "current-password", maxlength: MAX_PASSWORD });
  const kinds = [["your_move", "When it is my move and I am away"], ["game_end", "When a game of mine ends"], ["challenge", "When someone challenges me"]];
  const boxes = Object.fromEntries(kinds.map(([k]) => [k, h("input", { type: "checkbox", id: "email-" + k.replace("_", "-"), checked: true })]));
  const remove = h("button", { type: "button", id: "email-remove", hidden: true, onclick: async () => {
    msg.textContent = "";
    try { await call("DELETE", "/account/email"); toast("E-mail address removed"); load(); } catch (e) { msg.textContent = e.message; }
  } }, "Remove the address");
  const save = h("form", { id: "email-form", class: "stack", novalidate: true, hidden: true, onsubmit: async e => {
    e.preventDefault();
    msg.textContent = "";
    const body = { address: addr.value.trim() };
    if (pw.value) body.password = pw.value;
    for (const [k] of kinds) body[k] = boxes[k].checked;
    try {
      const s = await call("PUT", "/account/email", body);
      pw.value = "";
      show(s);
      toast(s.verified ? "E-mail choices saved" : `A confirmation link was mailed to ${s.address}`);
    } catch (ex) { msg.textContent = ex.message; }
  } }, field("Address", addr), kinds.map(([k, label]) => field(label, boxes[k])),
  field("Your password", pw, "Needed to give or change the address, which is where a link to choose a new password would go."), h("button", { type: "submit" }, "Save"));
  const show = s => {
    save.hidden = !s.offered;
    remove.hidden = !s.address;
    addr.value = s.address || "";
    for (const [k] of kinds) boxes[k].checked = s.address ? !!s[k] : true;
    status.textContent = !s.offered ? "This server sends no e-mail." + (s.address ? ` It keeps ${s.address} until you remove it.` : "")
      : !s.address ? "No address given: Parlour keeps none and mails you nothing."
      : s.verified ? `${s.address} is confirmed.` : `${s.address} waits for confirmation: open the link mailed to it.`;
  };
  const load = () => call("GET", "/account/email").then(show).catch(e => { msg.textContent = e.message; });
  load();
  return h("section", { class: "card", id: "email", "aria-labelledby": "email-title" }, h("h2", { id: "email-title" }, "E-mail"),
    h("p", { class: "help" }, "Parlour can mail you about your games. Every message has a link that stops them. A confirmed address is also how you choose a new password if you forget yours."),
    status, save, msg, remove);
}

// when says a moment as the player's clock and calendar have it.
const when = t => new Date(t).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

// blockedSlot holds the list of players the account blocks, loaded with
// follows.js only here.
function blockedSlot() {
  const slot = h("div", { id: "blocked-slot" });
  import("./follows.js").then(m => slot.replaceWith(m.blockedList())).catch(e => fill(slot, h("p", { class: "error" }, e.message)));
  return slot;
}

// sshKeys lists the account's SSH keys, with when each was added and last
// signed in at the SSH door, so that a key nobody expected shows, and
// lets the player add and delete them (GET, POST, DELETE /api/v1/keys).
function sshKeys() {
  const list = h("ul", { class: "stack", id: "ssh-keys", "aria-live": "polite" });
  const msg = h("p", { class: "error", role: "alert", id: "ssh-key-error" });
  const show = async () => {
    try {
      const { keys } = await call("GET", "/keys");
      fill(list, keys.length ? keys.map(k => h("li", { class: "ssh-key" },
        h("code", { class: "fingerprint" }, k.fingerprint), " ", k.type, k.comment ? ` (${k.comment})` : "",
        h("br"), h("span", { class: "help" }, `added ${when(k.added)}; `,
          !k.confirmed ? "not confirmed yet: it signs you in once you connect over SSH with it and type your password there"
            : k.used ? `last signed in ${when(k.used)}` : "never used yet"), " ",
        h("button", { type: "button", class: "delete-key", "aria-label": `Delete the key ${k.fingerprint}`, onclick: async () => {
          if (!window.confirm(`Delete the key ${k.fingerprint}? It will no longer sign you in over SSH.`)) return;
          try { await call("DELETE", "/keys/" + encodeURIComponent(k.fingerprint)); toast("Key deleted"); show(); } catch (e) { msg.textContent = e.message; }
        } }, "Delete")))
        : h("li", { class: "help" }, "No keys yet: add one to play over SSH without a password."));
    } catch (e) { msg.textContent = e.message; }
  };
  show();
  const text = h("textarea", { id: "ssh-key-text", rows: 3, spellcheck: "false", placeholder: "ssh-ed25519 AAAA… you@host" });
  // A key signs in without a password and outlives a new one: a session
  // alone may not add one.
  const pw = h("input", { type: "password", id: "ssh-key-password", autocomplete: "current-password", maxlength: MAX_PASSWORD });
  const add = h("form", { id: "ssh-key-add", class: "stack", novalidate: true, onsubmit: async e => {
    e.preventDefault();
    msg.textContent = "";
    if (text.value.includes("PRIVATE KEY")) {
      // Refused here, not by the server: a private key is sent nowhere,
      // and taken off the page.
      text.value = "";
      msg.textContent = "That is your private key: it is not sent, and you should not show it anywhere. Paste the public one (the .pub file).";
      return;
    }
    try {
      const k = await call("POST", "/keys", { key: text.value.trim(), password: pw.value });
      text.value = pw.value = "";
      toast(k.confirmed ? `Key ${k.fingerprint} added` : `Key ${k.fingerprint} added: connect over SSH with it once and type your password there to confirm it`);
      show();
    } catch (ex) { msg.textContent = ex.message; }
  } }, field("Add a public key (the .pub file, one line)", text),
  field("Your password", pw, "Needed to add a key, which signs you in without one."), msg, h("button", { type: "submit" }, "Add the key"));
  return h("section", { class: "card", id: "ssh-keys-card", "aria-labelledby": "ssh-keys-title" },
    h("h2", { id: "ssh-keys-title" }, "SSH keys"),
    h("p", { class: "help" }, "A key listed here signs you in at the SSH door without a password, once confirmed: the first time you connect with it, the door asks your password, which shows the key is yours (anyone may paste a public key)."),
    list, add);
}

// signOut ends the session. The cookie is HttpOnly: only the server can
// clear it, so ask even when the session has already ended elsewhere.
// signOutOthers ends every other session of the account (another
// browser, a terminal, a device lost), and says how many there were.
async function signOutOthers() {
  try {
    const r = await call("DELETE", "/account/sessions");
    toast(r.ended ? `Signed out of ${plural(r.ended, "other session")}` : "No other session was signed in");
  } catch (e) { toast(e.message); }
}

export async function signOut() {
  try { await call("DELETE", "/sessions"); } catch (e) { if (e.status !== 401) toast(e.message); }
  setSignedIn("");
  header();
  toast("Signed out");
  go("/", true);
}
