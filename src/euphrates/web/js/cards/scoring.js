// The final scoring from the view's `outcome` (C-17, C-18): each player's point pile
// by colour, the treasure cards added as wildcards where they help most, the colours
// sorted weakest first, which colour decided each place, and why the game ended.

import { h } from "../dom.js";
import { listing, t } from "../i18n.js";
import { leaderIcon } from "../board/symbols.js";
import { dynastyOf } from "../board/geometry.js";
import { CARD_LETTER, COLOURS } from "./model.js";
import { cardIcon } from "./pictures.js";

/** @typedef {import("../types.js").Outcome} Outcome */

/**
 * @param {Outcome} out
 * @param {(seat: number) => string} name
 * @param {string|null} reason the game_over event's reason (deck, treasures, stalled)
 */
export function scoringPanel(out, name, reason) {
  const seats = out.places.map((_, i) => i).sort((a, b) => (out.places[a] ?? 0) - (out.places[b] ?? 0) || a - b);
  const sorted = (/** @type {number} */ s) => [...(out.totals[s] ?? [])].sort((a, b) => a - b);
  const winners = out.winners ?? seats.filter((s) => out.places[s] === 1);
  const head = h("tr", {},
    h("th", { scope: "col" }, t("score.place")),
    h("th", { scope: "col" }, t("score.player")),
    ...COLOURS.map((c) => h("th", { scope: "col", class: c }, cardIcon(CARD_LETTER[c], 16, t(`cards.card.${c}`)))),
    h("th", { scope: "col", class: "treasure" }, cardIcon("t", 16, t("cards.treasure_card"))),
    h("th", { scope: "col" }, t("score.sorted")));
  const rows = seats.map((s) => {
    const wild = out.wildcards[s] ?? [];
    const treasures = wild.reduce((a, b) => a + b, 0);
    const weakest = Math.min(...(out.totals[s] ?? [0]));
    return h("tr", { class: winners.includes(s) ? "winner" : "", "data-seat": s },
      h("td", { class: "place" }, `${out.places[s]}.`),
      h("th", { scope: "row" }, leaderIcon("black", dynastyOf(s), 20), " ", name(s)),
      ...COLOURS.map((c, ci) => {
        const w = wild[ci] ?? 0;
        const total = out.totals[s]?.[ci] ?? 0;
        return h("td", { class: `num ${c}${total === weakest ? " weakest" : ""}` },
          h("strong", {}, String(total)),
          w ? h("span", { class: "wild", title: t("cards.score.wild") }, ` (${out.points[s]?.[ci] ?? 0} + ${w}◆)`) : null);
      }),
      h("td", { class: "num treasure" }, String(treasures)),
      h("td", { class: "sorted" }, sorted(s).join(" · ")));
  });
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
  const why = reason && ["deck", "treasures", "stalled"].includes(reason) ? t(`cards.end.${reason}`) : null;
  return h("section", { class: "panel scoring", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, t("score.title")),
    why ? h("p", { class: `end-reason ${reason}` }, why) : null,
    h("p", { class: "winner-line" }, t(winners.length > 1 ? "score.win_shared" : "score.wins", { names: listing(winners.map(name)) })),
    h("table", {}, h("thead", {}, head), h("tbody", {}, ...rows)),
    h("p", { class: "hint" }, t("cards.score.how"), " ◆ = ", t("cards.score.wild")),
    h("ul", { class: "tiebreaks" }, ...notes));
}
