// The pieces both games name alike: the four colours (tiles of the board game, cards
// of the card game), the four leaders of those colours, their letters in the notation
// (docs/board.md, docs/cards.md), and the dynasties the seats play as.

export const COLOURS = /** @type {const} */ (["red", "blue", "green", "black"]);
/** @typedef {typeof COLOURS[number]} Colour */
export const LEADERS = /** @type {const} */ (["priest", "farmer", "trader", "king"]);
/** @typedef {typeof LEADERS[number]} Leader */

/** Tile letters of the notation (docs/board.md). */
export const TILE_LETTER = { red: "r", blue: "b", green: "g", black: "k" };
/** Leader letters of the notation. */
export const LEADER_LETTER = { priest: "P", farmer: "F", trader: "T", king: "K" };
/** @type {Record<string, Colour>} */
export const LETTER_COLOUR = { r: "red", b: "blue", g: "green", k: "black" };
/** @type {Record<string, Leader>} */
export const LETTER_LEADER = { P: "priest", F: "farmer", T: "trader", K: "king" };
/** @type {Record<Leader, Colour>} */
export const LEADER_COLOUR = { priest: "red", farmer: "blue", trader: "green", king: "black" };

/**
 * The leader whose kingdom colour this is (priest red, farmer blue, trader green, king black).
 * @param {Colour} colour
 */
export function leaderOfColour(colour) {
  return /** @type {Leader} */ (LEADERS[COLOURS.indexOf(colour)]);
}

/**
 * @param {string} name
 * @returns {Colour | null}
 */
export function asColour(name) {
  return /** @type {readonly string[]} */ (COLOURS).includes(name) ? /** @type {Colour} */ (name) : null;
}

/**
 * @param {string} name
 * @returns {Leader | null}
 */
export function asLeader(name) {
  return /** @type {readonly string[]} */ (LEADERS).includes(name) ? /** @type {Leader} */ (name) : null;
}

/** Dynasties are cosmetic (RULINGS.md): seat 0..3 → lion, bull, bow, urn. */
export const DYNASTIES = /** @type {const} */ (["lion", "bull", "bow", "urn"]);
/** @typedef {typeof DYNASTIES[number]} Dynasty */

/**
 * @param {number} seat
 * @returns {Dynasty}
 */
export function dynastyOf(seat) {
  return DYNASTIES[seat % 4] ?? "lion";
}
