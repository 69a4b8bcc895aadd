// Small example layouts of the card game for the rules reference, drawn by the card
// table's own drawing (cards/draw.js) and cut to the columns they use.

import { LayoutDrawing } from "../cards/draw.js";
import { cardIcon } from "../cards/pictures.js";
import { CARD_LETTER } from "../cards/model.js";
import { stylesheet } from "../shared/dom.js";

// The card table's stylesheet styles the layout's marks; a board table or the lobby
// does not link it.
void stylesheet("/static/css/cards.css");

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../cards/model.js").CardsView} CardsView */
/** @typedef {import("../cards/draw.js").Marks} Marks */

/** The layout drawing's left margin, card and gap widths (cards/draw.js). */
const LEFT = 26;
const CW = 76;
const GW = 54;

/**
 * @typedef {object} Example
 * @property {number} last the last column shown (from 0; the first is 0)
 * @property {string[][]} columns
 * @property {(string|null)[]} [bridges]
 * @property {string} [heads]
 * @property {string|null} [faceDown]
 * @property {Record<string, string>[]} [leaders] per seat, leader letter → spot
 * @property {Marks} [marks]
 */

/** @type {Record<string, Example>} */
const EXAMPLES = {
  setup: { last: 2, columns: [["r", "b"], ["g"], ["k", "k", "r"]] },
  kingdoms: {
    last: 2, columns: [["r", "b", "g"], ["k", "r", "b"], ["g", "g", "r"]], bridges: ["k"],
    leaders: [{ K: "1.1" }], marks: { kingdom: [0, 1] },
  },
  revolt: {
    last: 1, columns: [["r", "b", "k"], ["b", "g", "g"]], bridges: ["g"],
    leaders: [{ T: "1.1" }, { T: "2.1" }], marks: { kingdom: [0, 1], conflict: new Set(["1.1", "2.1"]) },
  },
  war: {
    last: 1, columns: [["r", "r", "b"], ["g", "k", "r"]], bridges: ["?"], faceDown: "1-2",
    leaders: [{ P: "1.2" }, { P: "2.3" }], marks: { conflict: new Set(["1.2", "2.3"]) },
  },
  ships: {
    last: 1, columns: [["r", "b", "k"], ["k", "bg"]], bridges: ["r"],
    leaders: [{ T: "1.3" }], marks: { last: new Set(["2.2"]) },
  },
  treasures: {
    last: 2, columns: [["r", "g", "b"], ["k", "g", "r"], ["b", "r", "g"]], bridges: ["g", "b"],
    leaders: [{ T: "2.2" }], marks: { kingdom: [0, 2], preview: new Set(["1.0", "2.0", "3.0"]) },
  },
  catastrophes: { last: 0, columns: [["r", "b", "g"]], leaders: [{ F: "1.2" }], marks: { last: new Set(["1.2", "1.3"]) } },
};

/**
 * An example drawn by the card table's drawing, cut to its columns.
 * @param {string} name
 * @param {string} label what it shows, for those who cannot see it
 */
export function figure(name, label) {
  const ex = EXAMPLES[name];
  if (!ex) throw new Error(`no card example ${name}`);
  const drawing = new LayoutDrawing((_key, p) => Object.values(p ?? {}).join(" "));
  const columns = Array.from({ length: 8 }, (_, c) => ex.columns[c] ?? []);
  const bridges = Array.from({ length: 7 }, (_, g) => ex.bridges?.[g] ?? null);
  const view = /** @type {CardsView} */ (/** @type {unknown} */ ({
    layout: { heads: ex.heads ?? "tttttttt", columns, bridges, face_down: ex.faceDown ?? null },
    leaders: ex.leaders ?? [],
  }));
  drawing.render(view);
  drawing.mark(ex.marks ?? {});
  drawing.hit.replaceChildren(); // nothing to click
  const width = LEFT + (ex.last + 1) * CW + ex.last * GW + 12;
  const svg = drawing.svg;
  svg.setAttribute("viewBox", `0 0 ${width} ${drawing.height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("rules-layout");
  svg.dataset.example = name;
  return svg;
}

/** @param {Colour|"treasure"} colour */
export function icon(colour) {
  return cardIcon(colour === "treasure" ? "t" : CARD_LETTER[colour], 16);
}
