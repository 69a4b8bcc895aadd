// Squares as people read them (board-map.md): columns A–P left to right, rows
// 1–11 top to bottom; A1 is (0, 0).

export const COLUMNS = 16;
export const ROWS = 11;
const LETTERS = "ABCDEFGHIJKLMNOP";

/**
 * @param {number} x
 * @param {number} y
 */
export function squareName(x, y) {
  return `${LETTERS[x]}${y + 1}`;
}

/**
 * @param {string} name
 * @returns {[number, number] | null}
 */
export function parseSquare(name) {
  const m = /^([A-P])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const x = LETTERS.indexOf(/** @type {string} */ (m[1]));
  const y = Number(m[2]) - 1;
  return y >= 0 && y < ROWS ? [x, y] : null;
}

/**
 * Orthogonal neighbours of a square, by name.
 * @param {string} name
 * @returns {string[]}
 */
export function neighbours(name) {
  const p = parseSquare(name);
  if (!p) return [];
  const [x, y] = p;
  /** @type {string[]} */
  const out = [];
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const nx = x + /** @type {number} */ (dx);
    const ny = y + /** @type {number} */ (dy);
    if (nx >= 0 && nx < COLUMNS && ny >= 0 && ny < ROWS) out.push(squareName(nx, ny));
  }
  return out;
}

/**
 * The four squares of a 2×2 block named by its top-left square.
 * @param {string} topLeft
 * @returns {string[]}
 */
export function block(topLeft) {
  const p = parseSquare(topLeft);
  if (!p) return [];
  const [x, y] = p;
  return [squareName(x, y), squareName(x + 1, y), squareName(x, y + 1), squareName(x + 1, y + 1)];
}

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
