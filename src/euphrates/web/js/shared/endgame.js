// The end of a game, as the table and the replay show it: a banner with the winner and
// every place as it counts (docs/fair-play.md: those who left for good last, marked),
// each player's rating change in a rated game, or why it counted for nobody (aborted,
// a repeat, voided); and the game's statistics per player (GET /api/games/{id}/stats, the
// figures of match/stats.py that `euphrates replay --stats` prints too), each player's
// points per colour over the turns drawn as a small chart.

import { call } from "./api.js";
import { h, s } from "./dom.js";
import { listing, t } from "./i18n.js";
import { COLOURS, dynastyOf } from "./pieces.js";
import { COLOUR_FILL, leaderIcon } from "./symbols.js";

/** @typedef {import("./types.js").Outcome} Outcome */
/** @typedef {import("./types.js").GameMeta} GameMeta */
/** @typedef {import("./types.js").Note} Note */

/**
 * @typedef {{won_attacking: number, lost_attacking: number, won_defending: number, lost_defending: number}} Conflicts
 * @typedef {{revolts: Conflicts, wars: Conflicts, monuments: number, treasures: number,
 *            catastrophes: number, placed: number, points: Record<string, number>}} SeatStats
 * @typedef {{game: string, players: number, steps: number, turns: number, seats: SeatStats[],
 *            timeline: {step: number, points: number[][]}[]}} GameStats
 */

/** @type {Map<string, Promise<GameStats>>} */
const FETCHED = new Map();

/**
 * A game's statistics, asked for once per page (the game is over: they no longer change).
 * @param {string} gameId
 * @returns {Promise<GameStats>}
 */
export function fetchStats(gameId) {
  let p = FETCHED.get(gameId);
  if (!p) {
    p = call(`/api/games/${gameId}/stats`);
    FETCHED.set(gameId, p);
    p.catch(() => FETCHED.delete(gameId));
  }
  return p;
}

/**
 * Whether an ended game has a banner to show: a game over (with the engine's outcome,
 * or its result when a duel ended by a player leaving), or aborted.
 * @param {GameMeta} game
 * @param {Outcome|null|undefined} out
 */
export function hasEnd(game, out) {
  return game.status === "aborted" || (game.status === "over" && Boolean(out || game.result));
}

/**
 * The places as they count: the server's result (those who left last), else the engine's.
 * @param {Outcome|null|undefined} out
 * @param {GameMeta|undefined} game
 * @returns {number[]}
 */
function placesOf(out, game) {
  return game?.result?.places ?? out?.places ?? [];
}

/**
 * The header's words for a game over: who won, as the game counts.
 * @param {GameMeta} game
 * @param {Outcome|null|undefined} out
 * @param {(seat: number) => string} name
 */
export function overText(game, out, name) {
  const places = placesOf(out, game);
  const winners = game.result ? places.flatMap((p, x) => (p === 1 ? [x] : [])) : out?.winners ?? [];
  if (!winners.length) return t("status.over");
  return t(winners.length > 1 ? "table.over_shared" : "table.over_wins", { names: listing(winners.map(name)) });
}

/**
 * A rating change as the profile shows it, with its difference: "1000 → 1038 (+38)".
 * @param {{before: number, after: number}} change
 */
export function ratingChange(change) {
  const diff = change.after - change.before;
  const signed = diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : "±0";
  return t("result.change", { before: change.before, after: change.after, diff: signed });
}

/**
 * The banner at the top of an ended game: who won, then every place — each who left
 * for good marked how — and each player's rating change; a rated game that counted
 * for nobody says why. An aborted game says who left it before it was played.
 * @param {Outcome|null|undefined} out the engine's outcome (none when a duel ended by a player leaving)
 * @param {(seat: number) => string} name
 * @param {GameMeta} [game]
 * @param {Note[]} [notes] the game's notes (who aborted it), where known
 */
export function endBanner(out, name, game, notes) {
  if (game?.status === "aborted") {
    const by = notes?.find((n) => n.kind === "aborted");
    const why = !by ? null : typeof by.seat === "number" ? t("result.aborted_by", { who: name(by.seat) }) : t("result.aborted_host");
    return h("section", { class: "end-banner aborted", role: "status" },
      h("h2", { class: "end-winner" }, t("result.aborted")),
      why ? h("p", { class: "end-why" }, why) : null);
  }
  const places = placesOf(out, game);
  const seats = places.map((_, i) => i).sort((a, b) => (places[a] ?? 0) - (places[b] ?? 0) || a - b);
  const winners = game?.result ? seats.filter((x) => places[x] === 1) : out?.winners ?? seats.filter((x) => places[x] === 1);
  const left = new Map((game?.result?.left ?? []).map((l) => [l.seat, l.kind]));
  const ratings = game?.result?.ratings ?? [];
  const verdict = game?.rated && (game.verdict === "repeat" || game.verdict === "voided") ? game.verdict : null;
  return h("section", { class: "end-banner", role: "status" },
    h("h2", { class: "end-winner" }, t(winners.length > 1 ? "score.win_shared" : "score.wins", { names: listing(winners.map(name)) })),
    h("ol", { class: "end-places", "aria-label": t("end.places") }, ...seats.map((x) => {
      const kind = left.get(x);
      const change = ratings[x];
      return h("li", { "data-seat": x, "data-place": places[x] ?? 0, ...(kind ? { "data-left": kind } : {}) },
        leaderIcon("black", dynastyOf(x), 18), h("span", { class: "end-name" }, t("end.place", { place: places[x] ?? 0, name: name(x) })),
        kind ? h("span", { class: "tag left-tag" }, t(`result.${kind}`)) : null,
        change ? h("span", { class: "rating-change", title: t("result.rating") }, ratingChange(change)) : null);
    })),
    verdict ? h("p", { class: "end-verdict", "data-verdict": verdict }, t(`result.${verdict}`)) : null);
}

