// Small example positions of the board game for the rules reference, drawn by the
// board table's own drawing (board/draw.js) and cut to the squares they use.

import { BoardDrawing } from "../board/draw.js";
import { tileIcon } from "../shared/symbols.js";
import { treasureIcon } from "./icons.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("../board/draw.js").Marks} Marks */

/** The board drawing's square size and margins (board/draw.js). */
const SQ = 48;
const OX = 24;
const OY = 22;

/**
 * @typedef {object} Example
 * @property {[number, number, number, number]} window columns and rows shown: x0, y0, x1, y1 (from 0)
 * @property {string[]} [river]
 * @property {string[]} [printed] squares printed with a starting temple
 * @property {string[]} [bordered]
 * @property {Partial<Record<Colour, string[]>>} [tiles]
 * @property {string[]} [treasures]
 * @property {string[]} [catastrophes]
 * @property {string|null} [unification]
 * @property {{monument: string, square: string, colour: string}[]} [monuments]
 * @property {Record<string, string>[]} [leaders] per seat, leader name → square
 * @property {Marks} [marks]
 */

/** @type {Record<string, Example>} */
const EXAMPLES = {
  setup: {
    window: [0, 0, 3, 2], river: ["A3", "B3", "C3", "D3"], printed: ["B2", "D1"], bordered: ["B2"],
    tiles: { red: ["B2", "D1"] }, treasures: ["B2", "D1"],
  },
  point: {
    window: [0, 0, 4, 2], river: ["A3", "B3"],
    tiles: { red: ["B2"], green: ["D2"] }, leaders: [{ trader: "C2" }, { king: "B1" }],
    marks: { last: new Set(["D2"]), region: new Set(["B1", "B2", "C2", "D2"]) },
  },
  kingdoms: {
    window: [0, 0, 6, 2], river: ["A3", "B3", "C3"],
    tiles: { red: ["B2"], black: ["D2"], green: ["F2", "F3", "G3"] }, leaders: [{ priest: "B1" }, { king: "C2" }],
    marks: { region: new Set(["B1", "B2", "C2", "D2"]) },
  },
  revolt: {
    window: [0, 0, 4, 2], river: ["A3", "B3", "C3"],
    tiles: { red: ["A2", "B1", "D1"], black: ["C2"] }, leaders: [{ priest: "D2" }, { priest: "B2" }],
    marks: { conflict: new Set(["B2", "D2"]) },
  },
  war: {
    window: [0, 0, 7, 2], river: ["D3", "E3"],
    tiles: { red: ["B1", "G1"], black: ["A2", "B3", "C2", "E2", "F2"], green: ["D2"] }, unification: "D2",
    leaders: [{ king: "B2" }, { king: "G2" }],
    marks: { conflict: new Set(["B2", "G2"]) },
  },
  monuments: {
    window: [0, 0, 4, 3], river: ["A4", "B4", "C4"],
    tiles: { red: ["D1"] }, monuments: [{ monument: "rb", square: "B2", colour: "red" }], leaders: [{ king: "D2" }],
    marks: { region: new Set(["B2", "C2", "B3", "C3", "D1", "D2"]) },
  },
  treasures: {
    window: [0, 0, 5, 2], river: ["A3", "B3"], printed: ["B2", "E2"],
    tiles: { red: ["B2", "E2"], green: ["D2"] }, treasures: ["B2", "E2"], leaders: [{ trader: "C2" }],
    marks: { region: new Set(["B2", "C2", "D2", "E2"]) },
  },
  catastrophes: {
    window: [0, 0, 3, 2], river: ["A3"],
    tiles: { black: ["C2"], green: ["B3"] }, catastrophes: ["B2"],
    marks: { last: new Set(["B2"]) },
  },
};

/**
 * An example drawn by the board table's drawing, cut to its window.
 * @param {string} name
 * @param {string} label what it shows, for those who cannot see it
 */
export function figure(name, label) {
  const ex = EXAMPLES[name];
  if (!ex) throw new Error(`no board example ${name}`);
  const drawing = new BoardDrawing({
    columns: 16, rows: 11, river: ex.river ?? [], temples: ex.printed ?? [], bordered: ex.bordered ?? [],
  });
  const view = /** @type {BoardView} */ (/** @type {unknown} */ ({
    board: {
      tiles: ex.tiles ?? {}, monuments: ex.monuments ?? [], catastrophes: ex.catastrophes ?? [],
      treasures: ex.treasures ?? [], unification: ex.unification ?? null,
    },
    seats: (ex.leaders ?? []).map((leaders) => ({ leaders })),
  }));
  drawing.render(view);
  drawing.mark(ex.marks ?? {});
  drawing.grid.replaceChildren(); // nothing to click
  const [x0, y0, x1, y1] = ex.window;
  const svg = drawing.svg;
  svg.setAttribute("viewBox", `${OX + x0 * SQ - 3} ${OY + y0 * SQ - 3} ${(x1 - x0 + 1) * SQ + 6} ${(y1 - y0 + 1) * SQ + 6}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("rules-board");
  svg.dataset.example = name;
  return svg;
}

/** @param {Colour|"treasure"} colour */
export function icon(colour) {
  return colour === "treasure" ? treasureIcon() : tileIcon(colour, 20);
}
