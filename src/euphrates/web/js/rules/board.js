// Small example positions of the board game for the rules reference, drawn by the
// board table's own drawing (board/draw.js) on the standard board and cut to the
// squares they use. The positions are those of the claim table
// (web/rules/claims/board.json), which tests/web/test_rules_claims.py plays through the
// engine; nothing here places a piece of its own.

import { BoardDrawing } from "../board/draw.js";
import { parseSquare, squareName } from "../board/geometry.js";
import { boardMaps } from "../shared/api.js";
import { h, s } from "../shared/dom.js";
import { tileIcon } from "../shared/symbols.js";
import { treasureIcon } from "./icons.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("../shared/types.js").MapSide} MapSide */
/** @typedef {import("../board/draw.js").Marks} Marks */

/** The board drawing's square size and margins (board/draw.js), and the labels' strip. */
const SQ = 48;
const OX = 24;
const OY = 22;
const STRIP = 20;

/**
 * A position as the claim table writes it: a position's `board`, per seat the leaders
 * (leader name → square), and the squares to mark.
 * @typedef {object} Pieces
 * @property {Record<string, any>} [board] tiles by colour, monuments, catastrophes, treasures, unification
 * @property {Record<string, string>[]} [leaders]
 * @property {Record<string, string[]>} [marks] last, region, conflict, targets
 */
/**
 * @typedef {Pieces & {window: string, before?: Pieces, steps?: boolean}} Example
 * `window` the squares shown ("A4:E6"); with `steps`, `before` is drawn first.
 */

/** @type {MapSide|null} */
let map = null;

/** The standard side's map, fetched once before the first figure is drawn. */
export async function ready() {
  map ??= /** @type {MapSide} */ ((await boardMaps()).standard);
}

/**
 * One position drawn by the board's drawing, cut to the window, with the window's
 * column letters and row numbers.
 * @param {string} name
 * @param {[number, number, number, number]} win x0, y0, x1, y1 (from 0)
 * @param {Pieces} p
 */
function drawing(name, win, p) {
  if (!map) throw new Error("the board's map is not loaded");
  const d = new BoardDrawing(map);
  const b = p.board ?? {};
  const view = /** @type {BoardView} */ (/** @type {unknown} */ ({
    board: {
      tiles: b.tiles ?? {}, monuments: b.monuments ?? [], catastrophes: b.catastrophes ?? [],
      treasures: b.treasures ?? [], unification: b.unification ?? null,
    },
    seats: (p.leaders ?? []).map((leaders) => ({ leaders })),
  }));
  d.render(view);
  d.mark(/** @type {Marks} */ (Object.fromEntries(Object.entries(p.marks ?? {}).map(([k, v]) => [k, new Set(v)]))));
  d.grid.replaceChildren(); // nothing to click
  const [x0, y0, x1, y1] = win;
  const left = OX + x0 * SQ - 3 - STRIP;
  const top = OY + y0 * SQ - 3 - STRIP;
  const width = (x1 - x0 + 1) * SQ + 6 + STRIP;
  const height = (y1 - y0 + 1) * SQ + 6 + STRIP;
  const labels = s("g", { class: "window-labels", "aria-hidden": "true" },
    s("rect", { x: left, y: top, width, height: STRIP + 3, fill: "#efe3c6" }),
    s("rect", { x: left, y: top, width: STRIP + 3, height, fill: "#efe3c6" }));
  for (let x = x0; x <= x1; x++) {
    labels.append(s("text", { x: OX + x * SQ + SQ / 2, y: OY + y0 * SQ - 7, class: "label", "text-anchor": "middle" }, squareName(x, 0)[0] ?? ""));
  }
  for (let y = y0; y <= y1; y++) {
    labels.append(s("text", { x: OX + x0 * SQ - 7, y: OY + y * SQ + SQ / 2 + 4, class: "label", "text-anchor": "end" }, String(y + 1)));
  }
  const svg = d.svg;
  svg.append(labels);
  svg.setAttribute("viewBox", `${left} ${top} ${width} ${height}`);
  svg.classList.add("rules-board");
  svg.dataset.example = name;
  return svg;
}

/**
 * An example of the claim table drawn by the board table's drawing: the position, or
 * with `steps` the position before and after.
 * @param {string} name
 * @param {unknown} example the figure's entry in the claim table
 * @param {string} label what it shows, for those who cannot see it
 */
export function figure(name, example, label) {
  const ex = /** @type {Example} */ (example);
  const [a, b] = ex.window.split(":").map((sq) => parseSquare(sq) ?? [0, 0]);
  /** @type {[number, number, number, number]} */
  const win = [a?.[0] ?? 0, a?.[1] ?? 0, b?.[0] ?? 0, b?.[1] ?? 0];
  const after = drawing(name, win, ex);
  if (!ex.steps || !ex.before) {
    after.setAttribute("role", "img");
    after.setAttribute("aria-label", label);
    return after;
  }
  const before = drawing(name, win, ex.before);
  for (const svg of [before, after]) {
    svg.removeAttribute("role");
    svg.setAttribute("aria-hidden", "true");
  }
  before.dataset.step = "before";
  after.dataset.step = "after";
  return h("div", { class: "rules-steps", role: "img", "aria-label": label, "data-example": name },
    before, h("span", { class: "rules-then", "aria-hidden": "true" }, "→"), after);
}

/** @param {Colour|"treasure"} colour */
export function icon(colour) {
  return colour === "treasure" ? treasureIcon() : tileIcon(colour, 20);
}
