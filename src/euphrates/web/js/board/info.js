// What a hovered square of the board holds: its kingdom and the strengths of the
// leaders in it (B-4, B-20, B-24).

import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { LEADER_COLOUR, dynastyOf } from "../shared/pieces.js";
import { leaderIcon } from "../shared/symbols.js";

/** @typedef {import("./kingdoms.js").Region} Region */
/** @typedef {import("./kingdoms.js").PlacedLeader} PlacedLeader */

/**
 * @param {string} sq
 * @param {Region|null} region
 * @param {(seat: number) => string} name
 * @param {(region: Region, leader: PlacedLeader) => {war: number, revolt: number}} strength
 */
export function squareInfo(sq, region, name, strength) {
  if (!region) return h("div", { class: "info-line" }, h("strong", {}, sq));
  const kingdom = region.leaders.length > 0;
  return h("div", { class: "info-box" },
    h("div", { class: "info-line" }, h("strong", {}, sq), " · ", kingdom ? t("table.kingdom") : t("table.region"),
      region.treasures ? ` · ${t("table.treasures_n", { n: region.treasures })}` : ""),
    kingdom ? h("ul", { class: "strengths" }, ...region.leaders.map((l) => {
      const st = strength(region, l);
      return h("li", {}, leaderIcon(LEADER_COLOUR[l.leader], dynastyOf(l.seat), 20),
        t("table.strength", { leader: t(`leader.${l.leader}`), who: name(l.seat), war: st.war, revolt: st.revolt }));
    })) : null);
}
