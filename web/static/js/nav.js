// nav.js: moving between screens inside the page. A page that sends the
// player elsewhere (a new table opened, a challenge accepted) calls go;
// main.js, the router, listens for the event go dispatches and draws the
// screen. The pages import this module, never the router, so that the
// router may import the pages without the two importing each other.

// navigated is the event go dispatches on window once the address has
// changed; main.js draws the screen for it.
export const navigated = "parlour:navigate";

// go moves to path inside the page: a new entry in the history, or with
// replace the current one changed.
export function go(path, replace) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  window.dispatchEvent(new Event(navigated));
  window.scrollTo(0, 0);
}
