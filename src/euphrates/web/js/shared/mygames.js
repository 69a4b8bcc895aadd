// The games this browser created or joined, with the links that open them. Kept in
// localStorage only: the page and the player's own browser, never a server.

const KEY = "euphrates.games";

/**
 * @typedef {object} MyGame
 * @property {string} id
 * @property {string} game "board" or "cards"
 * @property {number} players
 * @property {string[]} seats tokens of the seats at this screen
 * @property {string|null} host the host token, for the game's creator
 * @property {{seat: number, link: string}[]} invites links made for friends
 * @property {string} status
 * @property {string} at when it was created or joined (ISO)
 */

/** @returns {MyGame[]} */
export function myGames() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(raw) ? raw.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

/** @param {MyGame[]} games */
function save(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, 100)));
  } catch {
    /* storage full or disabled: the list is a convenience only */
  }
}

/**
 * Add a game or merge what is known about it.
 * @param {Partial<MyGame> & {id: string}} entry
 */
export function remember(entry) {
  const games = myGames();
  const old = games.find((g) => g.id === entry.id);
  /** @type {MyGame} */
  const merged = {
    game: "board", players: 2, seats: [], host: null, invites: [], status: "waiting",
    at: new Date().toISOString(), ...old, ...entry,
  };
  if (old && entry.seats) merged.seats = [...new Set([...old.seats, ...entry.seats])];
  save([merged, ...games.filter((g) => g.id !== entry.id)]);
}

/** @param {string} id */
export function forget(id) {
  save(myGames().filter((g) => g.id !== id));
}

/** @param {string} id */
export function findGame(id) {
  return myGames().find((g) => g.id === id) ?? null;
}

/**
 * The fragment that opens a game with these tokens: `#s=t1,t2` and `&h=host`.
 * @param {string[]} seats
 * @param {string|null} host
 */
export function fragment(seats, host) {
  const parts = [];
  if (seats.length) parts.push(`s=${seats.join(",")}`);
  if (host) parts.push(`h=${host}`);
  return parts.length ? `#${parts.join("&")}` : "";
}

/**
 * Tokens from a link's fragment (`#s=…`, `#h=…`); never from its path or query.
 * @param {string} hash
 */
export function readFragment(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const seats = (params.get("s") ?? "").split(",").map((x) => x.trim()).filter(Boolean);
  const host = params.get("h")?.trim() || null;
  return { seats, host };
}

const NAME_KEY = "euphrates.name";

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

/** @param {string} name */
export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* not kept */
  }
}
