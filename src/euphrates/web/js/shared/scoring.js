// The final scoring as both games show it (B-32, C-17, C-18): a row per player from
// first place down, the game's columns between the name and the colours sorted
// weakest first, the winners, and which colour decided each place over the next.

import { h } from "./dom.js";
import { listing, t } from "./i18n.js";
import { leaderIcon } from "./symbols.js";
import { dynastyOf } from "./pieces.js";

/** @typedef {import("./types.js").Outcome} Outcome */

/**
 * What a game shows of its own in the scoring.
 * @typedef {object} ScoringParts
 * @property {Node[]} heads the head cells of the game's columns
 * @property {(seat: number) => Node[]} cells a player's cells in those columns
 * @property {string} how the text key saying how the colours were counted
 * @property {string} wild the text key naming a wildcard (◆)
 * @property {Node|null} [before] shown above the winners (why the game ended)
 */

/**
 * @param {Outcome} out
 * @param {(seat: number) => string} name
 * @param {ScoringParts} parts
 */
export function scoringTable(out, name, parts) {
  const seats = out.places.map((_, i) => i).sort((a, b) => (out.places[a] ?? 0) - (out.places[b] ?? 0) || a - b);
  const sorted = (/** @type {number} */ s) => [...(out.totals[s] ?? [])].sort((a, b) => a - b);
  const winners = out.winners ?? seats.filter((s) => out.places[s] === 1);
  const head = h("tr", {},
    h("th", { scope: "col" }, t("score.place")),
    h("th", { scope: "col" }, t("score.player")),
    ...parts.heads,
    h("th", { scope: "col" }, t("score.sorted")));
  const rows = seats.map((s) => h("tr", { class: winners.includes(s) ? "winner" : "", "data-seat": s },
    h("td", { class: "place" }, `${out.places[s]}.`),
    h("th", { scope: "row" }, leaderIcon("black", dynastyOf(s), 20), " ", name(s)),
    ...parts.cells(s),
    h("td", { class: "sorted" }, sorted(s).join(" · "))));
  const notes = [];
  for (let i = 0; i + 1 < seats.length; i++) {
    const a = /** @type {number} */ (seats[i]);
    const b = /** @type {number} */ (seats[i + 1]);
    const sa = sorted(a);
    const sb = sorted(b);
    const at = sa.findIndex((x, k) => x !== sb[k]);
    notes.push(h("li", {}, at < 0
      ? t("score.tie", { a: name(a), b: name(b) })
      : t("score.by", { a: name(a), b: name(b), nth: t(`score.nth.${at + 1}`), x: sa[at] ?? 0, y: sb[at] ?? 0 })));
  }
  return h("section", { class: "panel scoring", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, t("score.title")),
    parts.before ?? null,
    h("p", { class: "winner-line" }, t(winners.length > 1 ? "score.win_shared" : "score.wins", { names: listing(winners.map(name)) })),
    h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...rows))),
    h("p", { class: "hint" }, t(parts.how), " ◆ = ", t(parts.wild)),
    h("ul", { class: "tiebreaks" }, ...notes));
}
