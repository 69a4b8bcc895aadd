// The layout as SVG: eight heads in a row, the columns under them with their cards
// overlapping so that each card's top strip (its symbol, a leader on it) stays in
// sight, bridges in the gaps between heads. Pieces take no pointer events; one layer
// of transparent rects above them does, named by spot, column and gap.

import { s } from "../shared/dom.js";
import { replacePieces } from "../shared/motion.js";
import { COLOUR_FILL, colourSymbol, dynastySymbol } from "../shared/symbols.js";
import { dynastyOf } from "../shared/pieces.js";
import { COLUMNS, GAPS, LEADER_COLOUR, LEADER_LETTER, MAX_CARDS, gapName, parseSpot, placedLeaders } from "./model.js";
import { cardFace } from "./pictures.js";

/** @typedef {import("./model.js").CardsView} CardsView */
/** @typedef {import("./model.js").Layout} Layout */

const LEFT = 26;
const TOP = 26;
const CW = 76;
const CH = 104;
const GW = 54;
const STEP = 34;
const HEAD_GAP = 12;
const BW = GW - 10;
const BH = 76;
const WIDTH = LEFT + COLUMNS * CW + GAPS * GW + 12;
/** The height for columns of up to `rows` cards (the drawing grows as they do). */
const heightFor = (/** @type {number} */ rows) => TOP + CH + HEAD_GAP + (rows - 1) * STEP + CH + 14;
const HEIGHT = heightFor(MAX_CARDS);
/** The layout's width in its own units (a card is 76). */
export const LAYOUT_WIDTH = WIDTH;

/** @param {number} col from 0 */
const colX = (col) => LEFT + col * (CW + GW);
/** @param {number} row 0 the head, 1.. the cards */
const rowY = (row) => (row === 0 ? TOP : TOP + CH + HEAD_GAP + (row - 1) * STEP);
/** @param {number} gap from 0 */
const gapX = (gap) => colX(gap) + CW + (GW - BW) / 2;
const gapY = TOP + (CH - BH) / 2;

/**
 * The rectangle a spot's card occupies (the whole card, even where covered).
 * @param {string} spot
 * @returns {{x: number, y: number, w: number, h: number}|null}
 */
function spotRect(spot) {
  const p = parseSpot(spot);
  if (!p) return null;
  if (p.kind === "bridge") return { x: gapX(p.gap), y: gapY, w: BW, h: BH };
  const row = p.kind === "head" ? 0 : p.row;
  return { x: colX(p.col), y: rowY(row), w: CW, h: CH };
}

/**
 * The centre of a leader's disc on a spot: the card's top right corner, a bridge's foot.
 * @param {string} spot
 * @returns {{cx: number, cy: number}|null}
 */
function leaderCentre(spot) {
  const rect = spotRect(spot);
  if (!rect) return null;
  const bridge = parseSpot(spot)?.kind === "bridge";
  return {
    cx: bridge ? rect.x + rect.w / 2 : rect.x + rect.w - 18,
    cy: bridge ? rect.y + rect.h - 19 : rect.y + 17,
  };
}

/**
 * @typedef {object} Marks
 * @property {Set<string>} [targets] spots, columns ("3": the next row) or gaps ("3-4")
 * @property {string|null} [cursor] the keyboard cursor, one of the targets
 * @property {string|null} [picked] the spot of a picked leader
 * @property {Set<string>} [last] spots the last step changed
 * @property {[number, number]|null} [kingdom] the hovered kingdom's columns (from 0)
 * @property {Set<string>} [conflict] the spots of a pending conflict's leaders
 * @property {Set<string>} [preview] spots a decision's choice concerns
 */

