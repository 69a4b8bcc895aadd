// The card game's layout as the view gives it (docs/cards.md): eight heads in a row,
// a column under each, a gap between neighbours that may hold a bridge. Spots are
// the notation's ("3.0" a head, "3.2" column 3 row 2, "3-4" a bridge). Kingdoms and
// strengths are worked out here for display only (C-4, C-10, C-12); what may be
// played always comes from the server's `legal` list.

import {
  COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, LETTER_COLOUR, LETTER_LEADER, TILE_LETTER, asColour, asLeader, leaderOfColour,
} from "../shared/pieces.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/pieces.js").Leader} Leader */

export const COLUMNS = 8;
export const GAPS = 7;
export const MAX_CARDS = 8;
export { COLOURS, LEADERS, LEADER_COLOUR, LEADER_LETTER, leaderOfColour };

/** Card letters of the notation; `t` a treasure card in a pile. */
export const CARD_LETTER = /** @type {Record<Colour, string>} */ (TILE_LETTER);

/**
 * @typedef {object} Layout
 * @property {string} heads one letter per head: `t` an original treasure card, `r` its red replacement
 * @property {string[][]} columns cards top to bottom; ships by their two letters
 * @property {(string|null)[]} bridges one per gap; `"?"` a face-down bridge the viewer may not see
 * @property {string|null} face_down the gap whose bridge lies face down during its wars
 */

/**
 * A seat's view of the card game (docs/cards.md, "Views"), read defensively.
 * @typedef {object} CardsView
 * @property {string} game
 * @property {number} players
 * @property {Record<string, boolean>} options
 * @property {number} version
 * @property {number} first
 * @property {number} active
 * @property {number} actions_left
 * @property {Layout} layout
 * @property {Record<string, string|null>[]} leaders per seat, by leader letter
 * @property {string|null} hand the viewer's hand, letters in colour order
 * @property {number[]} hand_counts
 * @property {boolean[]} catastrophes
 * @property {string[]} ships ships still to be built
 * @property {number} deck_count
 * @property {number} removed_count
 * @property {string} discard
 * @property {string} out cards removed by catastrophes
 * @property {Record<string, any>[]} piles closed: `{top, height}`; open: counts per colour and `t`
 * @property {Record<string, number>[]} [declined] per seat and colour letter, cards held since a declined point (G-1)
 * @property {Record<string, any>} pending
 * @property {boolean} over
 * @property {import("../shared/types.js").Outcome|null} outcome
 * @property {Record<string, number>} [not_seen] per colour, the cards not yet seen in the open
 * @property {number|null} viewer
 * @property {import("../shared/types.js").Decision|null} decision
 * @property {string[]} legal
 */

/**
 * A colour from a letter, a name or the engine's number (contexts and events use
 * letters now and names later; both are read).
 * @param {unknown} x
 * @returns {Colour|null}
 */
export function colourOf(x) {
  if (typeof x === "number") return COLOURS[x] ?? null;
  if (typeof x !== "string") return null;
  return LETTER_COLOUR[x] ?? asColour(x.toLowerCase());
}

/**
 * A leader from its letter, name, number or colour.
 * @param {unknown} x
 * @returns {Leader|null}
 */
export function leaderOf(x) {
  if (typeof x === "number") return LEADERS[x] ?? null;
  if (typeof x !== "string") return null;
  const l = LETTER_LEADER[x] ?? asLeader(x.toLowerCase());
  if (l) return l;
  const c = colourOf(x);
  return c ? LEADERS[COLOURS.indexOf(c)] ?? null : null;
}

/**
 * The colours of a ship's code ("bk", or a name like "blue-black").
 * @param {string} code
 * @returns {[Colour, Colour]}
 */
export function shipColours(code) {
  if (code.includes("-")) {
    const [a, b] = code.split("-");
    return [colourOf(a) ?? "blue", colourOf(b) ?? "red"];
  }
  return [colourOf(code[0]) ?? "blue", colourOf(code[1]) ?? "red"];
}

/** @param {string} code */
export function shipCode(code) {
  const [a, b] = shipColours(code);
  return `${CARD_LETTER[a]}${CARD_LETTER[b]}`;
}

/**
 * Counts per colour of a run of card letters ("rrgk").
 * @param {string|null|undefined} letters
 * @returns {Record<Colour, number>}
 */
export function countCards(letters) {
  /** @type {Record<Colour, number>} */
  const out = { red: 0, blue: 0, green: 0, black: 0 };
  for (const ch of letters ?? "") {
    const c = colourOf(ch);
    if (c) out[c] += 1;
  }
  return out;
}

/**
 * @typedef {{kind: "head", col: number} | {kind: "card", col: number, row: number}
 *   | {kind: "bridge", gap: number}} Spot
 */

/**
 * A spot of the notation, columns and gaps counted from 0 here.
 * @param {string} name
 * @returns {Spot|null}
 */
