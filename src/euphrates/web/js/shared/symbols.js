// Symbols drawn in a 24×24 box: one per tile colour, so that colour is never the
// only clue (colour-blind players), and one per dynasty (cosmetic, RULINGS.md).

import { s } from "./dom.js";

/** @typedef {import("./pieces.js").Colour} Colour */
/** @typedef {import("./pieces.js").Dynasty} Dynasty */

/** @type {Map<string, SVGElement>} */
const TEMPLATES = new Map();

/**
 * A copy of a drawing made once: cloning is much cheaper than building, and panels
 * are redrawn on every update.
 * @param {string} key
 * @param {() => SVGElement} make
 * @returns {SVGElement}
 */
export function cached(key, make) {
  let template = TEMPLATES.get(key);
  if (!template) {
    template = make();
    TEMPLATES.set(key, template);
  }
  return /** @type {SVGElement} */ (template.cloneNode(true));
}

export const COLOUR_FILL = {
  red: "#c0432f",
  blue: "#2f6db0",
  green: "#3a8a46",
  black: "#30363b",
};

/**
 * A tile colour's symbol: temple, farm (wheat), market (scales), settlement (house).
 * @param {Colour} colour
 * @param {string} ink
 * @param {string} ground the colour under the symbol, for cut-outs
 * @returns {SVGElement}
 */
export function colourSymbol(colour, ink, ground) {
  switch (colour) {
    case "red":
      return s("g", { fill: ink },
        s("path", { d: "M2.5 9 L12 2.8 L21.5 9 Z" }),
        s("rect", { x: 4, y: 9.8, width: 16, height: 1.8 }),
        s("rect", { x: 5.2, y: 12.4, width: 2.4, height: 6.6 }),
        s("rect", { x: 10.8, y: 12.4, width: 2.4, height: 6.6 }),
        s("rect", { x: 16.4, y: 12.4, width: 2.4, height: 6.6 }),
        s("rect", { x: 3, y: 19.6, width: 18, height: 2.4 }));
    case "blue":
      return s("g", { fill: ink },
        s("rect", { x: 11.2, y: 6, width: 1.6, height: 16 }),
        s("ellipse", { cx: 12, cy: 4.6, rx: 1.7, ry: 2.8 }),
        ...[8.2, 12.4, 16.6].flatMap((y) => [
          s("ellipse", { cx: 9.4, cy: y, rx: 1.7, ry: 3, transform: `rotate(-32 9.4 ${y})` }),
          s("ellipse", { cx: 14.6, cy: y, rx: 1.7, ry: 3, transform: `rotate(32 14.6 ${y})` }),
        ]));
    case "green":
      return s("g", { fill: ink, stroke: ink },
        s("rect", { x: 11.1, y: 4.5, width: 1.8, height: 15, stroke: "none" }),
        s("rect", { x: 7, y: 19.5, width: 10, height: 2.5, rx: 0.8, stroke: "none" }),
        s("rect", { x: 3.5, y: 5.6, width: 17, height: 1.7, rx: 0.8, stroke: "none" }),
        s("circle", { cx: 12, cy: 3.6, r: 1.6, stroke: "none" }),
        s("path", { d: "M5 7 L2.6 13.2 M5 7 L7.4 13.2 M19 7 L16.6 13.2 M19 7 L21.4 13.2", fill: "none", "stroke-width": 0.9 }),
        s("path", { d: "M1.6 13.2 Q5 18 8.4 13.2 Z M15.6 13.2 Q19 18 22.4 13.2 Z", stroke: "none" }));
    case "black":
      return s("g", {},
        s("path", { d: "M3 11.5 L12 3.5 L21 11.5 L19 11.5 L19 21 L5 21 L5 11.5 Z", fill: ink }),
        s("rect", { x: 10, y: 14.5, width: 4, height: 6.5, fill: ground }),
        s("rect", { x: 15.8, y: 4.5, width: 2.4, height: 4.5, fill: ink }));
  }
}

/**
 * A dynasty's symbol: lion, bull, bow, urn.
 * @param {Dynasty} dynasty
 * @param {string} ink
 * @param {string} ground
 * @returns {SVGElement}
 */
