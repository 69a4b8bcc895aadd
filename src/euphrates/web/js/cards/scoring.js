// The final scoring from the view's `outcome` (C-17, C-18): each player's point pile
// by colour, the treasure cards added as wildcards where they help most, the colours
// sorted weakest first, which colour decided each place, and why the game ended.

import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { scoringTable } from "../shared/scoring.js";
import { CARD_LETTER, COLOURS } from "./model.js";
import { cardIcon } from "./pictures.js";

/** @typedef {import("../shared/types.js").Outcome} Outcome */

/**
 * @param {Outcome} out
 * @param {(seat: number) => string} name
 * @param {string|null} reason the game_over event's reason (deck, treasures, stalled)
 */
export function scoringPanel(out, name, reason) {
  const why = reason && ["deck", "treasures", "stalled"].includes(reason) ? t(`cards.end.${reason}`) : null;
  return scoringTable(out, name, {
    heads: [
      ...COLOURS.map((c) => h("th", { scope: "col", class: c }, cardIcon(CARD_LETTER[c], 16, t(`cards.card.${c}`)))),
      h("th", { scope: "col", class: "treasure" }, cardIcon("t", 16, t("cards.treasure_card"))),
    ],
    cells: (s) => {
      const wild = out.wildcards[s] ?? [];
      const treasures = wild.reduce((a, b) => a + b, 0);
      const weakest = Math.min(...(out.totals[s] ?? [0]));
      return [
        ...COLOURS.map((c, ci) => {
          const w = wild[ci] ?? 0;
          const total = out.totals[s]?.[ci] ?? 0;
          return h("td", { class: `num ${c}${total === weakest ? " weakest" : ""}` },
            h("strong", {}, String(total)),
            w ? h("span", { class: "wild", title: t("cards.score.wild") }, ` (${out.points[s]?.[ci] ?? 0} + ${w}◆)`) : null);
        }),
        h("td", { class: "num treasure" }, String(treasures)),
      ];
    },
    how: "cards.score.how",
    wild: "cards.score.wild",
    before: why ? h("p", { class: `end-reason ${reason}` }, why) : null,
  });
}
