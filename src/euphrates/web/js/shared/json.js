// JSON from the server, read so that no integer beyond what a JavaScript number holds
// exactly (2**53 - 1) is ever turned into one: such an integer (a game's seed lies in
// 0 … 2**64-1) becomes a string of its digits. `JSON.parse` alone would round it, and a
// record written back from the rounded number would no longer replay.

// A string (skipped whole, escapes included) or a number.
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * @param {string} text JSON text
 * @returns {any}
 */
export function parseJson(text) {
  const safe = text.replace(TOKEN, (m) =>
    m.charCodeAt(0) === 34 || /[.eE]/.test(m) || Number.isSafeInteger(Number(m)) ? m : `"${m}"`);
  return JSON.parse(safe);
}
