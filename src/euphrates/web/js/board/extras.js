// Smaller parts of the board table: what a hovered square holds (its kingdom and
// the strengths of the leaders in it, B-4, B-20, B-24) and the host's controls.

import { call } from "../shared/api.js";
import { h } from "../shared/dom.js";
import { errorText, t } from "../shared/i18n.js";
import { LEADER_COLOUR, dynastyOf } from "./geometry.js";
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

/**
 * The host's controls: a bot takes over a seat, or the game is abandoned.
 * @param {import("../shared/types.js").GameMeta} game
 * @param {string|null} token
 * @param {(seat: number) => string} name
 * @param {(message: string) => void} say
 */
export function hostPanel(game, token, name, say) {
  if (!token) return null;
  /** @param {string} path @param {any} body */
  const post = async (path, body) => {
    try {
      await call(`/api/games/${game.id}${path}`, { method: "POST", body, tokens: [token] });
    } catch (e) {
      say(errorText(e));
    }
  };
  return h("details", { class: "panel host" },
    h("summary", {}, t("table.host")),
    ...game.seats.filter((s) => s.kind === "human").map((s) => h("button", {
      type: "button", class: "small", onclick: () => post(`/seats/${s.seat}/bot`, { level: "intermediate" }),
    }, `${t("table.to_bot", { n: s.seat + 1 })} (${name(s.seat)})`)),
    h("button", {
      type: "button", class: "small danger",
      onclick: () => { if (confirm(t("table.abandon_sure"))) void post("/abandon", {}); },
    }, t("table.abandon")));
}
