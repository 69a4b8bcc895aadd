// The server's legal actions (the view's `legal`) sorted by what the player picks,
// whatever the game: the page lights places only from this list, never from its own
// reading of the rules. What both games' lists hold alike is read here; each game's
// `legal.js` adds the patterns of its own pieces and decisions.

/**
 * What every game's sorted list has.
 * @typedef {object} CommonLegal
 * @property {Map<import("./pieces.js").Leader, Set<string>>} leaders places per leader
 * @property {Set<string>} catastrophes places
 * @property {boolean} pass
 * @property {number[]} commits the commitments, smallest first
 * @property {boolean} decline
 * @property {string[]} other anything the page does not know how to show
 * @property {number} size
 */

/**
 * A game's pattern and what it adds to the sorted list; false where the text matched
 * but is not understood (it goes to `other`).
 * @typedef {[RegExp, (m: RegExpExecArray) => boolean|void]} Rule
 */

/**
 * An empty sorted list of `size` actions, to which a game adds its own fields.
 * @param {number} size
 * @returns {CommonLegal}
 */
export function emptyLegal(size) {
  return { leaders: new Map(), catastrophes: new Set(), pass: false, commits: [], decline: false, other: [], size };
}

/**
 * @template {CommonLegal} L
 * @param {string[]} legal
 * @param {L} out the game's empty list
 * @param {Rule[]} rules the game's patterns, tried in order
 * @returns {L}
 */
export function sortLegal(legal, out, rules) {
  for (const text of legal) {
    const m = /^commit (\d+)$/.exec(text);
    if (text === "pass") out.pass = true;
    else if (text === "decline") out.decline = true;
    else if (m) out.commits.push(Number(m[1]));
    else if (!rules.some(([rx, add]) => {
      const found = rx.exec(text);
      return found !== null && add(found) !== false;
    })) out.other.push(text);
  }
  out.commits.sort((a, b) => a - b);
  return out;
}

/**
 * Adds a place to a piece's set; false for a piece the page does not know.
 * @template K
 * @param {Map<K, Set<string>>} map
 * @param {K|null|undefined} key
 * @param {string|undefined} place
 */
export function addPlace(map, key, place) {
  if (key === null || key === undefined || place === undefined) return false;
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(place);
  return true;
}
