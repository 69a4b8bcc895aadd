// The board as SVG: land and river of the chosen side (GET /api/maps), the
// starting temples and bordered treasures marked, then everything the view puts
// on it. Pieces never take pointer events; one transparent grid above them does.

import { s } from "../shared/dom.js";
import { replacePieces } from "../shared/motion.js";
import { LEADERS, LEADER_COLOUR, LETTER_COLOUR, asColour, dynastyOf } from "../shared/pieces.js";
import { COLUMNS, ROWS, block, parseSquare, squareName } from "./geometry.js";
import { COLOUR_FILL, cached, colourSymbol, dynastySymbol } from "../shared/symbols.js";
import { t } from "../shared/i18n.js";

/** @typedef {import("../shared/types.js").BoardView} BoardView */
/** @typedef {import("../shared/types.js").MapSide} MapSide */
/** @typedef {import("../shared/pieces.js").Colour} Colour */

const SQ = 48;
const OX = 24;
const OY = 22;
const WIDTH = OX + COLUMNS * SQ + 6;
const HEIGHT = OY + ROWS * SQ + 6;
/** The board's width in its own units (a square is 48). */
export const BOARD_WIDTH = WIDTH;

/**
 * @typedef {object} Marks
 * @property {Set<string>} [targets] squares where the picked piece may go
 * @property {string|null} [cursor] the keyboard cursor
 * @property {string|null} [picked] the square of a picked leader on the board
 * @property {Set<string>} [last] squares the last step changed
 * @property {Set<string>} [region] the hovered kingdom's squares
 * @property {Set<string>} [conflict] the leaders of a pending conflict
 */

/** @param {string} sq */
function origin(sq) {
  const p = parseSquare(sq) ?? [0, 0];
  return { x: OX + p[0] * SQ, y: OY + p[1] * SQ };
}

/**
 * Monument colours from the view's code ("rb") or an event's name ("red-blue").
 * @param {string} code
 * @returns {[Colour, Colour]}
 */
export function monumentColours(code) {
  const parts = code.includes("-") ? code.split("-") : code.split("").map((l) => LETTER_COLOUR[l] ?? "");
  return [asColour(parts[0] ?? "") ?? "red", asColour(parts[1] ?? "") ?? "blue"];
}

