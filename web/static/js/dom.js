// dom.js: small helpers for building the page without a framework.

// h builds an element. attrs keys starting with "on" add listeners; "class",
// "text", "html" are shortcuts; other keys become attributes (false/null
// skip them). Children may be strings, nodes, arrays or null.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "style") el.style.cssText = v; // CSSOM: allowed by the page's CSP, unlike a style attribute
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "disabled" || k === "selected") el[k] = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) add(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// updateText sets el's text, and leaves it alone when it already reads so:
// the text of a live region set anew, even to the same words, may be read
// out again, and a table is drawn anew at every update.
export function updateText(el, text) {
  if (el.textContent !== text) el.textContent = text;
  return el;
}

// redraw calls draw, which draws el's content anew, and keeps the
// keyboard where it was: if the focus was on a control inside el, it goes
// to the one drawn in its place (of the same id and link, or the same
// key(control)),
// else, when that one is gone, to el's first control, else to the
// screen's content. A list that refreshes itself (the lobby's) would
// otherwise drop the focus of a player tabbing through it back to the
// top of the page.
export function redraw(el, draw, key = c => `${c.id} ${c.getAttribute("href") || ""}`) {
  const at = document.activeElement;
  const had = at && at !== el && el.contains(at) ? key(at) : null;
  draw();
  if (had === null || el.contains(document.activeElement)) return;
  const controls = [...el.querySelectorAll("a[href], button, input, select, [tabindex]")];
  const again = controls.find(c => key(c) === had) || controls[0] || document.getElementById("main");
  if (again) again.focus({ preventScroll: true });
}

// clear empties el and returns it.
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// toast shows a short message for 3 s, or for ms, and speaks it to
// screen readers.
export function toast(msg, ms = 3000) {
  const t = document.getElementById("toast");
  if (!t) return;
  t.textContent = msg;
  t.classList.add("show");
  clearTimeout(t._timer);
  t._timer = setTimeout(() => t.classList.remove("show"), ms);
}

// field wraps a control with its label and an optional help line.
export function field(label, control, help) {
  const id = control.id || (control.id = "f" + Math.random().toString(36).slice(2, 9));
  const helpEl = help ? h("p", { class: "help", id: id + "-help" }, help) : null;
  if (helpEl) control.setAttribute("aria-describedby", helpEl.id);
  if (control.type === "checkbox") {
    return h("div", { class: "field" }, h("label", { for: id }, control, " ", label), helpEl);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), h("br"), control, helpEl);
}

// gridNav gives a container of cells roving-tabindex arrow-key navigation.
// cells is a 2-D array [row][col] of focusable elements (or null holes).
export function gridNav(cells, start) {
  const rows = cells.length;
  let [r0, c0] = start || [0, 0];
  cells.forEach((row, r) => row.forEach((el, c) => {
    if (!el) return;
    el.tabIndex = r === r0 && c === c0 ? 0 : -1;
    el.addEventListener("focus", () => {
      cells.forEach(rr => rr.forEach(x => x && (x.tabIndex = -1)));
      el.tabIndex = 0;
    });
    el.addEventListener("keydown", e => {
      const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
      let nr = r, nc = c;
      if (d) { nr += d[0]; nc += d[1]; }
      else if (e.key === "Home") nc = 0;
      else if (e.key === "End") nc = row.length - 1;
      else return;
      e.preventDefault();
      while (nr >= 0 && nr < rows && nc >= 0 && nc < cells[nr].length) {
        if (cells[nr][nc]) { cells[nr][nc].focus(); return; }
        if (!d) return;
        nr += d[0]; nc += d[1];
      }
    });
  }));
}

// gridMemory keeps the roving Tab stop of the grids in container, each
// in an element with a data-board (container itself, for one grid), on the square last focused there
// (squares carry a data-sq) across redraws. A game's screen draws its
// grids anew on every update of the table, the other player's move or a
// chat line, and gridNav would put each stop back on the first square:
// the player coming back to the grid with Tab would start from its
// corner rather than from where they were. The answer restores the
// stops; call it after each redraw.
export function gridMemory(container) {
  const last = new Map();
  container.addEventListener("focusin", e => {
    const cell = e.target.closest && e.target.closest("[data-sq]");
    const board = cell && cell.closest("[data-board]");
    if (board && container.contains(board)) last.set(board.dataset.board, cell.dataset.sq);
  });
  return () => {
    for (const [board, sq] of last) {
      const b = [container, ...container.querySelectorAll("[data-board]")].find(x => x.dataset && x.dataset.board === board);
      const cells = b ? [...b.querySelectorAll("[data-sq]")] : [];
      const el = cells.find(x => x.dataset.sq === sq);
      if (!el) continue;
      for (const c of cells) c.tabIndex = -1;
      el.tabIndex = 0;
    }
  };
}

// download saves text as a file.
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type: type || "application/json" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// plural says "1 shot" / "2 shots".
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : (many || one + "s")}`;
}

// fill replaces el's children with children, as h takes them (arrays are
// flattened; null and false are skipped).
export function fill(el, ...children) {
  clear(el);
  add(el, children);
  return el;
}

// append adds children to el, as h takes them.
export function append(el, ...children) {
  add(el, children);
  return el;
}

// gridRows groups the flat children of a CSS grid g into rows of n, as an
// ARIA grid needs (role=row, drawn with display: contents so that the
// layout stays the grid's). The first row, the column letters, is hidden
// from screen readers: every square's own name says where it is.
export function gridRows(g, n) {
  const kids = [...g.children];
  for (let i = 0; i < kids.length; i += n) {
    const row = h("div", { role: "row", class: "gr", "aria-hidden": i === 0 ? "true" : null });
    row.append(...kids.slice(i, i + n));
    g.append(row);
  }
  return g;
}

// guestMark marks the name of a player without an account wherever
// others see it (seats, lobby, chat), so that a guest cannot pass for an
// account: the server says who is one (a seat's or chat line's
// "player"). It answers null for anybody else.
export function guestMark(who) {
  return who && who.player === "guest" ? h("span", { class: "guest-mark", title: "a guest: this player has no account" }, " (guest)") : null;
}

// guestName is a name as text, with " (guest)" for a guest's.
export function guestName(who) {
  return who.name + (who.player === "guest" ? " (guest)" : "");
}
