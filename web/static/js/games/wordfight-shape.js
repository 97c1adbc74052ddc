// wordfight-shape.js: Sightless Word Fight's board shape drawn, for the
// forms that set a table's rules (a new table, a challenge, an event).
// The rule option is text, rows of . (usable) and # (masked) separated by
// /, exactly as wide and high as the board: typed by hand for a 20 by 20
// board that is 419 characters. Under the text box a grid of the board's
// squares, one button each, masks a square or opens it again; the text
// follows the drawing and the drawing the text, and both follow the
// board's width and height.

import { h, fill, gridNav, gridRows } from "../dom.js";

// colName names column c (from 0): A-Z, then AA-AD.
export const colName = c => c < 26 ? String.fromCharCode(65 + c) : "A" + String.fromCharCode(65 + c - 26);

// parseShape reads text as a shape of w by h squares: an array of rows of
// booleans, true where masked; "" is a board with nothing masked. It
// answers null for text that is not such a shape.
export function parseShape(text, w, ht) {
  const t = text.trim();
  if (t === "") return Array.from({ length: ht }, () => Array(w).fill(false));
  const rows = t.split("/").map(r => r.trim());
  if (rows.length !== ht || rows.some(r => r.length !== w || !/^[.#]*$/.test(r))) return null;
  return rows.map(r => [...r].map(ch => ch === "#"));
}

// shapeText writes mask as the option takes it; a board with nothing
// masked is "", no shape.
export function shapeText(mask) {
  if (!mask.some(r => r.includes(true))) return "";
  return mask.map(r => r.map(m => m ? "#" : ".").join("")).join("/");
}

// attach adds the drawing under the shape option of the controls fields
// (optionControl's, each holding its input), when they hold the shape,
// the width and the height.
export function attach(fields) {
  const input = name => fields.map(f => f.querySelector(`[name="${name}"]`)).find(Boolean);
  const text = input("shape"), width = input("width"), height = input("height");
  if (!text || !width || !height) return;
  const size = el => {
    const n = Number(el.value), lo = Number(el.min) || 5, hi = Number(el.max) || 30;
    return Number.isInteger(n) && n >= lo && n <= hi ? n : null;
  };
  let mask = [];
  const grid = h("div", { class: "grid shape-grid", role: "grid", "aria-label": "The board's shape", "aria-describedby": text.id + "-drawn" });
  const note = h("p", { class: "help", id: text.id + "-drawn", "aria-live": "polite" });
  const draw = focus => {
    const w = size(width), ht = size(height);
    if (w === null || ht === null) {
      fill(grid);
      note.textContent = "Set the board's width and height to draw its shape.";
      return;
    }
    const read = parseShape(text.value, w, ht);
    if (read) mask = read;
    else {
      // Text that does not fit the board: the drawing keeps what it had,
      // cut or widened to the board, until a square is changed.
      mask = Array.from({ length: ht }, (_, r) => Array.from({ length: w }, (_, c) => !!(mask[r] && mask[r][c])));
    }
    const masked = mask.flat().filter(Boolean).length;
    note.textContent = read ? `${w} by ${ht}: ${masked === 0 ? "every square usable" : `${masked} ${masked === 1 ? "square" : "squares"} masked`}.`
      : `The text above is not a shape of ${w} by ${ht}; a square changed here writes the drawing's.`;
    grid.style.gridTemplateColumns = `repeat(${w + 1}, auto)`;
    fill(grid, h("span", { class: "hdr", "aria-hidden": "true" }),
      Array.from({ length: w }, (_, c) => h("span", { class: "hdr", "aria-hidden": "true" }, colName(c))));
    const cells = mask.map((row, r) => {
      grid.append(h("span", { class: "hdr", "aria-hidden": "true" }, String(r + 1)));
      return row.map((m, c) => {
        const b = h("button", {
          type: "button", class: "cell" + (m ? " masked" : ""), role: "gridcell", "data-sq": colName(c) + (r + 1),
          "aria-selected": String(m), "aria-label": `${colName(c)}${r + 1}: ${m ? "masked" : "usable"}`, disabled: text.disabled,
          onclick: () => {
            mask[r][c] = !mask[r][c];
            text.value = shapeText(mask);
            draw(colName(c) + (r + 1));
          },
        });
        grid.append(b);
        return b;
      });
    });
    gridNav(cells);
    gridRows(grid, w + 1);
    if (focus) {
      const b = grid.querySelector(`[data-sq="${focus}"]`);
      if (b) b.focus();
    }
  };
  // A rated game holds the board at its defaults, the shape at none:
  // options.js says so with "parlour:held", and the drawing follows.
  for (const el of [text, width, height]) for (const kind of ["input", "parlour:held"]) el.addEventListener(kind, () => draw());
  const box = h("details", { class: "shape-editor", id: text.id + "-draw" },
    h("summary", {}, "Draw the shape"),
    h("p", { class: "help" }, "Choose a square to mask it, or to open it again; the text above follows."),
    note, h("div", { class: "board-frame" }, grid));
  draw();
  text.closest(".field").append(box);
}
