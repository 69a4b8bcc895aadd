// The card game's legal actions (docs/cards.md "Actions") sorted by what the player
// picks (shared/legal.js): cards by column or gap, leaders and catastrophes by spot,
// wars, points, treasure exchanges, ships.

import { addPlace, emptyLegal, sortLegal } from "../shared/legal.js";
import { colourOf, leaderOf, shipCode } from "./model.js";

/** @typedef {import("./model.js").Colour} Colour */

/**
 * @typedef {import("../shared/legal.js").CommonLegal & {
 *   cards: Map<Colour, Set<string>>,
 *   wars: Colour[],
 *   points: Colour[],
 *   pointNone: boolean,
 *   exchanges: number[],
 *   exchangeNone: boolean,
 *   ships: string[],
 * }} Legal the common part (leaders and catastrophes by spot); targets per card
 *   colour (a column "3" or a gap "3-4"), the colours of the wars that may go first,
 *   the colours that may be paid (`point c`) or none, the columns (from 1) whose
 *   original treasure card may be taken or none, the ship codes ("bk")
 */

/**
 * A colour's pattern: the colour (by letter or name) goes to `list`, else to `other`.
 * @param {Colour[]} list
 * @returns {(m: RegExpExecArray) => boolean}
 */
const colourTo = (list) => (m) => {
  const c = colourOf(m[1]);
  if (c) list.push(c);
  return Boolean(c);
};

/**
 * @param {string[]} legal
 * @returns {Legal}
 */
export function parseLegal(legal) {
  /** @type {Legal} */
  const out = {
    ...emptyLegal(legal.length), cards: new Map(), wars: [], points: [], pointNone: false, exchanges: [], exchangeNone: false, ships: [],
  };
  return sortLegal(legal, out, [
    [/^([rbgk])([1-8](?:-[2-8])?)$/, (m) => addPlace(out.cards, colourOf(m[1]), m[2])],
    [/^([PFTK])([1-8]\.[0-8]|[1-7]-[2-8])$/, (m) => addPlace(out.leaders, leaderOf(m[1]), m[2])],
    [/^x([1-8]\.[0-8]|[1-7]-[2-8])$/, (m) => { out.catastrophes.add(m[1] ?? ""); }],
    [/^war ([a-z]+)$/, colourTo(out.wars)],
    [/^point none$/, () => { out.pointNone = true; }],
    [/^point ([a-z]+)$/, colourTo(out.points)],
    [/^exchange none$/, () => { out.exchangeNone = true; }],
    [/^exchange ([1-8])$/, (m) => { out.exchanges.push(Number(m[1])); }],
    [/^ship ([a-z-]+)$/, (m) => { out.ships.push(shipCode(m[1] ?? "")); }],
  ]);
}
