// Cards drawn as cards: each colour with its symbol (the board table's temple, farm,
// market and settlement, so colour is never the only clue), treasure cards gold with
// a gem, ships split in their two colours with a hull, the back of a card for the deck
// and a face-down bridge. One face serves the layout, the hand and the panels.

import { s } from "../shared/dom.js";
import { COLOUR_FILL, colourSymbol } from "../shared/symbols.js";
import { colourOf, shipColours } from "./model.js";

/** @typedef {import("./model.js").Colour} Colour */

const GOLD = "#c99a22";
const BACK = "#5b4633";

/**
 * A treasure card's gem, in a 24×24 box.
 * @param {string} ink
 * @param {string} ground
 */
function gemSymbol(ink, ground) {
  return s("g", {},
    s("path", { d: "M6 4 H18 L22.5 9.5 L12 21.5 L1.5 9.5 Z", fill: ink }),
    s("path", { d: "M1.5 9.5 H22.5 M8.5 4 L6.5 9.5 L12 21.5 L17.5 9.5 L15.5 4 M6.5 9.5 L12 4 L17.5 9.5", stroke: ground, "stroke-width": 1, fill: "none", "stroke-linejoin": "round" }));
}

/**
 * A ship's hull and sails, in a 24×24 box.
 * @param {string} ink
 */
function shipSymbol(ink) {
  return s("g", { fill: ink },
    s("path", { d: "M1.5 15.5 H22.5 L18.5 21.5 H5.5 Z" }),
    s("rect", { x: 11.2, y: 2, width: 1.6, height: 13 }),
    s("path", { d: "M13.4 3 L20.5 13.8 H13.4 Z" }),
    s("path", { d: "M10.6 5.5 L4.5 13.8 H10.6 Z" }));
}

/**
 * A symbol of `size` units centred at (cx, cy).
 * @param {SVGElement} symbol drawn in a 24×24 box
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 */
function placed(symbol, cx, cy, size) {
  const k = size / 24;
  return s("g", { transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${k})` }, symbol);
}

/**
 * What a card token shows: a colour letter, `t` an original treasure card, `R` the red
 * card that replaced one, a ship code, `?` a face-down card.
 * @param {string} token
 */
function tokenKind(token) {
  if (token === "t") return "treasure";
  if (token === "R") return "replaced";
  if (token === "?") return "back";
  if (token.length === 2 || token.includes("-")) return "ship";
  return "card";
}

/**
 * A card's face with its top-left corner at (0, 0). The corner symbol sits in the
 * top strip that stays visible where cards overlap in a column.
 * @param {string} token
 * @param {number} w
 * @param {number} h
 * @param {{strip?: number}} [opts]
 */
export function cardFace(token, w, h, opts = {}) {
  const kind = tokenKind(token);
  const strip = opts.strip ?? 30;
  const corner = Math.min(20, strip - 8, w * 0.34);
  const big = Math.min(w, h) * 0.52;
  const g = s("g", { class: `face face-${kind}` });
  const frame = (/** @type {string} */ fill) => [
    s("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill, stroke: "rgba(0,0,0,.38)", "stroke-width": 1 }),
    s("rect", { x: 3, y: 3, width: w - 6, height: h - 6, rx: 5, fill: "none", stroke: "rgba(255,255,255,.35)", "stroke-width": 1 }),
  ];
  if (kind === "card" || kind === "replaced") {
    const c = /** @type {Colour} */ (colourOf(kind === "replaced" ? "r" : token) ?? "red");
    const fill = COLOUR_FILL[c];
    g.append(...frame(fill),
      placed(colourSymbol(c, "#fff", fill), 5 + corner / 2, 4 + corner / 2, corner),
      placed(colourSymbol(c, "#fff", fill), w / 2, h / 2 + strip * 0.18, big));
    if (kind === "replaced") {
      // The outline of the treasure card it replaced (C-14).
      g.append(placed(s("path", { d: "M6 4 H18 L22.5 9.5 L12 21.5 L1.5 9.5 Z", fill: "none", stroke: "#f2c230", "stroke-width": 2.4 }),
        w - 5 - corner / 2, 4 + corner / 2, corner));
    }
  } else if (kind === "treasure") {
    g.append(...frame(GOLD),
      placed(gemSymbol("#fff7d6", GOLD), 5 + corner / 2, 4 + corner / 2, corner),
      placed(gemSymbol("#fff7d6", GOLD), w / 2, h / 2 + strip * 0.18, big));
  } else if (kind === "ship") {
    const [a, b] = shipColours(token);
    const fa = COLOUR_FILL[a];
    const fb = COLOUR_FILL[b];
    g.append(
      s("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: fb }),
      s("path", { d: `M7 0 H${w - 7} Q${w} 0 ${w} 7 V${h * 0.55} L0 ${h * 0.75} V7 Q0 0 7 0 Z`, fill: fa }),
      s("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "none", stroke: "rgba(0,0,0,.38)", "stroke-width": 1 }),
      placed(colourSymbol(a, "#fff", fa), 5 + corner / 2, 4 + corner / 2, corner),
      placed(colourSymbol(b, "#fff", fb), w - 5 - corner / 2, 4 + corner / 2, corner),
      // A hull in the top strip too, where the card is all that shows in a column.
      placed(shipSymbol("#fff"), w / 2, 4 + corner / 2, corner),
      s("circle", { cx: w / 2, cy: h / 2 + strip * 0.18, r: big * 0.62, fill: "rgba(255,255,255,.92)" }),
      placed(shipSymbol("#2d2620"), w / 2, h / 2 + strip * 0.18, big * 0.8));
  } else {
    g.append(...frame(BACK),
      s("path", { d: hatch(w, h, 9), stroke: "rgba(255,255,255,.09)", "stroke-width": 3 }),
      s("rect", { x: w / 2 - big * 0.42, y: h / 2 - big * 0.42, width: big * 0.84, height: big * 0.84, rx: 5, fill: "none", stroke: "#d8c59c", "stroke-width": 1.5, transform: `rotate(45 ${w / 2} ${h / 2})` }),
      s("text", { x: w / 2, y: h / 2 + big * 0.2, "text-anchor": "middle", fill: "#f0e2c4", "font-size": big * 0.55, "font-weight": 700 }, "?"));
  }
  return g;
}

/**
 * Diagonal lines every `step` units, cut to the card (the back's pattern).
 * @param {number} w
 * @param {number} h
 * @param {number} step
 */
function hatch(w, h, step) {
  const parts = [];
  for (let c = step; c < w + h; c += step) {
    const [x0, y0] = c <= w ? [c, 0] : [w, c - w];
    const [x1, y1] = c <= h ? [0, c] : [c - h, h];
    parts.push(`M${x0 - 1.5} ${y0 + 1.5}L${x1 + 1.5} ${y1 - 1.5}`);
  }
  return parts.join("");
}

/**
 * A card as a standalone picture (hand, panels, piles, log).
 * @param {string} token
 * @param {number} width
 * @param {string} [label] accessible name
 * @param {number} [ratio] height / width
 */
export function cardIcon(token, width, label, ratio = 1.4) {
  const w = 50;
  const h = Math.round(w * ratio);
  return s("svg", {
    viewBox: `-1 -1 ${w + 2} ${h + 2}`, width, height: Math.round((width * (h + 2)) / (w + 2)), class: "icon card-icon",
    role: label ? "img" : null, "aria-label": label ?? null, "aria-hidden": label ? null : "true",
  }, cardFace(token, w, h, { strip: 26 }));
}