export function parseSpot(name) {
  let m = /^([1-8])\.([0-8])$/.exec(name);
  if (m) {
    const col = Number(m[1]) - 1;
    const row = Number(m[2]);
    return row === 0 ? { kind: "head", col } : { kind: "card", col, row };
  }
  m = /^([1-7])-([2-8])$/.exec(name);
  if (m && Number(m[2]) === Number(m[1]) + 1) return { kind: "bridge", gap: Number(m[1]) - 1 };
  return null;
}

/** @param {number} gap counted from 0 */
export function gapName(gap) {
  return `${gap + 1}-${gap + 2}`;
}

/**
 * The card a spot holds: a colour letter, a ship code, `"?"`, or `"h"` for a head.
 * @param {Layout} lay
 * @param {string} spot
 */
function cardAt(lay, spot) {
  const p = parseSpot(spot);
  if (!p) return null;
  if (p.kind === "head") return "h";
  if (p.kind === "bridge") return lay.bridges[p.gap] ?? null;
  return lay.columns[p.col]?.[p.row - 1] ?? null;
}

/**
 * The columns (from 0) joined with `col` through bridges, as [lo, hi] (C-4). A gap
 * in `without` counts as empty (the face-down bridge during its wars, C-12).
 * @param {Layout} lay
 * @param {number} col
 * @param {number|null} [without]
 * @returns {[number, number]}
 */
export function kingdomOf(lay, col, without = null) {
  let lo = col;
  let hi = col;
  while (lo > 0 && lay.bridges[lo - 1] && lo - 1 !== without) lo -= 1;
  while (hi < COLUMNS - 1 && lay.bridges[hi] && hi !== without) hi += 1;
  return [lo, hi];
}

/**
 * The column (from 0) a spot belongs to for its kingdom; a bridge joins both sides.
 * @param {string} spot
 */
export function spotColumn(spot) {
  const p = parseSpot(spot);
  if (!p) return -1;
  return p.kind === "bridge" ? p.gap : p.col;
}

/**
 * Whether a spot lies in the kingdom [lo, hi].
 * @param {string} spot
 * @param {[number, number]} k
 */
export function inKingdom(spot, k) {
  const p = parseSpot(spot);
  if (!p) return false;
  if (p.kind === "bridge") return p.gap >= k[0] && p.gap < k[1];
  return p.col >= k[0] && p.col <= k[1];
}

/**
 * @typedef {{seat: number, leader: Leader, spot: string}} PlacedLeader
 */

/**
 * Every leader in the layout.
 * @param {CardsView} view
 * @returns {PlacedLeader[]}
 */
export function placedLeaders(view) {
  /** @type {PlacedLeader[]} */
  const out = [];
  (view.leaders ?? []).forEach((byLetter, seat) => {
    for (const [key, spot] of Object.entries(byLetter ?? {})) {
      const leader = leaderOf(key);
      if (leader && typeof spot === "string") out.push({ seat, leader, spot });
    }
  });
  return out;
}

/**
 * A leader's strengths for display: in a war, the face-up cards of its colour in its
 * kingdom — column cards, bridges, in a red war the heads; ships and a face-down
 * bridge count for nothing (C-12); in a revolt, 1 when it stands on a red card, a
 * head or a red bridge (C-10).
 * @param {Layout} lay
 * @param {PlacedLeader} l
 * @returns {{war: number, revolt: number}}
 */
export function strengths(lay, l) {
  const colour = LEADER_COLOUR[l.leader];
  const letter = CARD_LETTER[colour];
  const k = kingdomOf(lay, Math.max(0, spotColumn(l.spot)), faceDownGap(lay));
  let war = 0;
  for (let c = k[0]; c <= k[1]; c++) {
    if (colour === "red") war += 1;
    for (const card of lay.columns[c] ?? []) if (card === letter) war += 1;
    if (c < k[1] && lay.bridges[c] === letter) war += 1;
  }
  const on = cardAt(lay, l.spot);
  const revolt = on === "h" || on === "r" ? 1 : 0;
  return { war, revolt };
}

/**
 * The gap (from 0) of the face-down bridge, or null.
 * @param {Layout} lay
 */
export function faceDownGap(lay) {
  const p = lay.face_down ? parseSpot(lay.face_down) : null;
  return p && p.kind === "bridge" ? p.gap : null;
}

/**
 * The same view with what the seat shown may not see masked: the colour of a
 * face-down bridge laid by another seat (C-19), for a screen that holds several
 * seats and shows only public parts while covered.
 * @param {CardsView} view
 * @param {number|null} shown the seat whose private view may be shown
 * @returns {CardsView}
 */
export function publicPart(view, shown) {
  const gap = faceDownGap(view.layout);
  const hideBridge = gap !== null && shown !== view.active;
  if (!hideBridge && view.viewer === shown) return view;
  const bridges = [...view.layout.bridges];
  if (hideBridge && gap !== null) bridges[gap] = "?";
  return { ...view, hand: null, legal: [], viewer: shown, layout: { ...view.layout, bridges } };
}