export class LayoutDrawing {
  /** @param {(key: string, params?: Record<string, string|number>) => string} say texts for labels */
  constructor(say) {
    this.say = say;
    this.region = s("g", { class: "region-layer" });
    this.pieces = s("g", { class: "pieces" });
    this.marks = s("g", { class: "marks" });
    this.hit = s("g", { class: "hit" });
    this.ground = s("g", { class: "ground" });
    /** @type {Layout|null} */
    this.layout = null;
    this.rows = 0;
    this.height = HEIGHT;
    this.key = "";
    /** @type {Map<string, SVGElement>} */
    this.faces = new Map();
    /** @type {Map<string, SVGElement>} */
    this.nextFaces = new Map();
    this.svg = /** @type {SVGSVGElement} */ (s("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "layout", role: "group",
      preserveAspectRatio: "xMidYMin meet",
    }, this.ground, this.region, this.pieces, this.marks, this.hit));
  }

  /**
   * The table, column and row numbers, the empty places.
   * @param {number} rows rows to show
   */
  drawGround(rows) {
    const height = heightFor(rows);
    this.height = height;
    this.svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
    const g = [];
    g.push(s("rect", { x: 0, y: 0, width: WIDTH, height, rx: 12, fill: "#2f5a46" }));
    g.push(s("rect", { x: 4, y: 4, width: WIDTH - 8, height: height - 8, rx: 10, fill: "none", stroke: "rgba(255,255,255,.07)", "stroke-width": 2 }));
    for (let c = 0; c < COLUMNS; c++) {
      g.push(s("text", { x: colX(c) + CW / 2, y: TOP - 8, class: "label", "text-anchor": "middle" }, String(c + 1)));
    }
    for (let r = 1; r <= rows; r++) {
      g.push(s("text", { x: LEFT - 8, y: rowY(r) + 21, class: "label row-label", "text-anchor": "end" }, String(r)));
    }
    for (let gap = 0; gap < GAPS; gap++) {
      g.push(s("rect", { x: gapX(gap), y: gapY, width: BW, height: BH, rx: 6, class: "slot gap-slot" }));
    }
    this.ground.replaceChildren(...g);
  }

  /**
   * Draw the cards, bridges and leaders of a view.
   * @param {CardsView} view
   */
  render(view) {
    const lay = view.layout;
    // Most updates (commitments, points, decisions) leave the layout as it was.
    const key = JSON.stringify([lay, view.leaders, document.documentElement.lang]);
    if (key === this.key) return;
    this.key = key;
    this.nextFaces = new Map();
    const longest = Math.max(0, ...(lay.columns ?? []).map((c) => c.length));
    const rows = Math.min(MAX_CARDS, Math.max(4, longest + 1));
    if (rows !== this.rows) {
      this.rows = rows;
      this.drawGround(rows);
    }
    this.layout = lay;
    const out = [];
    const hits = [];
    for (let c = 0; c < COLUMNS; c++) {
      const head = lay.heads?.[c] === "t" ? "t" : "R";
      const col = lay.columns?.[c] ?? [];
      const x = colX(c);
      out.push(this.card(`${c + 1}.0`, head, x, rowY(0), CW, CH, { head: head === "t" ? "t" : "r" }));
      col.forEach((token, i) => {
        out.push(this.card(`${c + 1}.${i + 1}`, token, x, rowY(i + 1), CW, CH, {}));
      });
      // Hit areas: the head, each card's visible part, then below the last card.
      hits.push(this.hitRect(x, rowY(0), CW, CH, { "data-spot": `${c + 1}.0`, "data-col": c + 1 }, this.say("cards.spot.head", { col: c + 1 })));
      col.forEach((_, i) => {
        const last = i === col.length - 1;
        hits.push(this.hitRect(x, rowY(i + 1), CW, last ? CH : STEP, { "data-spot": `${c + 1}.${i + 1}`, "data-col": c + 1 },
          this.say("cards.spot.card", { col: c + 1, row: i + 1 })));
      });
      const below = col.length ? rowY(col.length) + CH : rowY(0) + CH;
      hits.push(this.hitRect(x, below, CW, Math.max(0, this.height - below), { "data-col": c + 1 }, this.say("cards.spot.column", { col: c + 1 })));
    }
    for (let gap = 0; gap < GAPS; gap++) {
      const token = lay.bridges?.[gap] ?? null;
      const name = gapName(gap);
      // The player who laid a face-down bridge sees its colour, marked as hidden from the others.
      const down = name === lay.face_down && token !== "?";
      if (token) out.push(this.card(name, token, gapX(gap), gapY, BW, BH, { bridge: true, down }));
      hits.push(this.hitRect(gapX(gap) - 3, gapY - 8, BW + 6, BH + 16, { "data-gap": name, ...(token ? { "data-spot": name } : {}) },
        this.say("cards.spot.bridge", { gap: name.replace("-", " – ") })));
    }
    for (const l of placedLeaders(view)) {
      const g = this.leader(l.spot, l.seat, l.leader);
      if (g) out.push(g);
    }
    replacePieces(this.pieces, out);
    this.hit.replaceChildren(...hits);
    // Cards drawn once are kept by spot and face, so a new card costs one drawing.
    this.faces = this.nextFaces;
  }

  /**
   * @param {number} x
   * @param {number} y
   * @param {number} w
   * @param {number} h
   * @param {Record<string, string|number>} data
   * @param {string} label
   */
  hitRect(x, y, w, h, data, label) {
    return s("rect", { x, y, width: w, height: h, fill: "transparent", role: "button", "aria-label": label, ...data });
  }

  /**
   * @param {string} spot
   * @param {string} token
   * @param {number} x
   * @param {number} y
   * @param {number} w
   * @param {number} h
   * @param {{head?: string, bridge?: boolean, down?: boolean}} opts
   */
  card(spot, token, x, y, w, h, opts) {
    const data = opts.head ? opts.head : token;
    const id = `${spot}|${data}${opts.down ? "|down" : ""}`;
    const old = this.faces.get(id);
    if (old) {
      this.nextFaces.set(id, old);
      return old;
    }
    const g = s("g", {
      class: `card${opts.head ? " head" : ""}${opts.bridge ? " bridge" : ""}`, "data-spot": spot, "data-card": data,
      transform: `translate(${x} ${y})`,
    }, s("rect", { x: 1.5, y: 2.5, width: w, height: h, rx: 7, fill: "rgba(0,0,0,.28)" }),
    cardFace(token, w, h, { strip: opts.bridge ? 28 : STEP }),
    opts.down ? s("g", { class: "face-down-mark" },
      s("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "rgba(40,30,20,.12)", stroke: "#f0e2c4", "stroke-width": 2, "stroke-dasharray": "4 3" }),
      s("circle", { cx: w / 2, cy: h - 2, r: 9, fill: "#5b4633", stroke: "#f0e2c4", "stroke-width": 1.5 }),
      s("text", { x: w / 2, y: h + 2.5, "text-anchor": "middle", fill: "#f0e2c4", "font-size": 12, "font-weight": 700 }, "?")) : null);
    if (opts.down) g.setAttribute("data-down", "");
    this.nextFaces.set(id, g);
    return g;
  }

  /**
   * A leader: a disc of its colour with the dynasty's symbol and a badge of its colour.
   * @param {string} spot
   * @param {number} seat
   * @param {import("./model.js").Leader} leader
   */
  leader(spot, seat, leader) {
    const at = leaderCentre(spot);
    if (!at) return null;
    const { cx, cy } = at;
    const colour = LEADER_COLOUR[leader];
    const fillc = COLOUR_FILL[colour];
    const r = 15;
    const k = (r * 1.15) / 24;
    const b = 0.36;
    return s("g", {
      class: "leader", "data-spot": spot, "data-seat": seat, "data-leader": LEADER_LETTER[leader], "data-colour": colour,
    },
    s("circle", { cx, cy: cy + 1.5, r, fill: "rgba(0,0,0,.3)" }),
    s("circle", { cx, cy, r, fill: fillc, stroke: "#fffaf0", "stroke-width": 2 }),
    s("g", { transform: `translate(${cx - 12 * k} ${cy - 12 * k}) scale(${k})` }, dynastySymbol(dynastyOf(seat), "#fff", fillc)),
    s("circle", { cx: cx + r * 0.78, cy: cy - r * 0.78, r: 6.5, fill: "#fffaf0", stroke: fillc, "stroke-width": 1 }),
    s("g", { transform: `translate(${cx + r * 0.78 - 12 * b} ${cy - r * 0.78 - 12 * b}) scale(${b})` }, colourSymbol(colour, fillc, "#fffaf0")));
  }

  /**
   * Where a target lies: a spot's card, the next place of a column, an empty gap.
   * @param {string} target
   */
  targetRect(target) {
    if (/^[1-8]$/.test(target)) {
      const c = Number(target) - 1;
      const len = this.layout?.columns?.[c]?.length ?? 0;
      // Below the last card, not over it: the card it would join stays readable.
      return len ? { x: colX(c), y: rowY(len) + CH + 6, w: CW, h: STEP } : { x: colX(c), y: rowY(1), w: CW, h: CH };
    }
    return spotRect(target);
  }

  /**
   * Highlights: targets, the cursor, the last step, the hovered kingdom, a conflict.
   * @param {Marks} m
   */
  mark(m) {
    const region = [];
    if (m.kingdom) {
      const [lo, hi] = m.kingdom;
      let bottom = rowY(0) + CH;
      for (let c = lo; c <= hi; c++) {
        const len = this.layout?.columns?.[c]?.length ?? 0;
        if (len) bottom = Math.max(bottom, rowY(len) + CH);
      }
      region.push(s("rect", {
        x: colX(lo) - 8, y: TOP - 6, width: colX(hi) + CW - colX(lo) + 16, height: bottom - TOP + 14, rx: 12, class: "kingdom",
      }));
    }
    this.region.replaceChildren(...region);
    const out = [];
    const box = (/** @type {string} */ spot, /** @type {string} */ cls, /** @type {number} */ pad) => {
      const r = this.targetRect(spot);
      return r ? s("rect", { x: r.x - pad, y: r.y - pad, width: r.w + 2 * pad, height: r.h + 2 * pad, rx: 8, class: cls, "data-target": spot }) : null;
    };
    for (const spot of m.last ?? []) out.push(box(spot, "last", 2));
    for (const spot of m.preview ?? []) out.push(box(spot, "preview", 3));
    for (const spot of m.conflict ?? []) {
      const at = leaderCentre(spot);
      if (at) out.push(s("circle", { ...at, r: 20, class: "conflict" }));
    }
    for (const t of m.targets ?? []) {
      const slot = /^[1-8]$/.test(t) || (/^[1-7]-[2-8]$/.test(t) && !this.layout?.bridges?.[Number(t[0]) - 1]);
      out.push(box(t, slot ? "target slot-target" : "target", 3));
    }
    if (m.picked) out.push(box(m.picked, "picked", 4));
    if (m.cursor) out.push(box(m.cursor, "cursor", 6));
    this.marks.replaceChildren(...out.filter((x) => x !== null));
  }
}
