// The final scoring from the view's `outcome` (B-32): points per colour, where the
// treasures went as wildcards, the weakest colours compared, the tie-breaks.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { scoringTable } from "../scoring.js";
import { COLOURS } from "./geometry.js";
import { tileIcon } from "./symbols.js";

/** @typedef {import("../types.js").Outcome} Outcome */

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