export function dynastySymbol(dynasty, ink, ground) {
  switch (dynasty) {
    case "lion": {
      const mane = [];
      for (let i = 0; i < 12; i++) {
        const a = (Math.PI * i) / 6;
        mane.push(s("circle", { cx: (12 + 8.2 * Math.sin(a)).toFixed(2), cy: (12.4 - 8.2 * Math.cos(a)).toFixed(2), r: 2.9 }));
      }
      return s("g", {},
        s("g", { fill: ink }, ...mane, s("circle", { cx: 12, cy: 12.4, r: 8.4 })),
        s("circle", { cx: 12, cy: 12.6, r: 5.8, fill: ground }),
        s("circle", { cx: 9.8, cy: 11.4, r: 1, fill: ink }),
        s("circle", { cx: 14.2, cy: 11.4, r: 1, fill: ink }),
        s("path", { d: "M10.4 14 L13.6 14 L12 15.8 Z", fill: ink }),
        s("path", { d: "M12 15.8 Q10.8 17.4 9.6 16.6 M12 15.8 Q13.2 17.4 14.4 16.6", stroke: ink, "stroke-width": 0.8, fill: "none" }));
    }
    case "bull":
      return s("g", { fill: ink },
        s("path", { d: "M7.5 8.5 Q12 6.6 16.5 8.5 L15.2 17.5 Q12 21.2 8.8 17.5 Z" }),
        s("path", { d: "M8.2 9.4 Q2.4 8.6 2.6 2.8 Q5 7 9.4 7.4 Z" }),
        s("path", { d: "M15.8 9.4 Q21.6 8.6 21.4 2.8 Q19 7 14.6 7.4 Z" }),
        s("circle", { cx: 10.5, cy: 17, r: 0.9, fill: ground }),
        s("circle", { cx: 13.5, cy: 17, r: 0.9, fill: ground }));
    case "bow":
      return s("g", { stroke: ink, fill: "none", "stroke-linecap": "round" },
        s("path", { d: "M8 2.5 Q21 12 8 21.5", "stroke-width": 2.4 }),
        s("path", { d: "M8 2.5 L8 21.5", "stroke-width": 0.9 }),
        s("path", { d: "M2.5 12 L19.5 12", "stroke-width": 1.6 }),
        s("path", { d: "M22 12 L18 9.6 L18 14.4 Z", fill: ink, stroke: "none" }),
        s("path", { d: "M2.5 12 L1 9.5 M2.5 12 L1 14.5 M4.5 12 L3 9.5 M4.5 12 L3 14.5", "stroke-width": 1 }));
    case "urn":
      return s("g", { fill: ink },
        s("path", { d: "M8.6 2.5 H15.4 V4.6 Q14 5.4 14 6.8 Q19.4 9.6 18.6 15 Q17.6 20.8 12 21.5 Q6.4 20.8 5.4 15 Q4.6 9.6 10 6.8 Q10 5.4 8.6 4.6 Z" }),
        s("path", { d: "M10 7.5 Q4 6 5.6 12", fill: "none", stroke: ink, "stroke-width": 1.3 }),
        s("path", { d: "M14 7.5 Q20 6 18.4 12", fill: "none", stroke: ink, "stroke-width": 1.3 }),
        s("rect", { x: 6.4, y: 13, width: 11.2, height: 1.2, fill: ground }));
  }
}

/**
 * A standalone symbol icon (for panels and the log), `size` pixels square.
 * @param {SVGElement} symbol
 * @param {number} size
 * @param {string} [background]
 * @param {string} [label] accessible name
 * @returns {SVGElement}
 */
function icon(symbol, size, background, label) {
  return s("svg", {
    viewBox: "0 0 24 24", width: size, height: size, class: "icon",
    role: label ? "img" : null, "aria-label": label ?? null, "aria-hidden": label ? null : "true",
  },
    background ? s("rect", { x: 0, y: 0, width: 24, height: 24, rx: 4, fill: background }) : null,
    symbol);
}

/**
 * A tile as a small picture: its colour with its white symbol.
 * @param {Colour} colour
 * @param {number} size
 * @param {string} [label]
 */
export function tileIcon(colour, size, label) {
  return cached(`t${colour}${size}${label ?? ""}`, () => makeTileIcon(colour, size, label));
}

/**
 * @param {Colour} colour
 * @param {number} size
 * @param {string} [label]
 */
function makeTileIcon(colour, size, label) {
  const g = s("g", { transform: "translate(3.6 3.6) scale(0.7)" }, colourSymbol(colour, "#fff", COLOUR_FILL[colour]));
  return icon(g, size, COLOUR_FILL[colour], label);
}

/**
 * A leader as a small picture: a disc of its colour with the dynasty's symbol.
 * @param {Colour} colour
 * @param {Dynasty} dynasty
 * @param {number} size
 * @param {string} [label]
 */
export function leaderIcon(colour, dynasty, size, label) {
  return cached(`l${colour}${dynasty}${size}${label ?? ""}`, () => makeLeaderIcon(colour, dynasty, size, label));
}

/**
 * @param {Colour} colour
 * @param {Dynasty} dynasty
 * @param {number} size
 * @param {string} [label]
 */
function makeLeaderIcon(colour, dynasty, size, label) {
  const fillc = COLOUR_FILL[colour];
  return s("svg", {
    viewBox: "0 0 24 24", width: size, height: size, class: "icon",
    role: label ? "img" : null, "aria-label": label ?? null, "aria-hidden": label ? null : "true",
  },
    s("circle", { cx: 12, cy: 12, r: 11.4, fill: fillc, stroke: "#fff", "stroke-width": 1 }),
    s("g", { transform: "translate(4.8 4.8) scale(0.6)" }, dynastySymbol(dynasty, "#fff", fillc)),
    s("circle", { cx: 19.4, cy: 4.6, r: 4.6, fill: "#fff" }),
    s("g", { transform: "translate(16 1.2) scale(0.285)" }, colourSymbol(colour, fillc, "#fff")));
}
