// What a hovered column's kingdom holds (C-4): its columns, its original treasure
// cards, its ships, and each leader in it with the strengths it brings before any
// commitment — in a war the face-up cards of its colour (C-12), in a revolt 1 for
// standing on a red card (C-10). Worked out from the view for display only.

import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { leaderIcon } from "../shared/symbols.js";
import { dynastyOf } from "../shared/pieces.js";
import { LEADER_COLOUR, inKingdom, placedLeaders, strengths } from "./model.js";
import { spotWords } from "./words.js";

/** @typedef {import("./model.js").CardsView} CardsView */

/**
 * @param {CardsView} view
 * @param {[number, number]} k columns from 0
 * @param {(seat: number) => string} name
 */
export function kingdomInfo(view, k, name) {
  const lay = view.layout;
  const [lo, hi] = k;
  let treasures = 0;
  let ships = 0;
  for (let c = lo; c <= hi; c++) {
    if (lay.heads?.[c] === "t") treasures += 1;
    for (const card of lay.columns[c] ?? []) if (card.length === 2) ships += 1;
  }
  const leaders = placedLeaders(view).filter((l) => inKingdom(l.spot, k));
  const cols = lo === hi ? t("cards.info.column", { col: lo + 1 }) : t("cards.info.columns", { a: lo + 1, b: hi + 1 });
  return h("div", { class: "info-box" },
    h("div", { class: "info-line" }, h("strong", {}, t("table.kingdom")), " · ", cols,
      ` · ${t("cards.info.treasures", { n: treasures })}`,
      ships ? ` · ${t("cards.info.ships", { n: ships })}` : "",
      leaders.length ? "" : ` · ${t("cards.info.no_leader")}`),
    leaders.length ? h("ul", { class: "strengths" }, ...leaders.map((l) => {
      const st = strengths(lay, l);
      return h("li", { "data-spot": l.spot }, leaderIcon(LEADER_COLOUR[l.leader], dynastyOf(l.seat), 20),
        t("cards.info.strength", { leader: t(`leader.${l.leader}`), who: name(l.seat), spot: spotWords(l.spot), war: st.war, revolt: st.revolt }));
    })) : null);
}