const CONFLICT_KEYS = /** @type {const} */ (["won_attacking", "lost_attacking", "won_defending", "lost_defending"]);

/**
 * The statistics: one column per player, a row per figure, then each player's chart.
 * @param {GameStats} stats
 * @param {(seat: number) => string} name
 */
export function statsPanel(stats, name) {
  const seats = stats.seats.map((_, i) => i);
  const built = stats.game === "board" ? "stats.monuments" : "stats.ships";
  const placed = stats.game === "board" ? "stats.placed_tiles" : "stats.placed_cards";
  /** @type {[string, (x: SeatStats) => string | number][]} */
  const rows = [];
  for (const which of /** @type {const} */ (["revolts", "wars"])) {
    for (const k of CONFLICT_KEYS) rows.push([`${t(`stats.${which}`)}: ${t(`stats.${k}`)}`, (x) => x[which][k]]);
  }
  rows.push([t(built), (x) => x.monuments], [t("stats.treasures"), (x) => x.treasures],
    [t("stats.catastrophes"), (x) => x.catastrophes], [t(placed), (x) => x.placed]);
  for (const c of COLOURS) rows.push([`${t("stats.points")}: ${t(`colour.${c}`)}`, (x) => x.points[c] ?? 0]);
  return h("section", { class: "panel stats-panel", "data-game": stats.game },
    h("h2", {}, t("stats.title")),
    h("p", { class: "hint" }, t("stats.turns", { n: stats.turns, m: stats.steps })),
    h("table", { class: "stats" },
      h("thead", {}, h("tr", {}, h("th", {}), ...seats.map((x) => h("th", { scope: "col" }, name(x))))),
      h("tbody", {}, ...rows.map(([label, get]) =>
        h("tr", {}, h("th", { scope: "row" }, label), ...stats.seats.map((x, i) => h("td", { "data-seat": i }, String(get(x)))))))),
    h("h3", {}, t("stats.chart")),
    h("div", { class: "stats-charts" }, ...seats.map((x) => pointsChart(stats, x, name(x)))));
}

/**
 * One player's points per colour over the game: a line per colour, with its axes (points
 * from 0 to the player's highest, the game's steps from 0 to the last) and a legend.
 * @param {GameStats} stats
 * @param {number} seat
 * @param {string} who
 */
export function pointsChart(stats, seat, who) {
  const W = 260;
  const H = 120;
  const L = 28; // room for the points' labels
  const B = 22; // room for the steps' labels
  const line = stats.timeline;
  const last = Math.max(1, line.at(-1)?.step ?? 1);
  const top = Math.max(1, ...line.flatMap((e) => e.points[seat] ?? []));
  const x = (/** @type {number} */ step) => L + (step / last) * (W - L - 6);
  const y = (/** @type {number} */ n) => H - B - (n / top) * (H - B - 10);
  const paths = COLOURS.map((c, ci) => s("path", {
    d: line.map((e, i) => `${i ? "L" : "M"}${x(e.step).toFixed(1)} ${y(e.points[seat]?.[ci] ?? 0).toFixed(1)}`).join(""),
    fill: "none", stroke: COLOUR_FILL[c], "stroke-width": 2, "data-colour": c,
  }));
  const ink = { fill: "#4a3b28", "font-size": 10 };
  const ticks = [...new Set([0, Math.round(top / 2), top])].flatMap((n) => [
    s("line", { x1: L - 3, x2: W - 6, y1: y(n), y2: y(n), stroke: n ? "#e6dcc6" : "#8a7556" }),
    s("text", { ...ink, class: "tick-y", x: L - 5, y: y(n) + 3, "text-anchor": "end" }, String(n)),
  ]);
  const steps = [0, last].map((n) => s("text", {
    ...ink, class: "tick-x", x: x(n), y: H - B + 12, "text-anchor": n ? "end" : "start",
  }, String(n)));
  const label = t("stats.chart_of", { name: who, n: stats.turns });
  return h("figure", { class: "points-chart", "data-seat": seat, "data-top": top, "data-last": last },
    s("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": label },
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "#fffaf0", stroke: "#c2ab7c", rx: 4 }),
      s("line", { x1: L, x2: L, y1: 10, y2: H - B, stroke: "#8a7556" }), ...ticks, ...steps,
      s("text", { ...ink, x: (L + W) / 2, y: H - 4, "text-anchor": "middle" }, t("stats.axis_steps")),
      s("text", { ...ink, x: 10, y: (H - B) / 2, "text-anchor": "middle", transform: `rotate(-90 10 ${(H - B) / 2})` }, t("stats.axis_points")),
      ...paths),
    h("figcaption", {}, who,
      h("ul", { class: "chart-legend" }, ...COLOURS.map((c) => h("li", { "data-colour": c },
        h("span", { class: "swatch", "aria-hidden": "true" }), t(`colour.${c}`))))));
}
