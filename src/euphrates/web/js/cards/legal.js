// The server's legal actions (the view's `legal`, docs/cards.md "Actions"), sorted
// by what the player picks: the page lights spots only from this list.

import { colourOf, leaderOf, shipCode } from "./model.js";

/** @typedef {import("./model.js").Colour} Colour */
/** @typedef {import("./model.js").Leader} Leader */

/**
 * @typedef {object} Legal
 * @property {Map<Colour, Set<string>>} cards targets per colour: a column ("3") or a gap ("3-4")
 * @property {Map<Leader, Set<string>>} leaders spots per leader
 * @property {Set<string>} catastrophes spots
 * @property {boolean} pass
 * @property {number[]} commits
 * @property {Colour[]} wars
 * @property {Colour[]} points colours that may be paid (`point c`)
 * @property {boolean} pointNone
 * @property {number[]} exchanges columns (from 1) whose original treasure card may be taken
 * @property {boolean} exchangeNone
 * @property {string[]} ships ship codes ("bk")
 * @property {boolean} decline
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
    cards: new Map(), leaders: new Map(), catastrophes: new Set(), pass: false, commits: [], wars: [],
    points: [], pointNone: false, exchanges: [], exchangeNone: false, ships: [], decline: false,
    other: [], size: legal.length,
  };
  for (const text of legal) {
    let m;
    if ((m = /^([rbgk])([1-8](?:-[2-8])?)$/.exec(text))) {
      const c = colourOf(m[1]);
      if (c) add(out.cards, c, m[2] ?? "");
    } else if ((m = /^([PFTK])([1-8]\.[0-8]|[1-7]-[2-8])$/.exec(text))) {
      const l = leaderOf(m[1]);
      if (l) add(out.leaders, l, m[2] ?? "");
    } else if ((m = /^x([1-8]\.[0-8]|[1-7]-[2-8])$/.exec(text))) {
      out.catastrophes.add(m[1] ?? "");
    } else if (text === "pass") {
      out.pass = true;
    } else if ((m = /^commit (\d+)$/.exec(text))) {
      out.commits.push(Number(m[1]));
    } else if ((m = /^war ([a-z]+)$/.exec(text))) {
      const c = colourOf(m[1]);
      if (c) out.wars.push(c);
      else out.other.push(text);
    } else if (text === "point none") {
      out.pointNone = true;
    } else if ((m = /^point ([a-z]+)$/.exec(text))) {
      const c = colourOf(m[1]);
      if (c) out.points.push(c);
      else out.other.push(text);
    } else if (text === "exchange none") {
      out.exchangeNone = true;
    } else if ((m = /^exchange ([1-8])$/.exec(text))) {
      out.exchanges.push(Number(m[1]));
    } else if ((m = /^ship ([a-z-]+)$/.exec(text))) {
      out.ships.push(shipCode(m[1] ?? ""));
    } else if (text === "decline") {
      out.decline = true;
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
 * @param {string} target
 */
function add(map, key, target) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(target);
}
