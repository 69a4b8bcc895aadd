// What the server offers a lobby (`GET /api/meta`, docs/server.md): its games in its
// order, each as the game's definition describes itself (`GameDefinition.describe`),
// and the bots' levels. A page draws its forms from this rather than from names
// written into it, so a game the server adds needs nothing new here.

import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { DYNASTIES } from "./pieces.js";
import { leaderIcon } from "./symbols.js";

/**
 * A game as a lobby offers it: its options with their defaults, its numbers of
 * players, and how a seat is marked before the game starts, "dynasty" by its
 * dynasty's symbol (the board game's leaders) or "number" by its number.
 * @typedef {{title?: string, options: Record<string, boolean>, players: number[], seats: string}} GameOffer
 */

/**
 * The figures of the fair-play rules the server keeps (docs/fair-play.md).
 * @typedef {{min_decisions: number, abort_limit: number, pair_limit: number, forfeit_grace: number,
 *            misses: number, vacation_days: number, hints_per_minute: number, marks_days: number}} FairPlay
 */

/**
 * @typedef {{games: string[], described: Record<string, GameOffer>, levels: string[],
 *            rated: Record<string, Record<string, string[]>>, fair: FairPlay|null}} Offer
 *   `rated`: by game and player-count group ("2", "3-4"), the levels a rated game seats
 */

/**
 * The offer in an answer of `/api/meta`. A server that describes no game yet (no
 * `definitions`) still names each game's options and the numbers of players: the
 * options start off and seats are numbered, which is true of every game.
 * @param {any} meta
 * @returns {Offer}
 */
export function readOffer(meta) {
  const games = Object.keys(meta?.games ?? {});
  /** @type {Record<string, GameOffer>} */
  const described = {};
  for (const g of games) {
    described[g] = meta.definitions?.[g] ?? {
      options: Object.fromEntries((meta.games[g] ?? []).map((/** @type {string} */ o) => [o, false])),
      players: meta.players ?? [],
      seats: "number",
    };
  }
  return { games, described, levels: meta?.levels ?? [], rated: meta?.rated_levels ?? {}, fair: meta?.fair_play ?? null };
}

/** What the server offers, asked once per call. */
export async function loadOffer() {
  return readOffer(await call("/api/meta"));
}

/** @type {Promise<Offer>|null} */
let once = null;

/** What the server offers, asked once per page (again only after a failure). */
export function offerOnce() {
  if (!once) {
    once = loadOffer();
    once.catch(() => { once = null; });
  }
  return once;
}

/**
 * The bots' levels a rated game of `game` for `players` seats: those with a measured
 * rating in its player-count group, in the server's order.
 * @param {Offer} offer
 * @param {string} game
 * @param {number} players
 */
export function ratedLevels(offer, game, players) {
  const measured = offer.rated[game]?.[players === 2 ? "2" : "3-4"] ?? [];
  return offer.levels.filter((l) => measured.includes(l));
}

/**
 * The seats a form starts with, as many as any game offered takes: the first at this
 * screen, the others bots of `level` if the server has that level, else its first
 * (with no bots at all, invitations).
 * @param {Offer} offer
 * @param {string} level
 * @returns {{choice: string, name: string}[]}
 */
export function firstSeats(offer, level) {
  const bot = offer.levels.includes(level) ? level : offer.levels[0];
  const most = Math.max(0, ...Object.values(offer.described).flatMap((d) => d.players));
  return Array.from({ length: most }, (_, i) => ({ choice: i === 0 ? "here" : bot ? `bot:${bot}` : "invite", name: "" }));
}

/**
 * How seat `i` is marked in a form, as its game describes its seats: by its dynasty's
 * symbol, which the table shows on that seat's leaders, or by its number.
 * @param {GameOffer | undefined} game
 * @param {number} i
 */
export function seatMark(game, i) {
  if (game?.seats === "dynasty") {
    const dyn = DYNASTIES[i] ?? "lion";
    return leaderIcon("black", dyn, 26, t(`dynasty.${dyn}`));
  }
  return h("span", { class: "seat-no" }, String(i + 1));
}
