// The board game's legal actions sorted by what the player picks (shared/legal.js):
// tiles, leaders and catastrophes by square, swaps, wars, monuments, treasures.

import { addPlace, emptyLegal, sortLegal } from "../shared/legal.js";
import { LETTER_COLOUR, LETTER_LEADER } from "../shared/pieces.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/pieces.js").Leader} Leader */

/**
 * @typedef {import("../shared/legal.js").CommonLegal & {
 *   tiles: Map<Colour, Set<string>>,
 *   withdraw: Set<Leader>,
 *   swaps: Set<string>,
 *   wars: Colour[],
 *   monuments: {code: string, square: string, text: string}[],
 *   treasures: {square: string, text: string}[],
 * }} Legal the common part; squares per tile colour, the leaders that may withdraw,
 *   swaps as multisets of tile letters (sorted), the colours of the wars that may go
 *   first, the monuments and the treasures that may be chosen
 */

/**
 * @param {string[]} legal
 * @returns {Legal}
 */
export function parseLegal(legal) {
  /** @type {Legal} */
  const out = {
    ...emptyLegal(legal.length), tiles: new Map(), withdraw: new Set(), swaps: new Set(), wars: [], monuments: [], treasures: [],
  };
  return sortLegal(legal, out, [
    [/^([rbgk])([A-P]\d{1,2})$/, (m) => addPlace(out.tiles, LETTER_COLOUR[m[1] ?? ""], m[2])],
    [/^([PFTK])([A-P]\d{1,2})$/, (m) => addPlace(out.leaders, LETTER_LEADER[m[1] ?? ""], m[2])],
    [/^([PFTK])-$/, (m) => {
      const l = LETTER_LEADER[m[1] ?? ""];
      if (l) out.withdraw.add(l);
      return Boolean(l);
    }],
    [/^x([A-P]\d{1,2})$/, (m) => { out.catastrophes.add(m[1] ?? ""); }],
    [/^swap ([rbgk]+)$/, (m) => { out.swaps.add(sortLetters(m[1] ?? "")); }],
    [/^war ([rbgk])$/, (m) => {
      const c = LETTER_COLOUR[m[1] ?? ""];
      if (c) out.wars.push(c);
      return Boolean(c);
    }],
    [/^monument ([rbgk]{2}) ([A-P]\d{1,2})$/, (m) => { out.monuments.push({ code: m[1] ?? "", square: m[2] ?? "", text: m[0] }); }],
    [/^treasure ([A-P]\d{1,2})$/, (m) => { out.treasures.push({ square: m[1] ?? "", text: m[0] }); }],
  ]);
}

const ORDER = "rbgk";

/** @param {string} letters */
export function sortLetters(letters) {
  return [...letters].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join("");
}
