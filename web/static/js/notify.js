// notify.js: telling a player it is their turn while they look at another
// tab: a short sound made with WebAudio (no file is fetched) and a desktop
// notification (the Notification API). Both are off until the player turns
// them on, and the choice is remembered by this browser.

import { h, toast } from "./dom.js";

const soundKey = "parlour.notify.sound";
const desktopKey = "parlour.notify.desktop";

const get = k => { try { return localStorage.getItem(k) === "1"; } catch { return false; } };
const set = (k, on) => { try { localStorage.setItem(k, on ? "1" : "0"); } catch { /* private mode: this page only */ } };
const canNotify = () => typeof Notification === "function";

let audio = null; // one AudioContext for the page, made on the player's click

// beep plays two short rising notes.
export function beep() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return false;
  try {
    audio = audio || new AC();
    if (audio.state === "suspended") audio.resume();
    const t = audio.currentTime;
    for (const [i, f] of [[0, 660], [1, 880]]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = "sine";
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t + i * 0.16);
      g.gain.exponentialRampToValueAtTime(0.2, t + i * 0.16 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.16 + 0.15);
      o.connect(g).connect(audio.destination);
      o.start(t + i * 0.16);
      o.stop(t + i * 0.16 + 0.16);
    }
    return true;
  } catch { return false; }
}

// controls returns the two switches, for the table's side panel.
export function controls() {
  const msg = h("p", { class: "help", id: "notify-help", "aria-live": "polite" });
  const sound = h("input", { type: "checkbox", id: "notify-sound", checked: get(soundKey), "aria-describedby": "notify-help", onchange: () => {
    set(soundKey, sound.checked);
    if (sound.checked) beep(); // let the player hear it, and unlock audio with this click
  } });
  const desktop = h("input", { type: "checkbox", id: "notify-desktop", checked: get(desktopKey) && canNotify() && Notification.permission === "granted", disabled: !canNotify(), "aria-describedby": "notify-help", onchange: async () => {
    msg.textContent = "";
    if (!desktop.checked) { set(desktopKey, false); return; }
    let p;
    try { p = await Notification.requestPermission(); } catch { p = "denied"; }
    if (p !== "granted") {
      desktop.checked = false;
      set(desktopKey, false);
      msg.textContent = "The browser refused notifications for this site; allow them in its site settings to use this.";
      return;
    }
    set(desktopKey, true);
    msg.textContent = "You will be told when it is your turn while this tab is hidden.";
  } });
  if (!canNotify()) msg.textContent = "This browser has no desktop notifications.";
  return h("div", { class: "notify-opts", id: "notify" },
    h("h3", {}, "When it is your turn in another tab"),
    h("div", {}, h("label", { for: "notify-sound" }, sound, " Play a sound")),
    h("div", {}, h("label", { for: "notify-desktop" }, desktop, " Show a desktop notification")),
    msg);
}

// yourTurn tells the player it has just become their turn, if the page is
// hidden and they asked for it. what names the table ("Quizl · table x").
export function yourTurn(what) {
  if (!document.hidden) return;
  if (get(soundKey)) beep();
  if (get(desktopKey) && canNotify() && Notification.permission === "granted") {
    try {
      const n = new Notification("Your turn", { body: what, tag: "parlour-turn", renotify: true });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { toast("Cannot show a notification: " + e.message); }
  }
}

// challengeNotice tells a player who looks at another tab that somebody
// challenged them (or, by heading, asked them for a rematch), with the
// sound and the desktop notification they turned on for their turns.
export function challengeNotice(what, heading = "A challenge") {
  if (!document.hidden) return;
  if (get(soundKey)) beep();
  if (get(desktopKey) && canNotify() && Notification.permission === "granted") {
    try {
      const n = new Notification(heading, { body: what, tag: "parlour-challenge", renotify: true });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { toast("Cannot show a notification: " + e.message); }
  }
}

// followNotice tells a player who looks at another tab that a player they
// follow started a game, with the sound and the desktop notification they
// turned on for their turns.
export function followNotice(what) {
  if (!document.hidden) return;
  if (get(soundKey)) beep();
  if (get(desktopKey) && canNotify() && Notification.permission === "granted") {
    try {
      const n = new Notification("A game begins", { body: what, tag: "parlour-follow", renotify: true });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { toast("Cannot show a notification: " + e.message); }
  }
}
