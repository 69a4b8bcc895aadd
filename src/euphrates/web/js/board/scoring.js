// The final scoring from the view's `outcome` (B-32): points per colour, where the
// treasures went as wildcards, the weakest colours compared, the tie-breaks.

import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { scoringTable } from "../shared/scoring.js";
import { COLOURS } from "../shared/pieces.js";
import { tileIcon } from "../shared/symbols.js";

/** @typedef {import("../shared/types.js").Outcome} Outcome */

/**
 * @param {Outcome} out
 * @param {(seat: number) => string} name
 */
export function scoringPanel(out, name) {
  return scoringTable(out, name, {
    heads: COLOURS.map((c) => h("th", { scope: "col", class: c }, tileIcon(c, 18, t(`tile.${c}`)))),
    cells: (s) => COLOURS.map((c, ci) => {
      const wild = out.wildcards[s]?.[ci] ?? 0;
      return h("td", { class: `num ${c}` },
        h("strong", {}, String(out.totals[s]?.[ci] ?? 0)),
        wild ? h("span", { class: "wild", title: t("score.wild") }, ` (${out.points[s]?.[ci] ?? 0} + ${wild}◆)`) : null);
    }),
    how: "score.how",
    wild: "score.wild",
  });
}
