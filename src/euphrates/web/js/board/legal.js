// The server's legal actions (the view's `legal`), sorted by what the player
// picks: the page lights squares only from this list, never from its own rules.

import { LETTER_COLOUR, LETTER_LEADER } from "../shared/pieces.js";

/** @typedef {import("../shared/pieces.js").Colour} Colour */
/** @typedef {import("../shared/pieces.js").Leader} Leader */

/**
 * @typedef {object} Legal
 * @property {Map<Colour, Set<string>>} tiles
 * @property {Map<Leader, Set<string>>} leaders
 * @property {Set<Leader>} withdraw
 * @property {Set<string>} catastrophes
 * @property {Set<string>} swaps multisets of tile letters, sorted
 * @property {boolean} pass
 * @property {number[]} commits
 * @property {Colour[]} wars
 * @property {{code: string, square: string, text: string}[]} monuments
 * @property {boolean} decline
 * @property {{square: string, text: string}[]} treasures
 * @property {string[]} other anything this page does not know how to show
 * @property {number} size
 */

/**
 * @param {string[]} legal
 * @returns {Legal}
 */
export function parseLegal(legal) {
  /** @type {Legal} */
  const out = {
    tiles: new Map(), leaders: new Map(), withdraw: new Set(), catastrophes: new Set(), swaps: new Set(),
    pass: false, commits: [], wars: [], monuments: [], decline: false, treasures: [], other: [], size: legal.length,
  };
  for (const text of legal) {
    let m;
    if ((m = /^([rbgk])([A-P]\d{1,2})$/.exec(text))) {
      const c = LETTER_COLOUR[m[1] ?? ""];
      if (c) add(out.tiles, c, m[2] ?? "");
    } else if ((m = /^([PFTK])([A-P]\d{1,2})$/.exec(text))) {
      const l = LETTER_LEADER[m[1] ?? ""];
      if (l) add(out.leaders, l, m[2] ?? "");
    } else if ((m = /^([PFTK])-$/.exec(text))) {
      const l = LETTER_LEADER[m[1] ?? ""];
      if (l) out.withdraw.add(l);
    } else if ((m = /^x([A-P]\d{1,2})$/.exec(text))) {
      out.catastrophes.add(m[1] ?? "");
    } else if ((m = /^swap ([rbgk]+)$/.exec(text))) {
      out.swaps.add(sortLetters(m[1] ?? ""));
    } else if (text === "pass") {
      out.pass = true;
    } else if ((m = /^commit (\d+)$/.exec(text))) {
      out.commits.push(Number(m[1]));
    } else if ((m = /^war ([rbgk])$/.exec(text))) {
      const c = LETTER_COLOUR[m[1] ?? ""];
      if (c) out.wars.push(c);
    } else if ((m = /^monument ([rbgk]{2}) ([A-P]\d{1,2})$/.exec(text))) {
      out.monuments.push({ code: m[1] ?? "", square: m[2] ?? "", text });
    } else if (text === "decline") {
      out.decline = true;
    } else if ((m = /^treasure ([A-P]\d{1,2})$/.exec(text))) {
      out.treasures.push({ square: m[1] ?? "", text });
    } else {
      out.other.push(text);
    }
  }
  out.commits.sort((a, b) => a - b);
  return out;
}

/**
 * @template K
 * @param {Map<K, Set<string>>} map
 * @param {K} key
 * @param {string} sq
 */
function add(map, key, sq) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(sq);
}

const ORDER = "rbgk";

/** @param {string} letters */
export function sortLetters(letters) {
  return [...letters].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join("");
}
