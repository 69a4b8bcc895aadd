// Small example layouts of the card game for the rules reference, drawn by the card
// table's own drawing (cards/draw.js) and cut to the columns they use. The layouts are
// those of the claim table (web/rules/claims/cards.json), which
// tests/web/test_rules_claims.py plays through the engine; nothing here lays a card of
// its own.

import { LayoutDrawing } from "../cards/draw.js";
import { cardIcon } from "../cards/pictures.js";
import { CARD_LETTER } from "../cards/model.js";
import { h, stylesheet } from "../shared/dom.js";

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
 * A layout as the claim table writes it (a position's `layout`, the columns shown
 * only), per seat the leaders (leader letter → spot), and the places to mark.
 * @typedef {object} Pieces
 * @property {{heads?: string, columns: string[][], bridges?: (string|null)[], face_down?: string|null}} layout
 * @property {Record<string, string>[]} [leaders]
 * @property {Record<string, (string|number)[]>} [marks] last, conflict, preview, targets; kingdom as [from, to]
 */
/** @typedef {Pieces & {before?: Pieces, steps?: boolean}} Example with `steps`, `before` is drawn first */

/** There is no map to fetch for the card game. */
export async function ready() {}

/**
 * The rows a layout's drawing shows (cards/draw.js: one below the longest column, 4 to 8).
 * @param {Pieces} p
 */
const rowsOf = (p) => Math.min(8, Math.max(4, ...p.layout.columns.map((c) => c.length + 1)));

/**
 * One layout drawn by the card table's drawing, cut to its columns; a face-down
 * bridge as the other players see it.
 * @param {string} name
 * @param {Pieces} p
 * @param {number} rows the rows to show at least (two steps are drawn alike)
 */
function drawing(name, p, rows) {
  const d = new LayoutDrawing((_key, q) => Object.values(q ?? {}).join(" "));
  const lay = p.layout;
  const shown = lay.columns.length;
  const columns = Array.from({ length: 8 }, (_, c) => lay.columns[c] ?? []);
  const bridges = Array.from({ length: 7 }, (_, g) => {
    const card = lay.bridges?.[g] ?? null;
    return card && lay.face_down === `${g + 1}-${g + 2}` ? "?" : card;
  });
  const view = /** @type {CardsView} */ (/** @type {unknown} */ ({
    layout: { heads: lay.heads ?? "tttttttt", columns, bridges, face_down: lay.face_down ?? null },
    leaders: p.leaders ?? [],
  }));
  d.render(view);
  if (rows > d.rows) {
    d.rows = rows;
    d.drawGround(rows);
  }
  d.mark(/** @type {Marks} */ (Object.fromEntries(Object.entries(p.marks ?? {})
    .map(([k, v]) => [k, k === "kingdom" ? v : new Set(v.map(String))]))));
  d.hit.replaceChildren(); // nothing to click
  const width = LEFT + shown * CW + (shown - 1) * GW + 12;
  const svg = d.svg;
  svg.setAttribute("viewBox", `0 0 ${width} ${d.height}`);
  svg.classList.add("rules-layout");
  svg.dataset.example = name;
  return svg;
}

/**
 * An example of the claim table drawn by the card table's drawing: the layout, or with
 * `steps` the layout before and after.
 * @param {string} name
 * @param {unknown} example the figure's entry in the claim table
 * @param {string} label what it shows, for those who cannot see it
 */
export function figure(name, example, label) {
  const ex = /** @type {Example} */ (example);
  const rows = ex.steps && ex.before ? Math.max(rowsOf(ex), rowsOf(ex.before)) : 0;
  const after = drawing(name, ex, rows);
  if (!ex.steps || !ex.before) {
    after.setAttribute("role", "img");
    after.setAttribute("aria-label", label);
    return after;
  }
  const before = drawing(name, ex.before, rows);
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
  return cardIcon(colour === "treasure" ? "t" : CARD_LETTER[colour], 16);
}
