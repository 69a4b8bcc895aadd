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
