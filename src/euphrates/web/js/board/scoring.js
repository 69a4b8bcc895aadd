// The final scoring from the view's `outcome` (B-32): points per colour, where the
// treasures went as wildcards, the weakest colours compared, the tie-breaks.

import { h } from "../dom.js";
import { listing, t } from "../i18n.js";
import { COLOURS, dynastyOf } from "./geometry.js";
import { leaderIcon, tileIcon } from "./symbols.js";

/** @typedef {import("../types.js").Outcome} Outcome */

/**
 * @param {Outcome} out
 * @param {(seat: number) => string} name
 */
export function scoringPanel(out, name) {
  const seats = out.places.map((_, i) => i).sort((a, b) => (out.places[a] ?? 0) - (out.places[b] ?? 0) || a - b);
  const sorted = (/** @type {number} */ s) => [...(out.totals[s] ?? [])].sort((a, b) => a - b);
  const winners = out.winners ?? seats.filter((s) => out.places[s] === 1);
  const head = h("tr", {},
    h("th", { scope: "col" }, t("score.place")),
    h("th", { scope: "col" }, t("score.player")),
    ...COLOURS.map((c) => h("th", { scope: "col", class: c }, tileIcon(c, 18, t(`tile.${c}`)))),
    h("th", { scope: "col" }, t("score.sorted")));
  const rows = seats.map((s) => h("tr", { class: winners.includes(s) ? "winner" : "", "data-seat": s },
    h("td", { class: "place" }, `${out.places[s]}.`),
    h("th", { scope: "row" }, leaderIcon("black", dynastyOf(s), 20), " ", name(s)),
    ...COLOURS.map((c, ci) => {
      const wild = out.wildcards[s]?.[ci] ?? 0;
      return h("td", { class: `num ${c}` },
        h("strong", {}, String(out.totals[s]?.[ci] ?? 0)),
        wild ? h("span", { class: "wild", title: t("score.wild") }, ` (${out.points[s]?.[ci] ?? 0} + ${wild}◆)`) : null);
    }),
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
  const names = listing(winners.map(name));
  return h("section", { class: "panel scoring", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, t("score.title")),
    h("p", { class: "winner-line" }, t(winners.length > 1 ? "score.win_shared" : "score.wins", { names })),
    h("table", {}, h("thead", {}, head), h("tbody", {}, ...rows)),
    h("p", { class: "hint" }, t("score.how"), " ◆ = ", t("score.wild")),
    h("ul", { class: "tiebreaks" }, ...notes));
}