export class BoardDrawing {
  /**
   * @param {MapSide} map
   */
  constructor(map) {
    this.map = map;
    this.river = new Set(map.river);
    this.temples = new Set(map.temples);
    this.bordered = new Set(map.bordered);
    // What is drawn is told by the squares' names (see `describe`): the drawing itself
    // is hidden from assistive technology.
    this.pieces = s("g", { class: "pieces", "aria-hidden": "true" });
    this.marks = s("g", { class: "marks", "aria-hidden": "true" });
    this.grid = s("g", { class: "hit" });
    const ground = this.ground();
    ground.setAttribute("aria-hidden", "true");
    this.svg = /** @type {SVGSVGElement} */ (s("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "grid",
      preserveAspectRatio: "xMidYMid meet",
    }, ground, this.pieces, this.marks, this.grid));
    /** @type {Map<string, SVGElement>} */
    this.cells = new Map();
    /** What the squares' names were last made from. */
    this.described = "";
    for (let y = 0; y < ROWS; y++) {
      const row = s("g", { role: "row" });
      for (let x = 0; x < COLUMNS; x++) {
        const sq = squareName(x, y);
        const cell = s("rect", {
          x: OX + x * SQ, y: OY + y * SQ, width: SQ, height: SQ, "data-sq": sq,
          role: "gridcell", "aria-label": sq, fill: "transparent",
        });
        this.cells.set(sq, cell);
        row.append(cell);
      }
      this.grid.append(row);
    }
  }

  /**
   * Every square's accessible name: its name, the river, and what lies on it, in the
   * page's language. Set again with every drawing, as the pieces are.
   * @param {BoardView} view
   * @param {(seat: number) => string} name a seat's name
   */
  describe(view, name) {
    // Most updates (commitments, points, decisions) leave the board as it was.
    const key = JSON.stringify([view.board, (view.seats ?? []).map((seat, i) => [seat.leaders, name(i)]), document.documentElement.lang]);
    if (key === this.described) return;
    this.described = key;
    /** @type {Map<string, string[]>} */
    const on = new Map();
    const put = (/** @type {string} */ sq, /** @type {string} */ what) => on.set(sq, [...on.get(sq) ?? [], what]);
    const b = view.board;
    for (const m of b?.monuments ?? []) {
      const [a, c] = monumentColours(m.monument);
      for (const sq of block(m.square)) put(sq, `${t("what.monument")} (${t(`colour.${a}`)}, ${t(`colour.${c}`)})`);
    }
    for (const [colour, squares] of Object.entries(b?.tiles ?? {})) {
      for (const sq of squares) put(sq, `${t(`tile.${colour}`)} (${t(`colour.${colour}`)})`);
    }
    for (const sq of b?.catastrophes ?? []) put(sq, t("table.catastrophe"));
    for (const sq of b?.treasures ?? []) put(sq, t("what.treasure"));
    (view.seats ?? []).forEach((seat, i) => {
      for (const l of LEADERS) {
        const sq = seat.leaders?.[l];
        // "trader · Bull (bot, guide)": a name may hold brackets of its own
        if (sq) put(sq, `${t(`leader.${l}`)} · ${name(i)}`);
      }
    });
    this.svg.setAttribute("aria-label", t("table.board"));
    for (const [sq, cell] of this.cells) {
      const parts = [t("table.square", { sq }), ...this.river.has(sq) ? [t("table.river")] : [], ...on.get(sq) ?? []];
      cell.setAttribute("aria-label", parts.join(", "));
    }
  }

  /** The land, the river, labels, and the printed marks that pieces may cover. */
  ground() {
    const g = s("g", { class: "ground" });
    g.append(s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#efe3c6", rx: 10 }));
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < COLUMNS; x++) {
        const sq = squareName(x, y);
        const px = OX + x * SQ;
        const py = OY + y * SQ;
        const river = this.river.has(sq);
        const land = (x + y) % 2 ? "#dcc89b" : "#e1cea3";
        g.append(s("rect", { x: px, y: py, width: SQ, height: SQ, fill: river ? "#8dc3e4" : land }));
        if (river) {
          g.append(s("path", {
            d: `M${px + 8} ${py + 18} q6 -4 12 0 t12 0 M${px + 14} ${py + 32} q6 -4 12 0 t12 0`,
            stroke: "#b9dcf0", "stroke-width": 1.6, fill: "none", "stroke-linecap": "round",
          }));
        }
        if (this.temples.has(sq)) {
          // The printed winged figure where a temple and a treasure start (B-2).
          g.append(s("path", {
            d: `M${px + 24} ${py + 14} l10 10 l-10 10 l-10 -10 z M${px + 8} ${py + 24} h8 M${px + 32} ${py + 24} h8`,
            fill: "none", stroke: "#a88b57", "stroke-width": 1.5,
          }));
        }
        if (this.bordered.has(sq)) {
          g.append(s("rect", {
            x: px + 1.5, y: py + 1.5, width: SQ - 3, height: SQ - 3, fill: "none",
            stroke: "#b8860b", "stroke-width": 2.5, "stroke-dasharray": "6 3", rx: 3,
          }));
        }
      }
    }
    for (let x = 0; x <= COLUMNS; x++) {
      g.append(s("line", { x1: OX + x * SQ, y1: OY, x2: OX + x * SQ, y2: OY + ROWS * SQ, stroke: "#c2ab7c", "stroke-width": 0.6 }));
    }
    for (let y = 0; y <= ROWS; y++) {
      g.append(s("line", { x1: OX, y1: OY + y * SQ, x2: OX + COLUMNS * SQ, y2: OY + y * SQ, stroke: "#c2ab7c", "stroke-width": 0.6 }));
    }
    for (let x = 0; x < COLUMNS; x++) {
      g.append(s("text", { x: OX + x * SQ + SQ / 2, y: OY - 7, class: "label", "text-anchor": "middle" }, squareName(x, 0)[0] ?? ""));
    }
    for (let y = 0; y < ROWS; y++) {
      g.append(s("text", { x: OX - 7, y: OY + y * SQ + SQ / 2 + 4, class: "label", "text-anchor": "end" }, String(y + 1)));
    }
    return g;
  }

  /**
   * Draw the pieces of a view.
   * @param {BoardView} view
   */
  render(view) {
    const b = view.board;
    const out = [];
    for (const m of b?.monuments ?? []) out.push(this.monument(m.square, m.monument));
    for (const [colour, squares] of Object.entries(b?.tiles ?? {})) {
      const c = asColour(colour);
      if (c) for (const sq of squares) out.push(this.tile(sq, c));
    }
    for (const sq of b?.catastrophes ?? []) out.push(this.catastrophe(sq));
    for (const sq of b?.treasures ?? []) out.push(this.treasure(sq));
    if (b?.unification) out.push(this.unification(b.unification));
    (view.seats ?? []).forEach((seat, i) => {
      for (const l of LEADERS) {
        const sq = seat.leaders?.[l];
        if (sq) out.push(this.leader(sq, LEADER_COLOUR[l], i));
      }
    });
    replacePieces(this.pieces, out);
  }

  /**
   * A piece drawn once at A1 and moved to its square.
   * @param {string} sq
   * @param {string} key
   * @param {() => SVGElement} make
   * @param {Record<string, string | number>} data
   */
  placed(sq, key, make, data) {
    const g = cached(key, make);
    const { x, y } = origin(sq);
    g.setAttribute("transform", `translate(${x - OX} ${y - OY})`);
    g.setAttribute("data-sq", sq);
    for (const [k, v] of Object.entries(data)) g.setAttribute(`data-${k}`, String(v));
    return g;
  }

  /**
   * @param {string} sq
   * @param {Colour} colour
   */
  tile(sq, colour) {
    return this.placed(sq, `tile ${colour}`, () => this.tileAt(colour), { colour });
  }

  /** @param {Colour} colour */
  tileAt(colour) {
    const x = OX;
    const y = OY;
    const k = (SQ * 0.62) / 24;
    return s("g", { class: "tile" },
      s("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 5, fill: COLOUR_FILL[colour], stroke: "rgba(0,0,0,.35)", "stroke-width": 1 }),
      s("rect", { x: x + 4, y: y + 3.5, width: SQ - 8, height: 3, rx: 1.5, fill: "rgba(255,255,255,.18)" }),
      s("g", { transform: `translate(${x + SQ * 0.19} ${y + SQ * 0.2}) scale(${k})` }, colourSymbol(colour, "#fff", COLOUR_FILL[colour])));
  }

  /**
   * @param {string} sq
   * @param {Colour} colour
   * @param {number} seat
   */
  leader(sq, colour, seat) {
    return this.placed(sq, `leader ${colour} ${seat}`, () => this.leaderAt(colour, seat), { colour, seat });
  }

  /**
   * @param {Colour} colour
   * @param {number} seat
   */
  leaderAt(colour, seat) {
    const x = OX;
    const y = OY;
    const cx = x + SQ / 2;
    const cy = y + SQ / 2;
    const fillc = COLOUR_FILL[colour];
    const k = (SQ * 0.5) / 24;
    const b = (SQ * 0.26) / 24;
    return s("g", { class: "leader" },
      s("circle", { cx, cy: cy + 1.5, r: SQ * 0.42, fill: "rgba(0,0,0,.25)" }),
      s("circle", { cx, cy, r: SQ * 0.42, fill: fillc, stroke: "#fffaf0", "stroke-width": 2 }),
      s("g", { transform: `translate(${cx - 12 * k} ${cy - 12 * k}) scale(${k})` }, dynastySymbol(dynastyOf(seat), "#fff", fillc)),
      s("circle", { cx: x + SQ - 9, cy: y + 9, r: 8, fill: "#fffaf0", stroke: fillc, "stroke-width": 1 }),
      s("g", { transform: `translate(${x + SQ - 9 - 12 * b} ${y + 9 - 12 * b}) scale(${b})` }, colourSymbol(colour, fillc, "#fffaf0")));
  }

  /** @param {string} sq */
  catastrophe(sq) {
    return this.placed(sq, "catastrophe", () => this.catastropheAt(), {});
  }

  catastropheAt() {
    const x = OX;
    const y = OY;
    return s("g", { class: "catastrophe" },
      s("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 4, fill: "#4a4039", stroke: "#221c18" }),
      s("path", {
        d: `M${x + 14} ${y + 8} L${x + 24} ${y + 20} L${x + 18} ${y + 26} L${x + 30} ${y + 40} M${x + 24} ${y + 20} L${x + 36} ${y + 14}`,
        stroke: "#f0a050", "stroke-width": 3, fill: "none", "stroke-linejoin": "round", "stroke-linecap": "round",
      }));
  }

  /** @param {string} sq */
  treasure(sq) {
    const bordered = this.bordered.has(sq);
    return this.placed(sq, `treasure ${bordered}`, () => this.treasureAt(bordered), {});
  }

  /** @param {boolean} bordered */
  treasureAt(bordered) {
    const cx = OX + SQ - 10;
    const cy = OY + 10;
    return s("g", { class: bordered ? "treasure bordered" : "treasure" },
      bordered ? s("circle", { cx, cy, r: 8.5, fill: "#fff8dc", stroke: "#7a5200", "stroke-width": 1.5 }) : null,
      s("path", { d: `M${cx} ${cy - 6} L${cx + 6} ${cy} L${cx} ${cy + 6} L${cx - 6} ${cy} Z`, fill: "#f2c230", stroke: "#7a5200", "stroke-width": 1.2 }),
      s("path", { d: `M${cx - 6} ${cy} L${cx + 6} ${cy} M${cx} ${cy - 6} L${cx} ${cy + 6}`, stroke: "rgba(122,82,0,.45)", "stroke-width": 0.8 }));
  }

  /** @param {string} sq */
  unification(sq) {
    const { x, y } = origin(sq);
    const cx = x + SQ / 2;
    const cy = y + SQ / 2;
    return s("g", { class: "unification", "data-sq": sq },
      s("rect", { x: x + 6, y: y + 6, width: SQ - 12, height: SQ - 12, rx: 4, fill: "#f7eed2", stroke: "#7a5200", "stroke-width": 2 }),
      s("circle", { cx: cx - 5, cy, r: 7, fill: "none", stroke: "#7a5200", "stroke-width": 2.6 }),
      s("circle", { cx: cx + 5, cy, r: 7, fill: "none", stroke: "#7a5200", "stroke-width": 2.6 }));
  }

  /**
   * @param {string} topLeft
   * @param {string} code
   */
  monument(topLeft, code) {
    const { x, y } = origin(topLeft);
    const [a, b] = monumentColours(code);
    const cx = x + SQ;
    const cy = y + SQ;
    const k = (SQ * 0.3) / 24;
    const g = s("g", { class: "monument", "data-sq": topLeft, "data-monument": code });
    for (const sq of block(topLeft)) {
      const o = origin(sq);
      g.append(s("rect", { x: o.x + 2, y: o.y + 2, width: SQ - 4, height: SQ - 4, rx: 5, fill: "#b9a27c", stroke: "#8a7552" }));
    }
    const steps = [
      { w: 1.5, c: a, y: 0.3 },
      { w: 1.15, c: a, y: 0.02 },
      { w: 0.8, c: b, y: -0.26 },
      { w: 0.45, c: b, y: -0.54 },
    ];
    for (const st of steps) {
      g.append(s("rect", {
        x: cx - (st.w * SQ) / 2, y: cy + st.y * SQ, width: st.w * SQ, height: 0.28 * SQ,
        fill: COLOUR_FILL[st.c], stroke: "#fff", "stroke-width": 1.2, rx: 2,
      }));
    }
    g.append(s("g", { transform: `translate(${cx - 12 * k} ${cy + 0.3 * SQ - 12 * k + 0.14 * SQ}) scale(${k})` }, colourSymbol(a, "#fff", COLOUR_FILL[a])));
    g.append(s("g", { transform: `translate(${cx - 12 * k} ${cy - 0.26 * SQ - 12 * k + 0.14 * SQ}) scale(${k})` }, colourSymbol(b, "#fff", COLOUR_FILL[b])));
    return g;
  }

  /**
   * Highlights: targets, cursor, the last step, the hovered kingdom.
   * @param {Marks} m
   */
  mark(m) {
    const out = [];
    for (const sq of m.region ?? []) {
      const { x, y } = origin(sq);
      out.push(s("rect", { x, y, width: SQ, height: SQ, class: "region" }));
    }
    if (m.region) out.push(this.outline(m.region));
    for (const sq of m.last ?? []) {
      const { x, y } = origin(sq);
      out.push(s("rect", { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, class: "last", rx: 6 }));
    }
    for (const sq of m.conflict ?? []) {
      const { x, y } = origin(sq);
      out.push(s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.5, class: "conflict" }));
    }
    for (const sq of m.targets ?? []) {
      const { x, y } = origin(sq);
      out.push(s("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: "target", rx: 6, "data-sq": sq }));
    }
    if (m.picked) {
      const { x, y } = origin(m.picked);
      out.push(s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.47, class: "picked" }));
    }
    if (m.cursor) {
      const { x, y } = origin(m.cursor);
      out.push(s("rect", { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, class: "cursor", rx: 4 }));
    }
    this.marks.replaceChildren(...out);
  }

  /**
   * The outer edge of a set of squares.
   * @param {Set<string>} squares
   */
  outline(squares) {
    const parts = [];
    for (const sq of squares) {
      const p = parseSquare(sq);
      if (!p) continue;
      const [cx, cy] = p;
      const { x, y } = origin(sq);
      /** @param {number} dx @param {number} dy */
      const out = (dx, dy) => {
        const nx = cx + dx;
        const ny = cy + dy;
        return nx < 0 || ny < 0 || nx >= COLUMNS || ny >= ROWS || !squares.has(squareName(nx, ny));
      };
      if (out(0, -1)) parts.push(`M${x} ${y}h${SQ}`);
      if (out(0, 1)) parts.push(`M${x} ${y + SQ}h${SQ}`);
      if (out(-1, 0)) parts.push(`M${x} ${y}v${SQ}`);
      if (out(1, 0)) parts.push(`M${x + SQ} ${y}v${SQ}`);
    }
    return s("path", { d: parts.join(""), class: "region-edge" });
  }
}
